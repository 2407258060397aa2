"""Reports of a bad drill, called directly: the form, one open report per player, drill and kind, resolving, the staff list, the merge."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from accounts.models import Player
from accounts.services import merge_players
from puzzles import selectors, services
from puzzles.forms import ReportForm, ResolveForm
from puzzles.models import DrillReport
from tests.puzzles.factories import discard_puzzle, quiz_puzzle

pytestmark = pytest.mark.django_db


@pytest.fixture
def drill():
    return discard_puzzle("34556p123789sZZZ")


def test_the_form_takes_a_kind_and_words_of_limited_length():
    form = ReportForm({"kind": "position", "text": "  the 5p is a sixth copy  "})
    assert form.is_valid() and form.cleaned_data == {"kind": "position", "text": "the 5p is a sixth copy"}
    assert ReportForm({"kind": "answer", "text": ""}).is_valid()
    for data, field in (({"kind": "nonsense"}, "kind"), ({}, "kind"), ({"kind": "other", "text": " "}, "text"), ({"kind": "answer", "text": "x" * 501}, "text")):
        form = ReportForm(data)
        assert not form.is_valid() and list(form.errors) == [field], data
    assert "500" in ReportForm({"kind": "answer", "text": "字" * 501}).errors["text"][0]
    assert not ReportForm({"kind": "answer", "text": "a\x00b"}).is_valid()  # a NUL cannot be stored


def test_a_report_sent_twice_is_one_report(drill):
    player = Player.objects.create()
    first = services.report_drill(player=player, puzzle=drill, kind="answer", text="3p is not best")
    again = services.report_drill(player=player, puzzle=drill, kind="answer", text="")
    assert first.new and not again.new and again.report == first.report
    assert DrillReport.objects.get().text == "3p is not best"  # no words: the first ones stay
    services.report_drill(player=player, puzzle=drill, kind="answer", text="Z is best by value")
    assert DrillReport.objects.get().text == "Z is best by value"
    services.report_drill(player=player, puzzle=drill, kind="explanation", text="")  # another kind: another report
    services.report_drill(player=Player.objects.create(), puzzle=drill, kind="answer", text="")  # another player
    assert DrillReport.objects.count() == 3 and selectors.open_reports(puzzle=drill) == 3


def test_resolving_closes_reports_and_a_later_report_is_a_new_one(drill):
    players = [Player.objects.create() for _ in range(3)]
    reports = [services.report_drill(player=p, puzzle=drill, kind="position", text="").report for p in players]
    assert services.resolve_reports(puzzle=drill, report_id=reports[0].pk) == 1
    assert selectors.open_reports(puzzle=drill) == 2
    assert services.resolve_reports(puzzle=drill) == 2 and selectors.open_reports(puzzle=drill) == 0
    assert services.resolve_reports(puzzle=drill) == 0
    later = services.report_drill(player=players[0], puzzle=drill, kind="position", text="still impossible")
    assert later.new and DrillReport.objects.filter(player=players[0]).count() == 2 and selectors.open_reports(puzzle=drill) == 1


def test_resolving_one_report_of_another_drill_changes_nothing(drill):
    other = quiz_puzzle("4556p123789sZZZ", "5p")
    report = services.report_drill(player=Player.objects.create(), puzzle=other, kind="answer", text="").report
    assert services.resolve_reports(puzzle=drill, report_id=report.pk) == 0 and selectors.open_reports(puzzle=other) == 1


def test_the_staff_list_has_the_most_reported_drill_first_with_its_open_reports(drill):
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    quiet = discard_puzzle("34556p123789sZZZ")
    players = [Player.objects.create() for _ in range(3)]
    services.report_drill(player=players[0], puzzle=drill, kind="answer", text="first")
    for p in players:
        services.report_drill(player=p, puzzle=quiz, kind="position", text="")
    services.report_drill(player=players[0], puzzle=quiz, kind="explanation", text="")
    services.report_drill(player=players[1], puzzle=quiet, kind="answer", text="")
    services.resolve_reports(puzzle=quiet)
    listed = selectors.reported_drills()
    assert [(d.puzzle, d.count) for d in listed] == [(quiz, 4), (drill, 1)]
    assert listed[0].by_kind == [("position", 3), ("explanation", 1)] and listed[1].reports[0].text == "first"


def test_the_resolve_form_names_the_drill_and_optionally_one_report(drill):
    assert ResolveForm({"drill": str(drill.pk)}).is_valid()
    form = ResolveForm({"drill": str(drill.pk), "report": "7"})
    assert form.is_valid() and form.cleaned_data == {"puzzle": drill, "report_id": 7}
    assert list(ResolveForm({"drill": "999999"}).errors) == ["drill"] and list(ResolveForm({"drill": str(drill.pk), "report": "x"}).errors) == ["report"]


def test_logging_in_moves_a_visitors_reports_and_keeps_one_of_the_same(drill):
    account = Player.objects.create(user=User.objects.create_user("wang", password="pw-12345678"))
    visitor = Player.objects.create()
    services.report_drill(player=account, puzzle=drill, kind="answer", text="mine")
    services.report_drill(player=visitor, puzzle=drill, kind="answer", text="the same, from the phone")
    services.report_drill(player=visitor, puzzle=drill, kind="position", text="")
    merge_players(source=visitor, target=account)
    assert sorted(DrillReport.objects.filter(player=account).values_list("kind", "text")) == [("answer", "mine"), ("position", "")]
    assert not DrillReport.objects.filter(player=visitor).exists()

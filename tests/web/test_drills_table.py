"""Table drills (碰不碰, 杠不杠, 亮不亮, defence) and the table above every drill: pages, answers, explanations from the figures."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from kwx.hand.tiles import TILE_IDS, kinds_of
from kwx_site.text import tile_label
from puzzles.explain import shape_text
from puzzles.models import Attempt, Puzzle
from tests.puzzles.factories import ensure_bank, table_drill

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _attempt(html: str) -> str:
    return re.search(r'name="attempt" value="([^"]+)"', html).group(1)


def _rivers(html: str) -> list[list[str]]:
    """The tiles of each river on the page, in order."""
    blocks = re.findall(r'<div class="pl-river"[^>]*>(.*?)</div>', html, re.S)
    return [re.findall(r"tiles/(\w+)\.svg", b) for b in blocks]


@pytest.mark.parametrize("kind", Puzzle.TABLE_KINDS)
def test_a_table_drill_shows_the_table_and_its_choices(kind):
    puzzle = table_drill(kind)
    html = Client().get(f"/drills/{puzzle.pk}/?mode=rated&kind={kind}").content.decode()
    view = puzzle.view
    assert "pl-opponents" in html and f"{view.wall_left} " in html  # both opponents and the wall count
    for name in ("下家", "上家"):
        assert name in html
    rivers = _rivers(html)
    for seat in range(3):
        river = [TILE_IDS[k] for k in view.seats[seat].river]
        assert river in rivers or not river  # each river, in order
    for answer in puzzle.choices:
        assert f'name="choice" value="{answer}"' in html
    if view.offered is not None:
        assert "pl-claim" in html and f"tiles/{TILE_IDS[view.offered[1]]}.svg" in html
    if kind == "defence":
        assert 'class="badge bad"' in html  # the 亮倒 badge of the revealed opponent


def _hand_shown(html: str) -> list[str]:
    """The tiles of the player's hand on a drill page, the drawn tile last."""
    block = re.search(r'<div class="hand dr-hand"[^>]*>(.*?)</div>', html, re.S).group(1)
    return re.findall(r"tiles/(\w+)\.svg", block)


@pytest.mark.parametrize("kind", ["kong", "declare", "defence"])
def test_an_own_turn_table_drill_shows_the_whole_fourteen_tile_position_with_the_drawn_tile_apart(kind):
    for n in range(3):
        puzzle = table_drill(kind, n)
        view = puzzle.view
        if view.phase != "act":
            continue
        html = Client().get(f"/drills/{puzzle.pk}/").content.decode()
        shown = _hand_shown(html)
        assert len(shown) + 3 * len(view.me.melds) == 14
        assert shown[-1] == TILE_IDS[view.drawn_tile] and 'class="dr-tile drawn"' in html
        assert sorted(shown) == sorted(TILE_IDS[k] for k in kinds_of(view.concealed))


def test_the_choice_buttons_do_not_give_the_answer_away():
    for kind in ("pong", "declare"):
        for n in range(2):
            puzzle = table_drill(kind, n)
            html = Client().get(f"/drills/{puzzle.pk}/").content.decode()
            values = re.findall(r'name="choice" value="(\w+)"', html)
            assert values == sorted(values, key=["pong", "declare", "hidden", "pass"].index)


@pytest.mark.parametrize("kind", Puzzle.TABLE_KINDS)
def test_answering_by_htmx_counts_once_and_explains_from_the_figures(kind):
    puzzle = table_drill(kind)
    client = Client()
    html = client.get(f"/drills/{puzzle.pk}/?mode=rated&kind={kind}").content.decode()
    attempt = _attempt(html)
    right = puzzle.accepted[0]
    data = {"choice": right, "attempt": attempt, "mode": "rated", "kind": kind}
    first = client.post(f"/drills/{puzzle.pk}/", data, **HTMX)
    again = client.post(f"/drills/{puzzle.pk}/", data, **HTMX)
    body = first.content.decode()
    assert first.status_code == again.status_code == 200 and "<html" not in body and "is-right" in body
    with translation.override("zh-hans"):
        assert gettext("(already counted)") in again.content.decode()  # the second post is the first one, shown again
    assert Attempt.objects.filter(puzzle=puzzle).count() == 1 and Attempt.objects.get(puzzle=puzzle).rated
    best = puzzle.options[0]
    why = re.search(r'<div class="why" role="note">(.*?)</div>', body, re.S).group(1)
    mean = f"{best['mean']:+.2f}".replace("-", "−")
    assert mean in why and f"{best['se']:.2f}" in why  # the best choice's mean and standard error
    assert f"{puzzle.verdict['margin']['diff']:.2f}" in why and str(puzzle.verdict["margin"]["worlds"]) in why
    if not best.get("dangerous"):
        assert shape_text(best) in why  # the hand it leaves, in the engine's figures
    assert "hx-swap-oob" in body  # the sidebar's rating card follows


@pytest.mark.parametrize("kind", Puzzle.TABLE_KINDS)
def test_a_plain_post_works_without_javascript_and_a_wrong_choice_is_marked(kind):
    puzzle = table_drill(kind, 1)
    wrong = next(c for c in puzzle.choices if c not in puzzle.accepted)
    client = Client()
    html = client.get(f"/drills/{puzzle.pk}/").content.decode()
    r = client.post(f"/drills/{puzzle.pk}/", {"choice": wrong, "attempt": _attempt(html), "mode": "rated"})
    body = r.content.decode()
    assert r.status_code == 200 and "<html" in body and "is-wrong" in body and "table-choices" in body
    assert not Attempt.objects.get(puzzle=puzzle).correct


def test_a_choice_that_is_not_offered_is_a_400_naming_the_choices():
    puzzle = table_drill("pong")
    client = Client()
    html = client.get(f"/drills/{puzzle.pk}/").content.decode()
    r = client.post(f"/drills/{puzzle.pk}/", {"choice": "kong", "attempt": _attempt(html), "mode": "rated"}, **HTMX)
    assert r.status_code == 400 and "pong" in r.content.decode() and "pass" in r.content.decode()
    assert not Attempt.objects.filter(puzzle=puzzle).exists()


def test_rated_mode_of_a_kind_draws_that_kind_and_keeps_it_in_the_next_link():
    ensure_bank()
    r = Client().get("/drills/", {"mode": "rated", "kind": "kong"})
    assert r.status_code == 302 and "kind=kong" in r["Location"]
    puzzle = Puzzle.objects.get(pk=r["Location"].split("/")[2])
    assert puzzle.kind == "kong"


def test_progress_counts_each_table_kind_and_review_brings_a_miss_back():
    puzzle = table_drill("declare")
    wrong = next(c for c in puzzle.choices if c not in puzzle.accepted)
    client = Client()
    html = client.get(f"/drills/{puzzle.pk}/").content.decode()
    client.post(f"/drills/{puzzle.pk}/", {"choice": wrong, "attempt": _attempt(html), "mode": "rated"})
    progress = client.get("/progress/").content.decode()
    assert "kind=declare" in progress
    from datetime import timedelta

    from django.utils import timezone

    from puzzles.models import ReviewCard

    ReviewCard.objects.filter(puzzle=puzzle).update(due=timezone.now() - timedelta(minutes=1))
    r = client.get("/drills/", {"mode": "review"})
    assert r.status_code == 302 and r["Location"].startswith(f"/drills/{puzzle.pk}/")


def test_an_old_puzzle_shows_its_table_with_the_drawn_tile_apart_and_explains_its_figures():
    ensure_bank()
    puzzle = Puzzle.objects.filter(kind=Puzzle.DISCARD, draws_left__isnull=True).exclude(table={}).filter(table__phase="act").order_by("key").first()
    client = Client()
    html = client.get(f"/drills/{puzzle.pk}/").content.decode()
    drawn = TILE_IDS[puzzle.view.drawn_tile]
    assert 'class="tile-button drawn' in html and f'value="{drawn}" aria-label' in html
    assert html.count('name="discard"') == len(puzzle.hand_tiles)
    r = client.post(f"/drills/{puzzle.pk}/", {"discard": puzzle.accepted[0], "attempt": _attempt(html), "mode": "rated"}, **HTMX)
    why = re.search(r'<div class="why" role="note">(.*?)</div>', r.content.decode(), re.S).group(1)
    best = next(o for o in puzzle.options if o["discard"] in puzzle.accepted)
    assert tile_label(best["discard"]) in why and shape_text(best) in why


def test_the_api_poses_and_answers_a_table_drill():
    import json

    from tests.puzzles.factories import aid

    ensure_bank()
    client = Client()
    posed = client.get("/api/v1/puzzles/next/", {"mode": "rated", "kind": "defence"}).json()
    assert posed["kind"] == "defence" and 45 - posed["table"]["drawn"] == posed["wall_left"] and posed["choices"]
    puzzle = Puzzle.objects.get(pk=posed["id"])
    r = client.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", json.dumps({"choice": puzzle.accepted[0], "attempt": aid("api-table")}), content_type="application/json")
    assert r.status_code == 200 and r.json()["correct"] and r.json()["best"] == puzzle.accepted and r.json()["verdict"]["margin"]
    assert client.get("/api/v1/puzzles/next/", {"kind": "nope"}).status_code == 400

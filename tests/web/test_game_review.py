"""The game-level review (issue 25 item 22): every finished hand of a game in one page, the game's figures in all, the costliest decisions first, each a link into its hand's review at its step."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from play import services
from play.models import Hand
from play.templatetags.review_figures import cost
from puzzles.models import Player
from tests.play.helpers import decide_all, finish_hand, run_queued_tasks
from tests.web.test_play import start
from tests.web.test_play_review import get

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reviews_worked_out_once"), pytest.mark.deals(138)]
"""The same game in every test (seed 138: two hands of about 10 decisions in all): its reviews are worked out once a run."""


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


@pytest.fixture
def game(client, django_capture_on_commit_callbacks):
    game = start(client)
    player = game.player
    for _ in (1, 2):
        hand = finish_hand(player, game, django_capture_on_commit_callbacks)
        with django_capture_on_commit_callbacks(execute=True):
            services.next_hand(player=player, game_id=game.pk, number=hand.number, piao=0)
    run_queued_tasks()
    assert game.hands.count() == 3 and game.hands.filter(over=True, review_state=Hand.DONE).count() == 2
    for hand in game.hands.filter(over=True):
        decide_all(hand)
    return game


def test_the_game_review_lists_every_hand_and_the_costliest_decisions_first(client, game):
    page = get(client, f"/play/{game.pk}/game-review/")
    hands = list(game.hands.filter(over=True).order_by("number"))
    decisions = [(h, d) for h in hands for d in h.review["decisions"]]
    rows = page.split('class="pl-game-hands"')[1].split("</tbody>")[0].split("<tr>")[2:]
    assert len(rows) == 2
    for row, hand in zip(rows, hands):
        mine = hand.review["decisions"]
        agree, decided = sum(1 for d in mine if d["same"]), sum(1 for d in mine if d["decided"])
        assert f'href="/play/{hand.pk}/review/"' in row and f"{agree}/{decided} ({round(100 * agree / decided)} %)" in row
    agree = sum(1 for _, d in decisions if d["same"])
    assert f"{round(100 * agree / len(decisions))} %" in _text(re.search(r'<span id="game-agree">(.*?)</span>', page, re.S).group(1))
    costly = [d for _, d in decisions if d["costly"]]
    if costly:
        total = cost(sum(d["cost"] for d in costly), sum(d["cost_se"] ** 2 for d in costly) ** 0.5)
        assert total in _text(re.search(r'<strong id="game-cost">(.*?)</strong>', page, re.S).group(1))
    worse = sorted(((h, d) for h, d in decisions if d["worse"]), key=lambda hd: (not hd[1]["costly"], -hd[1]["cost"]))
    assert worse, "no decision differed from the best in two hands"
    listed = re.findall(r'<li><a href="/play/(\d+)/review/\?step=(\d+)">', page.split('class="pl-costliest"')[1])
    assert len(listed) == min(len(worse), 30)
    by_key = {(h.pk, d["step"]): d for h, d in worse}
    shown = [by_key[(int(h), int(s))] for h, s in listed]
    costly = [d["cost"] for d in shown if d["costly"]]
    rest = [d["cost"] for d in shown if not d["costly"]]
    assert shown == [d for _, d in worse][:30] and costly == sorted(costly, reverse=True) and rest == sorted(rest, reverse=True)  # the costly first, each costliest first
    hand_id, step = listed[0]
    review = get(client, f"/play/{hand_id}/review/?step={step}")
    assert 'class="card pl-decision' in review and f"?step={step}" in review


def test_a_hand_whose_review_is_not_ready_is_named_and_left_out(client, game):
    hand = game.hands.get(number=2)
    Hand.objects.filter(pk=hand.pk).update(review_state=Hand.QUEUED, review=None)
    page = get(client, f"/play/{game.pk}/game-review/")
    first = game.hands.get(number=1).review["decisions"]
    assert 'id="game-waiting"' in page and _text(page.split('id="game-totals">')[1].split("</p>")[0]).startswith("2 ")
    assert f"{round(100 * sum(1 for d in first if d['same']) / sum(1 for d in first if d['decided']))} %" in _text(re.search(r'<span id="game-agree">(.*?)</span>', page, re.S).group(1))
    assert f"/play/{hand.pk}/review/?step=" not in page.split('class="pl-game-hands"')[0]


def test_the_table_and_the_hand_review_link_to_the_game_review_and_nobody_else_sees_it(client, game):
    table = get(client, f"/play/{game.pk}/")
    assert f'href="/play/{game.pk}/game-review/" id="game-review-link"' in table
    hand = game.hands.get(number=1)
    assert f'href="/play/{game.pk}/game-review/" id="game-review-link"' in get(client, f"/play/{hand.pk}/review/")
    assert Client().get(f"/play/{game.pk}/game-review/").status_code == 404
    other = Client()
    other_game = start(other)
    assert other.get(f"/play/{game.pk}/game-review/").status_code == 404
    assert other.get(f"/play/{other_game.pk}/game-review/").status_code == 200
    assert Player.objects.count() == 2

"""Play on from here (issue 25 item 20): from a decision of a finished hand, another choice against the same wall and the same bots, a new kwx-hand/1 record branched from the original at that step; the person goes on choosing or lets the bot play the rest."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from kwx import hand_review
from kwx.table import seats
from kwx.table.record import Record
from kwx.table.selfplay import seeded_deal
from kwx.table.view import view_for
from play.models import Hand
from tests.play.helpers import SHORT_DEALS, finish_hand, move_for, run_queued_tasks
from tests.web.test_play import start
from tests.web.test_play_review import get, uploaded

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reviews_worked_out_once"), pytest.mark.deals(SHORT_DEALS)]


def _move(action) -> str:
    if action is None:
        return "pass"
    return f"{action.verb} {action.tile}" + (" ld" if action.liang_dao else "")


@pytest.fixture
def played(client, django_capture_on_commit_callbacks) -> Hand:
    """A hand played to its end with the basic bot's choices: test_play's short first hand, its review worked out once a run."""
    game = start(client)
    return finish_hand(game.player, game, django_capture_on_commit_callbacks)


def other_choices(hand: Hand):
    """Each decision of the hand with another choice than the one played (not a win): its step, the other choice and the one played (form values)."""
    done = seats.replayed(hand.kwx_record)
    for point in hand_review.decision_points(hand.kwx_record, hand.seat):
        taken = _move(hand_review.chosen_at(done, point.step, hand.seat))
        for choice in view_for(point.state, hand.seat).decision.choices:
            if _move(choice) != taken and not _move(choice).startswith("win"):
                yield point.step, _move(choice), taken


def other_choice(hand: Hand) -> tuple[int, str, str]:
    """The first of ``other_choices``."""
    return next(other_choices(hand))


def not_offered(hand: Hand, step: int) -> str:
    """A well-formed move the person was not offered at ``step``."""
    offered = {_move(c) for c in view_for(seats.replayed(hand.kwx_record).states[step], hand.seat).decision.choices}
    return next(m for m in (f"{verb} {tile}" for verb in ("win", "kong", "pong", "discard") for tile in ("1p", "9s", "Z", "F", "B", "5p")) if m not in offered)


def test_a_branch_keeps_the_record_to_the_step_then_the_other_choice_on_the_same_wall(client, played):
    step, move, taken = other_choice(played)
    response = client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": move})
    assert response.status_code == 302
    branch = Hand.objects.get(source=Hand.BRANCH)
    assert response["Location"] == f"/play/{branch.pk}/branch/"
    assert branch.origin_id == played.pk and branch.origin_step == step and branch.seed == played.seed and branch.game_id is None
    assert branch.record["actions"][:step] == played.record["actions"][:step]
    assert {k: v for k, v in branch.record.items() if k != "actions"} == {k: v for k, v in played.record.items() if k != "actions"}
    done = seats.replayed(branch.kwx_record, branch.seed)  # a legal kwx-hand/1 record on the origin's wall
    assert _move(hand_review.chosen_at(done, step, branch.seat)) == move != taken
    wall = seeded_deal(branch.seed, done.header.dealer).wall
    assert Record.from_json(branch.record).replay(wall).states[-1] == done.final  # every draw checked against the origin's wall
    page = get(client, f"/play/{branch.pk}/branch/")
    assert 'id="branch-origin"' in page and f'href="/play/{played.pk}/review/?step={step}"' in page
    again = client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": move})  # a double submit
    assert again["Location"] == response["Location"] and Hand.objects.filter(source=Hand.BRANCH).count() == 1


def test_the_person_goes_on_choosing_in_a_branch_until_its_end(client, played):
    step, move, _taken = other_choice(played)
    client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": move})
    branch = Hand.objects.get(source=Hand.BRANCH)
    for _ in range(200):
        if branch.over:
            break
        page = get(client, f"/play/{branch.pk}/branch/")
        assert f'action="/play/{branch.pk}/branch/"' in page
        choice = move_for(branch)
        assert f'value="{choice}"' in page
        response = client.post(f"/play/{branch.pk}/branch/", {"seen": branch.action_count, "move": choice, "hand": branch.pk})
        assert response.status_code == 302
        repeat = client.post(f"/play/{branch.pk}/branch/", {"seen": branch.action_count, "move": choice})  # stale: changes nothing
        assert repeat.status_code == 302
        branch.refresh_from_db()
    assert branch.over and branch.result and branch.review_state == Hand.NOT_ASKED
    page = get(client, f"/play/{branch.pk}/branch/")
    compare = re.sub(r"<[^>]+>", "", re.search(r'<p id="branch-compare">(.*?)</p>', page, re.S).group(1))
    signed = lambda n: f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"
    figures = re.findall(r"[+\u2212]?\d+", compare)
    assert figures == [signed(branch.nets[0]), signed(played.nets[0])]
    assert 'id="review-again"' in get(client, f"/play/{branch.pk}/review/")  # its review is worked out when asked


def test_the_bot_can_play_the_rest_of_a_branch(client, played):
    for step, move, _taken in other_choices(played):  # the first branch that does not end at once (a discard may deal in)
        response = client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": move})
        branch = Hand.objects.get(pk=int(response["Location"].strip("/").split("/")[-2]))
        if not branch.over:
            break
    assert not branch.over
    assert client.get(f"/play/{branch.pk}/record.json").status_code == 404  # not over: no record
    assert client.get(f"/play/{branch.pk}/review/")["Location"] == f"/play/{branch.pk}/branch/"
    fragment = client.post(f"/play/{branch.pk}/branch/", {"seen": branch.action_count, "move": "bot"}, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and 'id="branch-compare"' in fragment.content.decode() and "<html" not in fragment.content.decode()
    branch.refresh_from_db()
    assert branch.over and seats.replayed(branch.kwx_record, branch.seed).result == branch.result
    assert client.get(f"/play/{branch.pk}/record.json").status_code == 200


def log_lines(page: str) -> list[str]:
    """The table's action log as the page shows it, each line's words."""
    box = re.search(r'<ol class="pl-log"[^>]*>(.*?)</ol>', page, re.S)
    assert box, "no action log"
    return [re.sub(r"<[^>]+>", "", line).strip() for line in re.findall(r"<li[^>]*>(.*?)</li>", box.group(1), re.S)]


def test_a_branch_logs_its_actions_in_words_and_ends_with_the_payments(client, played):
    """Issue 38 item 1: the log printed each line as a Python dict, during the branch and at its end; the end showed nets without the payments."""
    for step, move, _taken in other_choices(played):
        response = client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": move})
        branch = Hand.objects.get(pk=int(response["Location"].strip("/").split("/")[-2]))
        if not branch.over:
            break
    during = log_lines(get(client, f"/play/{branch.pk}/branch/"))
    assert during and all(re.fullmatch(r"(你|下家|上家)\S*: \S.*", line) for line in during), during
    assert not any("{" in line or "'text'" in line for line in during)
    end = client.post(f"/play/{branch.pk}/branch/", {"seen": branch.action_count, "move": "bot"}, HTTP_HX_REQUEST="true").content.decode()
    assert not any("{" in line for line in log_lines(end)) and "&#x27;text&#x27;" not in end
    branch.refresh_from_db()
    payments = seats.replayed(branch.kwx_record).settlement.payments
    listed = re.findall(r"<li[^>]*><span>(.*?)</span> <strong>(\d+)</strong>", end.split('id="payments"')[1].split("</ul>")[0])
    assert [int(amount) for _who, amount in listed] == [p.amount for p in payments]
    assert sum(p.amount for p in payments if p.payee == branch.seat) - sum(p.amount for p in payments if p.payer == branch.seat) == branch.nets[branch.seat]


def test_what_cannot_be_played_on_says_why_and_stores_nothing(client, played, django_capture_on_commit_callbacks):
    step, move, _taken = other_choice(played)
    bad = client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": not_offered(played, step)})
    assert bad.status_code == 400
    error = re.search(r'<p class="card pl-error" role="alert" id="play-on-error">(.*?)</p>', bad.content.decode(), re.S).group(1)
    assert re.search(rf"\b{step}\b", error)  # names the step
    for step_text in ("x", "-1", str(played.action_count), "99999999999999999999"):
        response = client.post(f"/play/{played.pk}/play-on/", {"step": step_text, "move": move})
        assert response.status_code == 400 and 'id="play-on-error"' in response.content.decode()
    assert client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": "throw 5p"}).status_code == 400
    upload = uploaded(client, django_capture_on_commit_callbacks)
    refused = client.post(f"/play/{upload.pk}/play-on/", {"step": 1, "move": "pass"})
    assert refused.status_code == 400 and 'id="play-on-error"' in refused.content.decode()
    assert Client().post(f"/play/{played.pk}/play-on/", {"step": step, "move": move}).status_code == 404
    assert Hand.objects.filter(source=Hand.BRANCH).count() == 0
    client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": move})
    branch = Hand.objects.get(source=Hand.BRANCH)
    assert Client().get(f"/play/{branch.pk}/branch/").status_code == 404
    assert Client().post(f"/play/{branch.pk}/branch/", {"seen": branch.action_count, "move": "bot"}).status_code == 404


def test_the_review_offers_to_play_on_only_for_a_played_hand_and_lists_the_branches(client, played, django_capture_on_commit_callbacks):
    run_queued_tasks()
    played.refresh_from_db()
    decision = played.review["decisions"][0]
    page = get(client, f"/play/{played.pk}/review/?step={decision['step']}")
    form = page.split('id="play-on"')[1].split("</details>")[0]
    assert f'action="/play/{played.pk}/play-on/"' in form and f'name="step" value="{decision["step"]}"' in form
    assert len(re.findall(r'name="move" value="', form)) == len(decision["options"])
    value = re.findall(r'name="move" value="([^"]+)"', form)[0]
    client.post(f"/play/{played.pk}/play-on/", {"step": decision["step"], "move": value})
    branch = Hand.objects.get(source=Hand.BRANCH)
    assert f'href="/play/{branch.pk}/branch/"' in get(client, f"/play/{played.pk}/review/?step={decision['step']}")
    upload = uploaded(client, django_capture_on_commit_callbacks)
    run_queued_tasks()
    upload.refresh_from_db()
    assert 'id="play-on"' not in get(client, f"/play/{upload.pk}/review/?step={upload.review['decisions'][0]['step']}")
    assert json.loads(client.get(f"/play/{played.pk}/record.json").content)["actions"] == played.record["actions"]


def test_playing_on_is_limited_per_player(client, played):
    from play import limits

    step, move, _taken = other_choice(played)
    codes = [client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": move}).status_code for _ in range(limits.PER_PLAYER["branch"])]
    assert codes == [302] * limits.PER_PLAYER["branch"]
    refused = client.post(f"/play/{played.pk}/play-on/", {"step": step, "move": move}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0 and 'id="play-on-error"' in refused.content.decode()
    assert Hand.objects.filter(source=Hand.BRANCH).count() == 1

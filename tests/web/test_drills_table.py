"""Table drills (碰不碰, 杠不杠, 亮不亮, defence) and the table above every drill: pages, answers, explanations from the figures."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from kwx.hand.tiles import TILE_IDS, kinds_of
from kwx_site.text import tile_label
from puzzles.explain import shape_text, table_explanation
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


def test_a_defence_drill_shows_the_revealed_hands_waits_with_their_live_copies():
    """Issue 38 item 6: a 亮倒 opponent's waits had no live counts in the table drills."""
    puzzle = table_drill("defence")
    view = puzzle.view
    html = Client().get(f"/drills/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    revealed = [seat for seat in range(3) if seat != view.seat and view.seats[seat].liang_dao]
    assert revealed
    shown = [re.findall(r'data-tile="(\w+)">.*?(\d+) left', block, re.S) for block in re.findall(r'<p class="pl-waits">(.*?)</p>', html, re.S)]
    expected = [[(TILE_IDS[k], str(4 - view.seen[k])) for k in sorted(view.seats[seat].waits)] for seat in revealed]
    assert sorted(shown) == sorted(expected) and all(shown)


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
    name, bot = {"strong": ("strong", "强"), "judge": ("judge", "裁判"), "boosted": ("expert", "高手")}[puzzle.verdict["margin"]["policy"]]
    assert f"every seat then played by the {name} bot" in body or f"之后每家都由{bot}机器人来打" in body  # the bot that played its deals out


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


def _page_figures(html: str) -> tuple[list[str], list[str]]:
    """The "mean ± se" pairs of a table drill's explanation and of its table, as the page writes them."""
    why = re.search(r'<div class="why" role="note">(.*?)</div>', html, re.S).group(1)
    table = html[html.index("table-choices") :]
    said = re.findall(r"([+−]?\d+\.\d\d) ± (\d+\.\d\d)", why)
    shown = re.findall(r"<strong>([+−]?\d+\.\d\d)</strong> <small class=\"muted\">± (\d+\.\d\d)</small>", table)
    return said, shown


def test_the_explanation_and_its_table_write_each_figure_the_same_way():
    """A drill once said −0.57 ± 0.57 beside −0.57 ± 0.58 (two roundings of 0.575): every drill page now writes each figure once."""
    from puzzles.explain import choice_rows, table_explanation

    ensure_bank("table_bank")
    puzzle = Puzzle.objects.filter(kind=Puzzle.PONG, retired=False).order_by("key").first()
    client = Client()
    html = client.get(f"/drills/{puzzle.pk}/").content.decode()
    answered = client.post(f"/drills/{puzzle.pk}/", {"choice": puzzle.accepted[0], "attempt": _attempt(html), "mode": "rated"}).content.decode()
    said, shown = _page_figures(answered)
    assert said and set(said) <= set(shown), (said, shown)
    checked, drills = 0, Puzzle.objects.filter(kind__in=Puzzle.TABLE_KINDS).order_by("key")
    for puzzle in drills:
        with translation.override("en"):
            rows = {r["label"]: f"{r['mean_text']} ± {r['se_text']}" for r in choice_rows(puzzle)}
            sentences = table_explanation(puzzle)
        for sentence in sentences:
            assert not re.search(r"−0\.0+(?![0-9])", sentence), sentence  # a figure that rounds to nothing has no sign
            for label, figures in rows.items():
                if f"{label}: " in sentence and " ± " in sentence.split(f"{label}: ", 1)[1][:20]:
                    assert sentence.split(f"{label}: ", 1)[1].startswith(figures), (puzzle.key, sentence, figures)
                    checked += 1
        assert not any(re.fullmatch(r"[+−]0\.0+", r["mean_text"]) for r in choice_rows(puzzle)), puzzle.key
    assert checked >= drills.count() > 100  # every drill's explanation quotes at least one row's figures


def _answered(puzzle, choice: str, language: str = "en") -> str:
    client = Client()
    client.cookies["django_language"] = language
    html = client.get(f"/drills/{puzzle.pk}/").content.decode()
    field = "discard" if puzzle.kind == Puzzle.DISCARD else "choice"
    page = client.post(f"/drills/{puzzle.pk}/", {field: choice, "attempt": _attempt(html), "mode": "rated"}).content.decode()
    return re.sub(r"\s+", " ", re.search(r'<div class="why" role="note">(.*?)</div>', page, re.S).group(1))


def test_a_discard_drill_speaks_about_the_players_own_discard():
    """A tied best pick is told it is one of the best (d01375 was told only about another tile); a pick that
    steps back a shanten is told so (streak d00987 never was)."""
    ensure_bank("bank")
    drills = Puzzle.objects.filter(kind=Puzzle.DISCARD, key__startswith="h").order_by("key")
    tied = next(p for p in drills if len(p.accepted) > 1)
    second = tied.accepted[1]
    why = _answered(tied, second)
    assert f"Discard {tile_label(second)} is one of the best" in why and tile_label(tied.accepted[0]) in why, why
    best = next(r for r in tied.options if r["discard"] == second)
    back = next(p for p in drills if any(r["shanten"] > p.options[0]["shanten"] for r in p.options))
    worse = next(r for r in back.options if r["shanten"] > back.options[0]["shanten"])
    why = _answered(back, worse["discard"])
    assert f"Your discard {tile_label(worse['discard'])} steps back a shanten" in why, why
    level = next(p for p in drills if any(r["discard"] not in p.accepted and r["shanten"] == p.options[0]["shanten"] for r in p.options[2:]))
    mine = [r for r in level.options if r["discard"] not in level.accepted and r["shanten"] == level.options[0]["shanten"]][-1]
    assert f"Your discard {tile_label(mine['discard'])} leaves" in _answered(level, mine["discard"])
    assert "之一" in _answered(tied, second, "zh-hans") and best["shanten"] == tied.options[0]["shanten"]


def test_kong_and_declare_drills_give_the_reason_not_only_the_numbers():
    """The reason that carries the money: a kong's money, or — when a revealed hand waits on the added kong's tile (k00393's −8.00) — the robbed kong."""
    from puzzles.explain import robbed_by

    ensure_bank("table_bank")
    robbed = 0
    with translation.override("en"):
        for puzzle in Puzzle.objects.filter(kind="kong").order_by("key"):
            why = " ".join(table_explanation(puzzle))
            kong = next((r for r in puzzle.options if r["answer"] == "kong"), None)
            if kong is not None and robbed_by(puzzle.view, kong) is not None:  # the money is in the robbed kong, not the kong money
                assert "robbed kong" in why and "抢杠胡" in why and "包胡" in why and "1 by each other player" not in why, (puzzle.key, why)
                robbed += 1
            elif kong is not None:
                money = {"an_gang": "2 by each other player", "ming_gang": "1 by each other player", "zhi_gang": "2 by the discarder"}[kong["kong_type"]]
                assert money in why and "荒庄不荒杠" in why, (puzzle.key, why)
        k393 = Puzzle.objects.get(key="k00393")
        why = " ".join(table_explanation(k393))
        assert "robbed kong" in why and f"waits on {tile_label('3p')}" in why and "−8.00" in why, why
        for puzzle in Puzzle.objects.filter(kind="declare").order_by("key"):
            why = " ".join(table_explanation(puzzle))
            assert "doubles every win" in why and "locked" in why and "荒庄" in why, (puzzle.key, why)
            hidden = next(r for r in puzzle.options if r["answer"] == "hidden")
            assert ("only 屁胡" in why) == any(w[3] == 0 for w in hidden.get("waits") or []), (puzzle.key, why)
            declare = next(r for r in puzzle.options if r["answer"] == "declare")
            assert ("what it gives is worth more" in why) == (declare["mean"] >= hidden["mean"]), (puzzle.key, why)
    with translation.override("zh-hans"):
        assert "下家已经亮倒" in " ".join(table_explanation(k393))  # seat 2 declared; the drill's seat is 1
    assert robbed >= 1


def test_a_pong_drill_shows_the_discard_its_confirming_bot_plays_after_the_pong():
    """p00121: after 碰三条 the line shown is the boosted bot's (5p, keeping the bamboo for 清一色), not the efficiency follow-up 再打七条."""
    ensure_bank("table_bank")
    with translation.override("zh-hans"):
        why = " ".join(table_explanation(Puzzle.objects.get(key="p00121")))
    assert "再打五筒" in why and "再打七条" not in why, why


def test_a_right_defence_answer_that_is_not_the_top_row_is_told_it_is_one_of_the_best():
    ensure_bank("table_bank")
    puzzle = next(p for p in Puzzle.objects.filter(kind="defence").order_by("key") if len(p.accepted) > 1)
    mine = next(r for r in puzzle.options[1:] if r["right"])
    why = _answered(puzzle, mine["answer"])
    assert "is one of the best" in why and tile_label(mine["answer"]) in why.split("is one of the best")[0], why


def test_progress_counts_each_kind_apart_from_何切_and_due_reviews_agree_with_the_drills_page(client):
    from datetime import timedelta

    from django.utils import timezone

    from play.models import ReviewItem
    from puzzles.models import Player, ReviewCard
    from tests.puzzles.factories import discard_puzzle
    from tests.web.test_play import play_hand, start

    pong, hequ = table_drill("pong"), discard_puzzle("34556p123789sZZZ")
    for puzzle, field, answer in ((pong, "choice", next(c for c in pong.choices if c not in pong.accepted)), (hequ, "discard", "9s")):
        html = client.get(f"/drills/{puzzle.pk}/").content.decode()
        client.post(f"/drills/{puzzle.pk}/", {field: answer, "attempt": _attempt(html), "mode": "rated"})
    game = start(client)
    hand = play_hand(client, game)
    player = Player.objects.get()
    ReviewItem.objects.create(player=player, hand=hand, step=1, cost=1.0, card={}, due=timezone.now() - timedelta(minutes=1))
    ReviewCard.objects.filter(player=player).update(due=timezone.now() - timedelta(minutes=1))
    page = client.get("/progress/").content.decode()
    kinds = page[page.index('data-testid="kinds"') :]
    cells = lambda kind: re.findall(r"<td>(\d+)</td>", re.search(rf'<tr data-kind="{kind}">(.*?)</tr>', kinds, re.S).group(1))[0]
    assert cells("discard") == "1" and cells("pong") == "1" and cells("kong") == "0" and cells("quiz") == "0"
    assert "何切 2" not in page and "练习 2" in page  # the attempts card counts drills, not 何切
    assert "何切？" not in client.get(f"/drills/{pong.pk}/").content.decode().split("</title>")[0]  # a 碰不碰 drill is not titled 何切
    due_progress = re.search(r'data-testid="due">(\d+)<', page).group(1)
    drills = client.get(f"/drills/{hequ.pk}/").content.decode()
    badge = re.search(r'<span id="due-count"[^>]*>(?:<span class="badge bad">(\d+)</span>)?</span>', drills).group(1)
    assert badge == "3"  # two missed drills and one costly decision of a played hand
    assert due_progress == badge  # one selector for both pages


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_nav_names_the_drills_the_same_on_desktop_and_phone(client, language):
    client.cookies["django_language"] = language
    page = client.get("/progress/").content.decode()
    link = re.search(r'<a href="/drills/"[^>]*><span class="long">([^<]+)</span><span class="short">([^<]+)</span></a>', page)
    assert link.group(1) == link.group(2) and "何切" not in link.group(1)  # the drills are not all 何切 any more


def test_a_no_kong_choice_that_declares_names_the_declaration_on_its_button():
    ensure_bank("table_bank")
    puzzle = next(p for p in Puzzle.objects.filter(kind="kong").order_by("key") if any(o.get("liang_dao") for o in p.options))
    html = Client().get(f"/drills/{puzzle.pk}/").content.decode()
    assert re.search(r"不杠（打[^）]*并亮倒）|No kong \(discard [^)]* and declare 亮倒\)", html), puzzle.key


def test_progress_opens_the_costly_decision_it_names_not_a_missed_puzzle_due_before_it(client):
    """Issue 38 item 8: "1 costly decision due for review →" went to /drills/?mode=review, which opened a missed 何切 puzzle due sooner."""
    from datetime import timedelta

    from django.utils import timezone

    from play.models import ReviewItem
    from puzzles.models import Player, ReviewCard
    from tests.puzzles.factories import discard_puzzle
    from tests.web.test_play import play_hand, start

    hequ = discard_puzzle("34556p123789sZZZ")
    html = client.get(f"/drills/{hequ.pk}/").content.decode()
    client.post(f"/drills/{hequ.pk}/", {"discard": "9s", "attempt": _attempt(html), "mode": "rated"})
    hand = play_hand(client, start(client))
    player = Player.objects.get()
    ReviewCard.objects.filter(player=player).update(due=timezone.now() - timedelta(days=2))  # the missed puzzle is due first
    item = ReviewItem.objects.create(player=player, hand=hand, step=1, cost=1.0, card={}, due=timezone.now() - timedelta(days=1))
    page = client.get("/progress/").content.decode()
    link = re.search(r'<a href="([^"]+)" id="play-due">', page).group(1).replace("&amp;", "&")
    assert link == f"/play/{hand.pk}/review/?step=1&item={item.pk}"
    assert client.get(link).status_code == 200


def test_a_discard_at_the_best_shanten_is_told_what_it_lacks_not_that_it_is_only_that_shanten():
    """Issue 38 item 8: "打八筒只有一向听" was said when both choices were 1-shanten; the difference is the effective tiles (or the value when ready)."""
    from kwx_site.text import shanten_words

    ensure_bank("bank")
    drills = Puzzle.objects.filter(kind=Puzzle.DISCARD, key__startswith="h").order_by("key")
    level = next(p for p in drills if p.options[0]["shanten"] == 1 and any(r["discard"] not in p.accepted and r["shanten"] == 1 for r in p.options))
    best = level.options[0]
    mine = next(r for r in level.options if r["discard"] not in level.accepted and r["shanten"] == 1)
    zh, en = _answered(level, mine["discard"], "zh-hans"), _answered(level, mine["discard"])
    assert "只有一向听" not in zh and "只剩一向听" not in zh, zh
    with translation.override("zh-hans"):
        said = f"你打的{tile_label(mine['discard'])}同样是{shanten_words(1)}，但有效牌更少：{mine['ukeire']}张，不如{best['ukeire']}张。"
    assert said in zh, zh
    assert f"Your discard {tile_label(mine['discard'])} leaves 1-shanten too, but fewer effective tiles: {mine['ukeire']} against {best['ukeire']}." in en, en
    ready = next(p for p in drills if p.options[0]["shanten"] == 0 and any(r["discard"] not in p.accepted and r["shanten"] == 0 and r.get("waits") for r in p.options))
    worse = next(r for r in ready.options if r["discard"] not in ready.accepted and r["shanten"] == 0 and r.get("waits"))
    assert f"Your discard {tile_label(worse['discard'])} is ready too, but worth less" in _answered(ready, worse["discard"])

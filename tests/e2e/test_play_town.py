"""In Chromium at 390 px: hands played under a town on /play/ (issue 35 item 6) — sitting down with the town picker, a
孝感 hand to its drawn end (数坎 and 查大叫), a 随州 hand ending in a self-draw that turns its horse, a 十堰 (town) hand
with its dice, and an 应城 declaration keeping a triplet face down (半亮), each counted against what the seats hold.

The seeds were found by playing seeds 1, 2, 3 … with ``kwx.table.selfplay.play`` on ``seeded_deal(seed, seed % 3)``,
seat 0 answering as this file's keyboard player does (``tests.play.helpers.Keys``: 胡 when offered, 过 on a claim,
else the drawn tile) and the named bots in the other seats, keeping the first seed where the situation arises."""

from __future__ import annotations

import pytest

from kwx.hand.tiles import TILE_IDS
from kwx.table.record import replay
from kwx.table.selfplay import seeded_deal
from play import services
from play.models import Game, Hand
from tests.e2e.axe import assert_no_violations
from tests.e2e.conftest import htmx_settled, open_page, shot
from tests.e2e.test_play_table import FOCUS_ON_HAND, SWAPPED, key_for

pytestmark = pytest.mark.django_db(transaction=True)
MAX_MOVES = 80
SIZES = ((390, "zh-hans"), (1280, "zh-hans"), (390, "en"), (1280, "en"))
XIAOGAN_DRAWN = (4, 1)
"""孝感, basic bots: the wall runs out; 下家 and 上家 are ready (a 坎 each), you are not: 查大叫 with 数坎."""
SUIZHOU_HORSES = (1, 1)
"""随州, companion bots: 下家 declares 亮倒 and self-draws: 独马 turned from the wall."""
YINGCHENG_PINGHU = (349, 1)
"""应城, basic bots: after 11 actions you draw a winning tile worth ×1, and 应城 lets an undeclared hand self-draw only ×2."""
YINGCHENG_KOU = (228, 0)
"""应城, basic bots: you deal, and your first draw leaves you ready with three 6p that may stay face down."""


def seeded(monkeypatch, seed: int, dealer: int) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    monkeypatch.setattr(services.secrets, "randbelow", lambda n: dealer)


def sit_down(page, rules: str, level: str = "basic") -> Game:
    """Pick ``rules`` in the start form's town picker (its switches come in by htmx) and sit down."""
    page.goto(f"{page.base}/play/")
    page.locator(f'input[name="level"][value="{level}"]').check()
    page.select_option("#rules", rules)
    page.wait_for_function("r => document.querySelector('#town-box input[name=shown]').value === r", arg=rules)
    page.locator("#start-game").click()
    page.wait_for_selector("#table")
    return Game.objects.order_by("-id").first()


def play_out(page) -> int:
    """Answer every decision as a keyboard player does until the hand's settlement shows; the moves it took."""
    moves = 0
    while not page.locator("#next-hand").count():
        page.wait_for_function(FOCUS_ON_HAND)  # play.js has put focus on the hand: a key press reaches it
        seen = page.locator('input[name="seen"]').get_attribute("value")
        page.keyboard.press(key_for(page))
        page.wait_for_function(SWAPPED, arg=seen)
        moves += 1
        assert moves <= MAX_MOVES
    return moves


def shown_tiles(page, seat: str) -> int:
    """Tiles a seat's revealed hand shows (its face-down triplets not counted)."""
    return page.locator(f'section[aria-label="{seat}"] .pl-revealed > .tiles img.tile').count()


def same_player_page(browser, live_server, page, width: int, language: str):
    """Another window on the same visitor's games (its cookies), at ``width`` in ``language``."""
    context = page.context
    other = open_page(browser, live_server, width, 900, bypass_csp=True, language=language)
    opened = other.__enter__()
    opened.context.add_cookies([c for c in context.cookies() if c["name"] != "django_language"])
    return other, opened


def test_a_xiaogan_hand_to_its_drawn_end_shows_every_hand_its_best_wait_and_the_cha_da_jiao_payments(browser, live_server, monkeypatch):
    seeded(monkeypatch, *XIAOGAN_DRAWN)
    with open_page(browser, live_server, 390, 844, bypass_csp=True) as page:
        game = sit_down(page, "xiaogan")
        assert page.locator("#rules-label").inner_text() == "孝感"
        play_out(page)
        hand = Hand.objects.get(game=game)
        done = replay(hand.record)
        assert hand.result == "draw" and done.settlement.ready
        final = done.final
        for name, seat in (("下家", 1), ("上家", 2)):  # every hand revealed at the end, tile for tile
            assert shown_tiles(page, name) == sum(final.seats[seat].concealed)
        rows = page.locator("#ready li")
        assert rows.count() == 3
        for row, ready in zip(rows.all(), sorted(done.settlement.ready, key=lambda r: r.seat)):
            assert f"{ready.rank}" in row.locator(".badge").inner_text()
            if ready.kind is not None:
                assert row.locator(f'img.tile[src$="/{TILE_IDS[ready.kind]}.svg"]').count() == 1
        payments = page.locator("#payments li.pl-kind-cha_da_jiao")
        assert payments.count() == sum(1 for p in done.settlement.payments if p.kind == "cha_da_jiao")
        assert "查大叫" in payments.first.inner_text() and any("坎" in p.inner_text() for p in payments.all())
        nets = [int(t.replace("+", "")) for t in page.locator(".pl-nets strong").all_inner_texts()]
        assert nets == hand.nets
        shot(page, "town-chadajiao-zh-390")
        assert_no_violations(page)
        for width, language in ((1280, "zh-hans"), (390, "en"), (1280, "en")):
            other, opened = same_player_page(browser, live_server, page, width, language)
            opened.goto(f"{page.base}/play/{game.pk}/")
            assert opened.locator("#ready li").count() == 3
            shot(opened, f"town-chadajiao-{language}-{width}")
            other.__exit__(None, None, None)


def test_a_suizhou_self_draw_turns_its_horse_from_the_wall_and_scores_it(browser, live_server, monkeypatch):
    seeded(monkeypatch, *SUIZHOU_HORSES)
    with open_page(browser, live_server, 390, 844, bypass_csp=True, language="en") as page:
        game = sit_down(page, "suizhou", level="companion")
        play_out(page)
        done = replay(Hand.objects.get(game=game).record)
        horses = done.final.horses
        assert horses and done.result == "self_draw"
        shown = page.locator("#horses")
        assert [img.get_attribute("src").rsplit("/", 1)[1] for img in shown.locator("img.tile").all()] == [f"{TILE_IDS[h]}.svg" for h in horses]
        assert f"马 {done.settlement.extras[0].ma} from each payer" in shown.inner_text()
        assert "turns the horses (买马)" in page.locator("#action-log li").first.inner_text()
        ma = page.locator("#payments li", has_text="马")
        assert ma.count() == 2  # both payers pay the horse
        shot(page, "town-horses-en-390")
        assert_no_violations(page)
        for width, language in ((1280, "en"), (390, "zh-hans"), (1280, "zh-hans")):
            other, opened = same_player_page(browser, live_server, page, width, language)
            opened.goto(f"{page.base}/play/{game.pk}/")
            shot(opened, f"town-horses-{language}-{width}")
            other.__exit__(None, None, None)


def test_a_shiyan_town_hand_shows_the_dice_rolled_at_the_deal(browser, live_server, monkeypatch):
    seed = next(s for s in range(1, 100) if len(set(seeded_deal(s, 0).dice)) == 1)  # the first seed whose dice are a double
    seeded(monkeypatch, seed, 0)
    for width, language in SIZES:
        with open_page(browser, live_server, width, 900, bypass_csp=True, language=language) as page:
            sit_down(page, "shiyan_town")
            faces = page.locator("#dice .pl-die").all_inner_texts()
            assert faces == [str(d) for d in seeded_deal(seed, 0).dice]
            assert "上楼" in page.locator("#dice .badge").inner_text()
            shot(page, f"town-dice-{language}-{width}")
            assert_no_violations(page)


def test_an_undeclared_pinghu_self_draw_under_yingcheng_is_not_offered_and_the_table_says_why(browser, live_server, monkeypatch):
    seeded(monkeypatch, *YINGCHENG_PINGHU)
    with open_page(browser, live_server, 390, 844, bypass_csp=True, language="en") as page:
        sit_down(page, "yingcheng")
        while not page.locator("#refused").count():
            page.wait_for_function(FOCUS_ON_HAND)
            seen = page.locator('input[name="seen"]').get_attribute("value")
            page.keyboard.press(key_for(page))
            page.wait_for_function(SWAPPED, arg=seen)
        assert page.locator(".pl-win").count() == 0 and page.evaluate("() => document.documentElement.scrollWidth") <= 390
        assert "only when it is worth ×2 or more" in page.locator("#refused").inner_text()
        shot(page, "town-refused-en-390")
        assert_no_violations(page)


def test_a_yingcheng_declaration_keeps_a_triplet_face_down(browser, live_server, monkeypatch):
    seeded(monkeypatch, *YINGCHENG_KOU)
    with open_page(browser, live_server, 390, 844, bypass_csp=True, language="en") as page:
        game = sit_down(page, "yingcheng")
        page.locator("#half-declares summary").click()  # the 亮倒 choices that keep triplets face down, folded under the plain ones
        half = page.locator('button.pl-half[value="discard 1s ld kou 6p"]')
        assert half.count() == 1 and half.locator("img.tile").count() == 3
        shot(page, "town-kou-offered-en-390")
        assert_no_violations(page)
        seen = page.locator('input[name="seen"]').get_attribute("value")
        half.click()
        page.wait_for_function(SWAPPED, arg=seen)
        state = replay(Hand.objects.get(game=game).record).states[int(seen) + 1]
        assert state.seats[0].kou == frozenset({TILE_IDS.index("6p")}) and state.seats[0].liang_dao
        assert "kept face down (扣牌): 6 of dots" in page.locator("#action-log").inner_text()
        assert page.locator(".pl-me .badge.bad", has_text="亮倒").count() == 1


def test_the_start_form_offers_the_town_picker_and_shows_a_changed_town(browser, live_server):
    for width, language in SIZES:
        with open_page(browser, live_server, width, 900, bypass_csp=True, language=language) as page:
            page.goto(f"{page.base}/play/")
            page.select_option("#rules", "xiaogan")
            page.wait_for_function("() => document.querySelector('#town-box input[name=shown]').value === 'xiaogan'")
            htmx_settled(page)  # the swapped-in box listens for changes once it has settled
            page.locator("#town-switches-more summary").click()
            page.select_option("#option-cap", "8")
            page.wait_for_function("() => document.querySelector('#town-label').classList.contains('town-changed')")
            assert page.locator("#town-label").inner_text() in ("孝感（改）", "Xiaogan (changed)")
            width_now = page.evaluate("() => document.documentElement.scrollWidth")
            assert width_now <= width, width_now
            shot(page, f"town-start-{language}-{width}")
            assert_no_violations(page)
            page.locator("#start-game").click()
            page.wait_for_selector("#table")
            assert Game.objects.order_by("-id").first().values.cap == 8


def test_a_half_declaration_is_seen_as_backs_from_another_seat(browser, live_server):
    from kwx.table.record import Record
    from tests.play.helpers import KouBot, keys_hand

    done = keys_hand(1, 1, "yingcheng", "basic", second=KouBot())  # seed 1: 下家 declares at action 37 keeping 9s face down
    declared = next(i for i, a in enumerate(done.actions) if a.kou)
    for width, language in SIZES:
        with open_page(browser, live_server, width, 900, bypass_csp=True, language=language) as page:
            game = sit_down(page, "yingcheng")
            hand = Hand.objects.get(game=game)
            Hand.objects.filter(pk=hand.pk).update(record=Record(done.record.header, done.actions[: declared + 3]).to_json(), seed=None)
            page.goto(f"{page.base}/play/{game.pk}/")
            right = page.locator(".pl-opponents .pl-seat").nth(1)
            assert right.locator(".pl-kou img.tile").count() == 3
            held = done.states[declared + 3].seats[1]
            assert shown_tiles(page, right.get_attribute("aria-label")) + 3 * len(held.kou) == sum(held.concealed)
            shot(page, f"town-kou-seen-{language}-{width}")
            assert_no_violations(page)

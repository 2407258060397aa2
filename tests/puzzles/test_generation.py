"""The generator: simulated play, the filters (margin rule) and reproducibility."""

from __future__ import annotations

import random

from kwx import build_hand
from kwx.drills.simulate import Candidate, Win, play_deal
from kwx.hand.efficiency import discard_options
from kwx.hand.rules import make_rules
from kwx.hand.tiles import KIND_OF_ID, NUM_KINDS
from kwx.table.view import SeatView
from puzzles.generation import filters
from puzzles.generation.bank import generate, quiz_choices, town_quiz_from_win, town_situations
from puzzles.generation.possible import last_tile_problem, own_kongs, possible_win, record_problem, situation_problem, win_problem

STANDARD = make_rules("standard")


def _options(notation: str, visible: str = "", melds=(), rules: str = "standard"):
    hand, seen = build_hand(notation, melds, visible)
    return hand, discard_options(hand, seen, make_rules(rules))


def test_a_deal_yields_legal_positions_and_ends():
    events = list(play_deal(random.Random(3), STANDARD))
    positions = [e for e in events if isinstance(e, Candidate)]
    assert positions and all(isinstance(e, Candidate) for e in events[:-1])
    for p in positions:
        assert p.hand.tile_count == 14
        seen = [a + b for a, b in zip(p.hand.held, p.visible)]
        assert all(n <= 4 for n in seen) and len(seen) == NUM_KINDS
        assert p.options == discard_options(p.hand, p.visible, STANDARD)


def test_wins_are_complete_hands():
    from kwx.hand.scoring import score_win

    wins = [e for seed in range(30) for e in play_deal(random.Random(seed), STANDARD) if isinstance(e, Win)]
    assert wins
    for w in wins:
        assert w.hand.tile_count == 13 and score_win(w.hand, w.win, STANDARD) is not None


def test_isolated_tiles():
    hand, _ = build_hand("1p5p9p13s78sZFFBB2p")
    c = hand.concealed
    assert filters.is_isolated(c, KIND_OF_ID["Z"])
    assert filters.is_isolated(c, KIND_OF_ID["5p"])
    assert not filters.is_isolated(c, KIND_OF_ID["1p"])  # 2p is within two ranks
    assert not filters.is_isolated(c, KIND_OF_ID["F"])  # a pair


def test_clear_margin_rule():
    assert filters.clear_margin("ukeire", 13, 11)
    assert not filters.clear_margin("ukeire", 13, 12)
    assert not filters.clear_margin("ukeire", 40, 35)  # 15 % of 40 is 6
    assert filters.clear_margin("value", 20, 16)
    assert not filters.clear_margin("value", 40, 33)  # 20 % of 40 is 8


def test_lone_dragon_puzzle_is_rejected():
    hand, options = _options("123456p2378s55sZ9s")
    assert filters.judge(hand.concealed, options) is None


def test_complete_or_far_hands_are_rejected():
    hand, options = _options("1p5p9p1s5s9sZFB3p7p3s7sZ")
    assert options[0].result.shanten > filters.MAX_SHANTEN
    assert filters.judge(hand.concealed, options) is None


def test_kept_positions_obey_every_filter():
    records, stats = generate(11, 40, 10)
    assert stats.kept == 40 and stats.quiz == 10 and stats.positions >= stats.kept
    for r in records[:40]:
        hand, options = _options(r["hand"], r["visible"], r["melds"], r["rules"])
        assert not any(a.verb == "kong" for a in SeatView.from_json(r["table"]).options)  # a plain 何切: no kong on offer
        verdict = filters.judge(hand.concealed, options)
        assert verdict is not None
        assert verdict.plausible >= filters.MIN_PLAUSIBLE and len(verdict.accepted) <= filters.MAX_ACCEPTED
        assert filters.clear_margin(verdict.measure, verdict.best, verdict.runner_up)
        assert r["margin"] == {"measure": verdict.measure, "best": verdict.best, "runner_up": verdict.runner_up}


def test_same_seed_same_bank_other_seed_other_bank():
    a, _ = generate(5, 15, 5)
    b, _ = generate(5, 15, 5)
    c, _ = generate(6, 15, 5)
    assert a == b and a != c


def test_quiz_items_that_could_not_happen_are_replaced_under_new_keys():
    """Issue 38 item 3: a situation drawn without looking at the hand (杠上开花 without a kong …) gives up its key; a win from a stream of
    its own, with a situation that can happen, takes a new key after the last, so the keys of the items that could happen stay theirs."""
    records, stats = generate(3, 10, 12)
    quiz = [r for r in records if r["kind"] == "quiz"]
    assert stats.replaced >= 1 and len(quiz) == 12
    assert all(record_problem(r) is None for r in quiz)
    kept = [r["key"] for r in quiz if int(r["key"][1:]) <= 12]
    assert len(kept) == 12 - stats.replaced and [r["key"] for r in quiz[len(kept) :]] == [f"s{n:05d}" for n in range(13, 13 + stats.replaced)]


def test_a_kong_draw_comes_from_the_winners_own_kong_and_never_from_seven_pairs():
    seven = build_hand("55557788p38899s")[0]  # s00117's 龙七对: four 5p held, no kong made
    rules = make_rules("shiyan")
    assert own_kongs(seven, KIND_OF_ID["3s"]) == []
    assert possible_win(seven, KIND_OF_ID["3s"], "self_draw", ("gang_shang_kai_hua",), rules, 13, random.Random(1)) is None
    assert situation_problem(seven, KIND_OF_ID["3s"], "self_draw", make_rules("shiyan", ("gang_shang_kai_hua",)), 13) == "杠上开花 without a kong of the winner"
    ponged = build_hand("123456p789s5s", [{"type": "pong", "tile": "B"}])[0]  # the fourth 白板 drawn and added (蓄杠), then the replacement wins
    made = possible_win(ponged, KIND_OF_ID["5s"], "self_draw", ("gang_shang_kai_hua",), rules, 9, random.Random(1))
    assert made is not None and [m.as_dict() for m in made[0].melds] == [{"type": "kong", "tile": "B"}] and made[1] == 9
    triplet = build_hand("111p456p789s5sFFF")[0]
    kongs = {m.tile for h in own_kongs(triplet, KIND_OF_ID["5s"]) for m in h.melds}
    assert kongs == {"1p", "F"}  # 暗杠 of either triplet; the hand still wins on 5s
    assert possible_win(ponged, KIND_OF_ID["5s"], "self_draw", ("hai_di_lao",), rules, 9, random.Random(1)) == (ponged, 0)  # the wall's last tile
    assert situation_problem(triplet, KIND_OF_ID["1p"], "discard", make_rules("standard", ("qiang_gang_hu",)), 9) == "抢杠胡 where no kong can be robbed"
    assert situation_problem(triplet, KIND_OF_ID["5s"], "discard", make_rules("standard", ("qiang_gang_hu",), {"rob_kong": False}), 9) == "抢杠胡 where no kong can be robbed"
    assert situation_problem(triplet, KIND_OF_ID["5s"], "discard", make_rules("standard", ("hai_di_lao",)), 0) == "hai_di_lao is no discard win"


def test_quiz_choices_hold_the_answer_and_three_others():
    for total, product in ((1, 1), (2, 2), (8, 32), (16, 16)):
        choices = quiz_choices(total, product, random.Random(total))
        assert len(set(choices)) == 4 and total in choices and choices == sorted(choices)


def test_under_a_town_a_situation_must_be_one_it_counts_and_the_win_one_it_allows():
    """Issue 35 item 7: 海底 only where the town counts it, 抢杠胡 never by a declared hand under ``no_feed_xu_gang``, an allowed win, and a
    win with the wall empty has its 海底 fan wherever it counts."""
    triplet = build_hand("111p456p789s5sFFF")[0]
    win = KIND_OF_ID["5s"]
    assert situation_problem(triplet, win, "self_draw", make_rules("xiaogan", ("hai_di_lao",)), 0) == "hai_di_lao does not count under these rules"
    assert situation_problem(triplet, win, "self_draw", make_rules("xiangyang_town", ("hai_di_lao",)), 0) is None
    assert situation_problem(triplet, win, "discard", make_rules("xiangyang_town", ("hai_di_pao",)), 3) == "海底炮 with tiles left in the wall"
    assert situation_problem(triplet, win, "discard", make_rules("standard", ("hai_di_pao",)), 0) == "hai_di_pao does not count under these rules"
    plain = build_hand("123p456p789p23sFF")[0]  # a 屁胡 on 1s or 4s
    robbed = make_rules("xiaogan", ("liang_dao", "qiang_gang_hu"))
    assert situation_problem(plain, KIND_OF_ID["1s"], "discard", robbed, 9) == "抢杠胡 by a declared hand, whose robbed 蓄杠 these rules refuse"
    assert situation_problem(plain, KIND_OF_ID["1s"], "discard", make_rules("xiaogan", ("qiang_gang_hu",)), 9) is None  # an undeclared hand may
    assert situation_problem(plain, KIND_OF_ID["1s"], "discard", make_rules("standard", ("liang_dao", "qiang_gang_hu")), 9) is None  # legacy: 包胡 via 抢杠胡
    assert win_problem(plain, KIND_OF_ID["1s"], "self_draw", make_rules("yingcheng")) == "a win these rules do not allow (min_2)"
    assert win_problem(plain, KIND_OF_ID["1s"], "self_draw", make_rules("yingcheng", ("liang_dao",))) is None  # a declarer may
    assert win_problem(plain, KIND_OF_ID["1s"], "discard", make_rules("xiaogan")) == "a win these rules do not allow (pinghu)"
    assert last_tile_problem("self_draw", make_rules("standard", ("liang_dao",)), 0) == "the wall's last tile without hai_di_lao"
    assert last_tile_problem("self_draw", make_rules("xiaogan", ("liang_dao",)), 0) is None  # 孝感 counts no 海底
    assert last_tile_problem("discard", make_rules("shiyan_town"), 0) == "the wall's last tile without hai_di_pao"
    assert last_tile_problem("discard", make_rules("standard"), 0) is None


def test_a_town_quiz_item_is_drawn_among_the_situations_that_can_happen_and_stand():
    """The 屁胡 self-draw of 应城 asks only what stands there (declared, or from a kong …); a discard 屁胡 is never asked plain."""
    plain = build_hand("123p456p789p23sFF")[0]
    rules = make_rules("yingcheng")
    assert town_situations("self_draw", rules.options) == ((), (), ("liang_dao",), ("gang_shang_kai_hua",))  # no 海底 in 应城
    assert ("hai_di_pao",) in town_situations("discard", make_rules("xiangyang_town").options)
    seen = set()
    for n in range(40):
        item = town_quiz_from_win(plain, KIND_OF_ID["1s"], "self_draw", rules, random.Random(n), 7)
        if item is not None:
            assert record_problem(item) is None and item["rules"] == "yingcheng" and item["rule_options"]["self_draw_min_2"] is True
            seen.add(tuple(item["situation"]))
    assert seen == {("liang_dao",)}  # no kong to draw from: only 亮倒 lifts it to ×2

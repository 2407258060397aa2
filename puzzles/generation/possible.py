"""Whether a 算番 quiz item is a win that can happen at the table (issue 38: 杠上开花 without a kong).

A quiz item is a winner's 13 tiles, the winning tile, the side (self-draw or discard) and one
situation. The situation must fit the hand and the table:

- 杠上开花 is a self-draw on the replacement tile after the winner's own kong, so the hand holds a
  kong (never seven pairs, which has no meld);
- 海底捞 is a self-draw of the wall's last tile, so nothing is left in the wall;
- 杠上炮 is a discard win on the tile thrown after the discarder's kong, so the discarder could
  hold four of a kind the winner has none of;
- 抢杠胡 is a discard-type win on the tile added to another seat's pong: the rules allow robbing
  a kong and the winner holds no copy of that tile (the pong and the fourth are someone else's);
- 杠上开花 and 海底捞 are self-draws, 杠上炮, 抢杠胡 and 海底炮 discard wins; 亮倒 fits either.

Under a town's options (issue 35 item 7) the situation must also be one the town counts, and the
win one its rules allow:

- 海底捞 only where ``hai_di`` counts it (not under ``none``), 海底炮 only under ``lao_and_pao``,
  on the last discard (the wall empty too);
- 抢杠胡 never by a declared hand under ``no_feed_xu_gang`` (the robbed 蓄杠 is refused there);
- the win is allowed (屁胡 on a discard, 应城's undeclared self-draw below ×2 …), and a
  seven-pairs reading has no meld.

Every copy counts: no kind more than four times, the winning tile included.
"""

from __future__ import annotations

import random
from typing import Any

from kwx import build_hand
from kwx.hand.fans import FAN_BY_KEY
from kwx.hand.rules import MAX_MELDS, Rules, check_situation, make_rules
from kwx.hand.scoring import score_win, situation_counts
from kwx.hand.tiles import COPIES, KIND_OF_ID, NUM_KINDS, Hand, MeldType
from kwx.rules import preset, stored

KONGS = (MeldType.KONG, MeldType.CONCEALED_KONG)
SIDES = {"gang_shang_kai_hua": "self_draw", "hai_di_lao": "self_draw", "gang_shang_pao": "discard", "qiang_gang_hu": "discard", "hai_di_pao": "discard"}
"""The side each event-fan's win is on (亮倒 fits both)."""
LAST_TILE = ("hai_di_lao", "hai_di_pao")
"""The situations of the wall's last tile: nothing is left in the wall after them."""
SEVEN_PAIRS = frozenset(key for key, f in FAN_BY_KEY.items() if f.tier is not None)


def situation_problem(hand: Hand, win: int, side: str, rules: Rules, wall_left: int) -> str | None:
    """Why the win of ``hand`` on ``win`` (``side``, ``rules.situation``, ``wall_left`` tiles left after it) could not happen; None when it could."""
    held = hand.with_tile(win).held
    if any(n > COPIES for n in held):
        return "more than four copies of a tile"
    for key in sorted(rules.situation):
        if SIDES.get(key, side) != side:
            return f"{key} is no {side} win"
    if "gang_shang_kai_hua" in rules.situation and not any(m.type in KONGS for m in hand.melds):
        return "杠上开花 without a kong of the winner"
    if "hai_di_lao" in rules.situation and wall_left != 0:
        return "海底捞 with tiles left in the wall"
    if "hai_di_pao" in rules.situation and wall_left != 0:
        return "海底炮 with tiles left in the wall"
    if "qiang_gang_hu" in rules.situation and (hand.held[win] or not rules.options.rob_kong):
        return "抢杠胡 where no kong can be robbed"
    if "gang_shang_pao" in rules.situation and not any(held[k] == 0 for k in range(NUM_KINDS) if k != win):
        return "杠上炮 without a kong the discarder could have made"
    for key in sorted(rules.situation):
        if not situation_counts(key, rules.options):
            return f"{key} does not count under these rules"
    if {"qiang_gang_hu", "liang_dao"} <= rules.situation and rules.options.no_feed_xu_gang:
        return "抢杠胡 by a declared hand, whose robbed 蓄杠 these rules refuse"
    return None


def win_problem(hand: Hand, win: int, side: str, rules: Rules) -> str | None:
    """Why the rules do not let the hand win on ``win`` this way (no win at all, 屁胡 on a discard, 应城's undeclared self-draw below ×2 …)
    or read it as seven pairs beside a meld; None when the win stands."""
    values = score_win(hand, win, rules)
    if values is None:
        return "no win"
    value = values[0] if side == "self_draw" else values[1]
    if not value.allowed:
        return f"a win these rules do not allow ({value.reason})"
    if hand.melds and any(h.key in SEVEN_PAIRS for h in value.fans):
        return "seven pairs with a meld"
    return None


def last_tile_problem(side: str, rules: Rules, wall_left: int) -> str | None:
    """Why a win with the wall empty misses its 海底 fan: a self-draw of the last tile is a 海底捞, a discard win on the last discard a 海底炮,
    wherever the rules count it (not on a robbed kong); None when it does not. (Two items of the legacy bank, s00606 and s00679, miss their
    海底捞: that bank is kept byte for byte, so ``generate`` replaces only what ``situation_problem`` and ``win_problem`` find, and
    those two are withdrawn, ``bank.WITHDRAWN``.)"""
    key = "hai_di_lao" if side == "self_draw" else "hai_di_pao"
    if wall_left == 0 and situation_counts(key, rules.options) and key not in rules.situation and "qiang_gang_hu" not in rules.situation:
        return f"the wall's last tile without {key}"
    return None


def record_rules(record: dict[str, Any]) -> Rules:
    """The rules a bank record is asked under: its preset, its stored options (town-rules.md §3.1: an absent option is the legacy preset's) and its situation."""
    return Rules(preset(record["rules"]), stored(record["rules"], record.get("rule_options")), check_situation(record["situation"]))


def record_problem(record: dict[str, Any], *, last_tile: bool = True) -> str | None:
    """``situation_problem``, ``win_problem`` or (unless ``last_tile`` is False) ``last_tile_problem`` of a quiz record of a bank (its hand, melds, winning tile, side, rules and options, situation and wall)."""
    hand, _visible = build_hand(record["hand"], record["melds"])
    win, rules, side, wall = KIND_OF_ID[record["win"]], record_rules(record), record["side"], record["wall_left"]
    return situation_problem(hand, win, side, rules, wall) or win_problem(hand, win, side, rules) or (last_tile_problem(side, rules, wall) if last_tile else None)


def own_kongs(hand: Hand, win: int) -> list[Hand]:
    """The hand as it would stand had the winner konged a kind before the winning draw: four of a kind drawn to a concealed triplet (暗杠)
    or to a pong (蓄杠), each kept only where it still wins on ``win`` — the positions a 杠上开花 of this win can come from."""
    if len(hand.melds) >= MAX_MELDS:
        return []
    made = []
    for kind in range(NUM_KINDS):
        if kind == win or hand.held[kind] != COPIES - 1 or not (hand.concealed[kind] == COPIES - 1 or hand.pong_of(kind)):
            continue
        konged = hand.with_tile(kind).after_kong(kind)
        if score_win(konged, win, make_rules()) is not None:
            made.append(konged)
    return made


def possible_win(hand: Hand, win: int, side: str, situation: tuple[str, ...], rules: Rules, wall_left: int, rng: random.Random) -> tuple[Hand, int] | None:
    """The hand and wall with which ``situation`` can happen for this win: the hand itself (the wall empty for 海底捞), or for
    杠上开花 one of its ``own_kongs`` drawn by ``rng``; None when it cannot happen."""
    if "gang_shang_kai_hua" in situation and not any(m.type in KONGS for m in hand.melds):
        kongs = own_kongs(hand, win)
        if not kongs:
            return None
        hand = rng.choice(kongs)
    wall = 0 if any(key in situation for key in LAST_TILE) else wall_left
    return None if situation_problem(hand, win, side, with_situation(rules, situation), wall) else (hand, wall)


def standing_win(hand: Hand, win: int, side: str, rules: Rules, wall_left: int) -> bool:
    """Whether a win that can happen (``possible_win``) also stands under the rules: allowed, and with its 海底 fan when the wall is empty."""
    return win_problem(hand, win, side, rules) is None and last_tile_problem(side, rules, wall_left) is None


def with_situation(rules: Rules, situation: tuple[str, ...]) -> Rules:
    """``rules`` (preset and options) with another situation."""
    return Rules(rules.preset, rules.options, check_situation(situation))

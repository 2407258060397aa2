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
- 杠上开花 and 海底捞 are self-draws, 杠上炮 and 抢杠胡 discard wins; 亮倒 fits either.

Every copy counts: no kind more than four times, the winning tile included.
"""

from __future__ import annotations

import random
from typing import Any

from kwx import build_hand
from kwx.hand.rules import MAX_MELDS, Rules, make_rules
from kwx.hand.scoring import score_win
from kwx.hand.tiles import COPIES, KIND_OF_ID, NUM_KINDS, Hand, MeldType

KONGS = (MeldType.KONG, MeldType.CONCEALED_KONG)
SIDES = {"gang_shang_kai_hua": "self_draw", "hai_di_lao": "self_draw", "gang_shang_pao": "discard", "qiang_gang_hu": "discard"}
"""The side each event-fan's win is on (亮倒 fits both)."""


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
    if "qiang_gang_hu" in rules.situation and (hand.held[win] or not rules.options.rob_kong):
        return "抢杠胡 where no kong can be robbed"
    if "gang_shang_pao" in rules.situation and not any(held[k] == 0 for k in range(NUM_KINDS) if k != win):
        return "杠上炮 without a kong the discarder could have made"
    return None


def record_problem(record: dict[str, Any]) -> str | None:
    """``situation_problem`` of a quiz record of the bank (its hand, melds, winning tile, side, rules, situation and wall)."""
    hand, _visible = build_hand(record["hand"], record["melds"])
    return situation_problem(hand, KIND_OF_ID[record["win"]], record["side"], make_rules(record["rules"], record["situation"]), record["wall_left"])


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
    wall = 0 if "hai_di_lao" in situation else wall_left
    return None if situation_problem(hand, win, side, make_rules(rules.preset.key, situation, dict(rules.options.items())), wall) else (hand, wall)

"""Settlement of one hand (结算, kwx-rules §6 and town-rules.md §2): who pays whom, how much and why.

Every payment follows the numbered procedure of town-rules.md §2.1 under the hand's
:class:`kwx.rules.RuleSet`: F (every fan but 亮倒), the pair multiplier (亮倒 by winner or
payer, 对亮对番), 上楼, the cap, 包胡, then the flat extras (漂, 坎, 马, 跑恰摸八). A drawn hand
pays by the ``hua_zhuang`` rule (§2.3), kong money by §2.2. Under the legacy presets this is
kwx-rules.md §6 exactly. Amounts are whole multiples of the base stake (底金); every payment
carries its ``kind`` (win, kong, liang_dao, cha_da_jiao) and its parts as data (a key and the
numbers behind it), which the web layer turns into words. Players are indices 0, 1, 2 into
``HandInput.players``. The bots and the analyzer price money through these same functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from kwx.errors import EngineError, gettext_noop
from kwx.hand.analysis import MAX_TEXT, build_hand
from kwx.hand.money import (
    KONG_MONEY,
    Part,
    SideMoney,
    WinExtras,
    buys_horses,
    capped,
    discard_allowed,
    fan_part,
    horses_due,
    payer_multiplier,
    piao_part,
    side_money,
    win_extras,
    win_parts,
)
from kwx.hand.notation import parse_tile, parse_tiles
from kwx.hand.rules import Rules, make_rules
from kwx.hand.scoring import SEVEN_PAIRS_KEYS, WinValue, kan_count, score_win
from kwx.hand.tiles import COPIES, NUM_KINDS, TILE_IDS, TILE_NAMES_ZH, Hand, MeldType
from kwx.numbers import read_whole
from kwx.rules import OptionValue, RuleSet, checked_options, preset, resolve

PLAYERS = (0, 1, 2)
PIAO_CHOICES = (0, 1, 2, 5)
MAX_BASE = 10_000
MAX_NAME = 20
WALL_TILES = 45
"""Tiles left to draw after the deal (84 − 3 × 13): the most ``wall_left`` can be."""
KONG_TYPES = tuple(KONG_MONEY)
RESULTS = ("draw", "self_draw", "discard", "rob_kong")
"""荒庄, 自摸, 点炮 (two winners: 一炮双响), 抢杠胡 (``discarder`` = the player robbed)."""
USER_SITUATIONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "draw": (),
        "self_draw": ("gang_shang_kai_hua", "hai_di_lao"),
        "discard": ("gang_shang_pao", "hai_di_pao"),
        "rob_kong": (),
    }
)
"""Situational fans the user sets per result; 亮倒 and 抢杠胡 follow from the input by themselves."""
USER_SITUATION_KEYS: frozenset[str] = frozenset(k for keys in USER_SITUATIONS.values() for k in keys)
"""Every situational fan a user may set on some result (the others follow from the input)."""
RANK_NOT_READY, RANK_DECLARED, RANK_SECOND, RANK_READY = 0, 1, 2, 10
"""查大叫 ranks (§1.7): not ready, a declarer, a later declarer when all three are ready (随州 form), ready but not declared."""
_INPUT_KEYS = frozenset({"players", "base", "piao", "rules", "options", "kongs", "liang_dao", "result", "discarder", "winners", "horses", "wall_left", "dice", "hands"})


@dataclass(frozen=True, slots=True)
class Kong:
    """A kong made this hand; ``chain`` is its place in a 杠上杠 chain (1 = first or alone).

    ``drawn``: an 暗杠 of the tile just drawn.
    """

    seat: int
    type: str
    kind: int
    fed_by: int | None = None
    chain: int = 1
    drawn: bool = True

    @property
    def multiplier(self) -> int:
        """×1 for the first kong of a chain, ×2 for the next, ×4 after that …"""
        return int(2 ** (self.chain - 1))

    def chain_factor(self, options: RuleSet) -> int:
        """The 杠上杠 factor this kong is paid with (an 暗杠 of tiles already held takes none under ``an_gang_chain_drawn_only``)."""
        if self.type == "an_gang" and not self.drawn and options.an_gang_chain_drawn_only:
            return 1
        return self.multiplier


@dataclass(frozen=True, slots=True)
class Winner:
    """A winner as the calculator is told of one.

    The seat, the 13-tile hand (melds included), the winning kind, the fans the user set.
    """

    seat: int
    hand: Hand
    kind: int
    situation: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class HandInput:
    """Everything that decides one hand's payments.

    ``liang_dao`` lists the seats that declared in the order they declared (the first is the first
    declarer). ``horses`` are the horse tiles turned (None: none given), ``wall_left`` the tiles not
    drawn when the hand ended (None: not given), ``dice`` the deal's roll (上楼), ``hands`` each seat's
    13 tiles at a drawn hand (for 查大叫; None where not given).
    """

    players: tuple[str, str, str]
    base: int = 1
    piao: tuple[int, int, int] = (0, 0, 0)
    rules: str = "standard"
    options: tuple[tuple[str, OptionValue], ...] = ()
    kongs: tuple[Kong, ...] = ()
    liang_dao: tuple[int, ...] = ()
    result: str = "draw"
    discarder: int | None = None
    winners: tuple[Winner, ...] = ()
    horses: tuple[int, ...] | None = None
    wall_left: int | None = None
    dice: tuple[int, int] | None = None
    hands: tuple[Hand | None, ...] = ()

    @property
    def rule_set(self) -> RuleSet:
        """The preset with the input's options (town-rules.md §3.1)."""
        return resolve(self.rules, dict(self.options))


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` (the sum of the parts); ``kind`` is win, kong, liang_dao or cha_da_jiao."""

    payer: int
    payee: int
    amount: int
    parts: tuple[Part, ...]
    kind: str = "win"

    def grouped(self) -> dict[str, int]:
        """The parts by group (town-rules.md §6): fan and piao always on a win or 查大叫 payment, the others where they count."""
        out: dict[str, int] = {"fan": 0, "piao": 0} if self.kind in ("win", "cha_da_jiao") else {}
        for part in self.parts:
            out[part.group] = out.get(part.group, 0) + part.amount
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Win(Winner):
    """A winner valued: made at the table or settled from a :class:`Winner`, scored once.

    Beside the winner's seat, 13 tiles and winning kind: the side (自摸 or 点炮), every situational
    fan it carries (``situation``, 亮倒 and 抢杠胡 included) and its value.
    """

    side: Literal["self_draw", "discard"]
    value: WinValue

    def amount(self, base: int) -> int:
        """V, the win value in money (towards a payer who did not declare, no 上楼)."""
        return base * self.value.total

    @property
    def winner(self) -> Winner:
        """The win as the calculator is told of it: the fans a user sets, without 亮倒 and 抢杠胡 (the result and 亮倒 list say those)."""
        return Winner(self.seat, self.hand, self.kind, self.situation - {"liang_dao", "qiang_gang_hu"})


@dataclass(frozen=True, slots=True)
class Ready:
    """A seat at a drawn hand under 查大叫: its best wait and value (a self-draw, its own 亮倒 included) and its rank.

    ``kind`` None when not ready.
    """

    seat: int
    kind: int | None
    value: WinValue | None
    rank: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The payments of one hand and each player's net (they always sum to zero)."""

    input: HandInput
    wins: tuple[Win, ...]
    payments: tuple[Payment, ...]
    nets: tuple[int, int, int]
    next_dealer_rule: str
    rules: RuleSet = RuleSet()
    extras: tuple[WinExtras, ...] = ()
    ready: tuple[Ready, ...] = ()


class WinnerInputError(EngineError):
    """A winner's hand or tile that does not parse; the message names the winner."""

    def __init__(self, player: str, cause: EngineError) -> None:
        self.cause = cause
        super().__init__(gettext_noop("%(player)s's hand: %(problem)s"), "winners", player=player, problem=str(cause))

    def translated(self, gettext: Any) -> str:
        """The cause's message, translated, after the winner's name."""
        return str(gettext(self.template)) % {"player": self.params["player"], "problem": self.cause.translated(gettext)}


def _error(template: str, field: str, **params: Any) -> EngineError:
    return EngineError(template, field, **params)


def _name(inp: HandInput, player: int | None) -> str:
    return inp.players[player] if player is not None else ""


def _check_basics(inp: HandInput) -> None:
    """Players, base, 漂, result kind, discarder and winner count."""
    if inp.base < 1 or inp.base > MAX_BASE:
        raise _error(gettext_noop("The base stake must be a whole number from 1 to %(limit)d."), "base", limit=MAX_BASE)
    for player, piao in enumerate(inp.piao):
        if piao not in PIAO_CHOICES:
            raise _error(gettext_noop("%(player)s's 漂 must be 0, 1, 2 or 5."), "piao", player=inp.players[player])
    if inp.result not in RESULTS:
        raise _error(gettext_noop('Unknown result "%(value)s": use draw, self_draw, discard or rob_kong.'), "result", value=str(inp.result)[:40])
    winners = [w.seat for w in inp.winners]
    if len(set(winners)) != len(winners):
        raise _error(gettext_noop("%(player)s is listed as a winner twice."), "winners", player=_name(inp, winners[0]))
    allowed = {"draw": (0,), "self_draw": (1,), "discard": (1, 2), "rob_kong": (1, 2)}[inp.result]
    if len(winners) not in allowed:
        raise _error(
            gettext_noop("A %(result)s needs %(count)s winner(s); %(given)d given."),
            "winners",
            result=inp.result,
            count=" or ".join(map(str, allowed)),
            given=len(winners),
        )
    needs_discarder = inp.result in ("discard", "rob_kong")
    if needs_discarder and inp.discarder is None:
        raise _error(gettext_noop("Say who discarded the winning tile (or whose kong was robbed)."), "discarder")
    if not needs_discarder and inp.discarder is not None:
        raise _error(gettext_noop("Only a discard win or 抢杠胡 has a discarder."), "discarder")
    if len({w.kind for w in inp.winners}) > 1:
        raise _error(gettext_noop("Both winners win on the same discarded tile: give the same winning tile."), "winners")
    if inp.discarder is not None and inp.discarder in winners:
        raise _error(gettext_noop("%(player)s cannot both win and discard the winning tile."), "discarder", player=_name(inp, inp.discarder))
    if len(set(inp.liang_dao)) != len(inp.liang_dao):
        raise _error(gettext_noop("%(player)s is listed twice in 亮倒: each player declares at most once."), "liang_dao", player=_name(inp, inp.liang_dao[0]))


def _check_stakes_and_table(inp: HandInput, rules: RuleSet) -> None:
    """What the options ask of the input: 漂 allowed, dice under 上楼, the wall count, horses where and as many as are bought."""
    if rules.piao_mode == "off" and any(inp.piao):
        raise _error(gettext_noop("These rules play without 漂 (piao_mode off): every 漂 must be 0."), "piao")
    if inp.dice is not None:
        if len(inp.dice) != 2 or not all(1 <= d <= 6 for d in inp.dice):
            raise _error(gettext_noop("The dice must be two numbers from 1 to 6."), "dice")
    elif rules.shang_lou:
        raise _error(gettext_noop("These rules play 上楼: give the deal's two dice (dice: [d1, d2])."), "dice")
    if inp.wall_left is not None and not 0 <= inp.wall_left <= WALL_TILES:
        raise _error(gettext_noop("wall_left must be a whole number from 0 to %(limit)d."), "wall_left", limit=WALL_TILES)
    winner = inp.winners[0] if inp.result == "self_draw" and inp.winners else None
    due = winner is not None and buys_horses(rules, True, winner.seat in inp.liang_dao)
    given = inp.horses or ()
    if not due:
        if given:
            raise _error(gettext_noop("No horses are bought here (买马 needs the rules' horses and a qualifying self-draw): leave horses empty."), "horses")
        return
    assert winner is not None
    wall_left = inp.wall_left if inp.wall_left is not None else (0 if "hai_di_lao" in winner.situation else WALL_TILES)
    need = horses_due(rules, wall_left)
    if len(given) != need:
        raise _error(
            gettext_noop("This self-draw buys %(need)d horse(s) (买马, %(left)d tiles left in the wall); %(given)d given."),
            "horses",
            need=need,
            left=wall_left,
            given=len(given),
        )


def _check_kongs(inp: HandInput) -> None:
    """Kong types, feeders, 杠上杠 chains and one kong per kind at most."""
    seen: dict[int, int] = {}
    previous: Kong | None = None
    for number, kong in enumerate(inp.kongs, start=1):
        params = {"number": number, "player": inp.players[kong.seat], "tile": TILE_IDS[kong.kind]}
        if kong.type not in KONG_TYPES:
            raise _error(gettext_noop('Kong %(number)d: unknown type "%(value)s": use an_gang, ming_gang or zhi_gang.'), "kongs", number=number, value=str(kong.type)[:40])
        if kong.type == "zhi_gang" and (kong.fed_by is None or kong.fed_by == kong.seat):
            raise _error(gettext_noop("Kong %(number)d (直杠 of %(tile)s by %(player)s): say which other player discarded the fourth tile."), "kongs", **params)
        if kong.type != "zhi_gang" and kong.fed_by is not None:
            raise _error(gettext_noop("Kong %(number)d: only a 直杠 is fed by another player's discard."), "kongs", number=number)
        if kong.kind in seen:
            raise _error(gettext_noop("Kong %(number)d: %(tile)s was already konged (kong %(other)d); a kind has only four tiles."), "kongs", other=seen[kong.kind], **params)
        seen[kong.kind] = number
        if kong.chain < 1:
            raise _error(gettext_noop("Kong %(number)d: a chain position starts at 1."), "kongs", number=number)
        if kong.chain > 1:
            linked = (
                previous is not None and previous.chain == kong.chain - 1 and ((kong.type == "zhi_gang" and kong.fed_by == previous.seat) or (kong.type != "zhi_gang" and kong.seat == previous.seat))
            )
            if not linked:
                raise _error(
                    gettext_noop(
                        "Kong %(number)d is number %(chain)d of a 杠上杠 chain, so it must follow kong %(chain_before)d of the chain "
                        "in the list: made by the same player after the replacement draw, or a 直杠 on the tile that player then discarded."
                    ),
                    "kongs",
                    number=number,
                    chain=kong.chain,
                    chain_before=kong.chain - 1,
                )
        previous = kong
    for player in PLAYERS:
        if sum(1 for k in inp.kongs if k.seat == player) > 4:
            raise _error(gettext_noop("%(player)s made more than four kongs."), "kongs", player=inp.players[player])


def _check_kong_melds(inp: HandInput, seat: int, hand: Hand, field: str) -> None:
    """A hand's kong melds match the kong list, kind by kind and type by type."""
    name = inp.players[seat]
    hand_kongs = {m.kind: m.type for m in hand.melds if m.type is not MeldType.PONG}
    listed = {k.kind: k for k in inp.kongs if k.seat == seat}
    for kind, meld_type in hand_kongs.items():
        kong = listed.get(kind)
        if kong is None:
            raise _error(
                gettext_noop("%(player)s's hand shows a kong of %(tile)s that is not in the kong list: add it there (its money counts)."),
                "kongs",
                player=name,
                tile=TILE_IDS[kind],
            )
        if (meld_type is MeldType.CONCEALED_KONG) != (kong.type == "an_gang"):
            raise _error(
                gettext_noop("%(player)s's kong of %(tile)s is a %(meld)s in the hand but a %(listed)s in the kong list."),
                "kongs",
                player=name,
                tile=TILE_IDS[kind],
                meld=meld_type.name_zh,
                listed={"an_gang": "暗杠", "ming_gang": "明杠", "zhi_gang": "直杠"}[kong.type],
            )
    for kind in listed:
        if kind not in hand_kongs:
            raise _error(
                gettext_noop("The kong list says %(player)s konged %(tile)s, but the hand shows no such kong: add it to the hand in brackets, [….] for 明杠/直杠, {….} for 暗杠."),
                "kongs",
                player=name,
                tile=TILE_IDS[kind],
            )


def _check_tiles(inp: HandInput) -> None:
    """Each winner's (or, at a drawn hand, each player's) 13 tiles and kong melds; no kind beyond four copies in all."""
    total = [0] * NUM_KINDS
    for w in inp.winners:
        name = inp.players[w.seat]
        if w.hand.tile_count != 13:
            raise _error(
                gettext_noop("%(player)s's hand has %(count)d tiles (each meld counts 3): give the 13 before the winning tile."),
                "winners",
                player=name,
                count=w.hand.tile_count,
            )
        if w.hand.held[w.kind] >= COPIES:
            raise _error(gettext_noop("%(player)s already holds all four %(tile)s, so it cannot be the winning tile."), "winners", player=name, tile=TILE_IDS[w.kind])
        _check_kong_melds(inp, w.seat, w.hand, "winners")
        for kind, n in enumerate(w.hand.held):
            total[kind] += n
    accounted = {w.seat for w in inp.winners}
    if inp.result == "draw":
        for seat, hand in enumerate(inp.hands):
            if hand is None:
                continue
            if hand.tile_count != 13:
                raise _error(
                    gettext_noop("%(player)s's hand has %(count)d tiles (each meld counts 3): give the 13 tiles held when the wall ran out."),
                    "hands",
                    player=inp.players[seat],
                    count=hand.tile_count,
                )
            _check_kong_melds(inp, seat, hand, "hands")
            accounted.add(seat)
            for kind, n in enumerate(hand.held):
                total[kind] += n
    if inp.winners:
        total[inp.winners[0].kind] += 1
    for kong in inp.kongs:
        if kong.seat not in accounted:
            total[kong.kind] += COPIES
    for horse in inp.horses or ():
        total[horse] += 1
    for kind, n in enumerate(total):
        if n > COPIES:
            raise _error(
                gettext_noop("%(tile)s (%(name)s): the hands, the winning tile, the kongs and the horses need %(count)d copies; there are only 4."),
                "kongs" if inp.kongs else "hands" if inp.result == "draw" else "winners",
                tile=TILE_IDS[kind],
                name=TILE_NAMES_ZH[kind],
                count=n,
            )


def _value(inp: HandInput, rules: Rules, w: Winner) -> Win:
    """Value one winner's hand with the engine, refusing what is not a win (or not allowed from this payer)."""
    name = inp.players[w.seat]
    allowed = USER_SITUATIONS[inp.result]
    for key in sorted(w.situation):
        if key not in allowed:
            if key in ("liang_dao", "qiang_gang_hu"):
                raise _error(gettext_noop("%(player)s: %(key)s is set by the result and the 亮倒 list, not by hand."), "winners", player=name, key=key)
            raise _error(gettext_noop("%(player)s: %(key)s does not fit a %(result)s."), "winners", player=name, key=key, result=inp.result)
    if "gang_shang_kai_hua" in w.situation and not any(k.seat == w.seat for k in inp.kongs):
        raise _error(gettext_noop("%(player)s: 杠上开花 needs a kong of the winner in the kong list."), "winners", player=name)
    if "gang_shang_pao" in w.situation and not any(k.seat == inp.discarder for k in inp.kongs):
        raise _error(gettext_noop("%(player)s: 杠上炮 needs a kong of the discarder in the kong list."), "winners", player=name)
    options = rules.options
    if "hai_di_pao" in w.situation and options.hai_di != "lao_and_pao":
        raise _error(gettext_noop("%(player)s: these rules do not count 海底炮 (hai_di is not lao_and_pao)."), "winners", player=name)
    declared = w.seat in inp.liang_dao
    if inp.result == "rob_kong" and declared and options.no_feed_xu_gang:
        raise _error(
            gettext_noop("%(player)s declared 亮倒, and these rules refuse a 蓄杠 of a declared hand's winning tile (no_feed_xu_gang), so this kong cannot be robbed."),
            "winners",
            player=name,
        )
    situation = set(w.situation)
    if declared:
        situation.add("liang_dao")
    if inp.result == "rob_kong":
        situation.add("qiang_gang_hu")
    values = score_win(w.hand, w.kind, Rules(rules.preset, options, frozenset(situation)))
    if values is None:
        raise _error(gettext_noop("%(player)s's hand does not win on %(tile)s."), "winners", player=name, tile=TILE_IDS[w.kind])
    side: Literal["self_draw", "discard"] = "self_draw" if inp.result == "self_draw" else "discard"
    value = values[0] if side == "self_draw" else values[1]
    payer_declared = inp.discarder is not None and inp.discarder in inp.liang_dao
    if not value.allowed and not (side == "discard" and discard_allowed(value, payer_declared, options)):
        if value.reason == "rob_kong_off":
            raise _error(gettext_noop("%(player)s: these rules do not allow robbing a kong (抢杠胡)."), "winners", player=name)
        if value.reason == "min_2":
            raise _error(gettext_noop("%(player)s: under these rules a self-draw by a hand that did not declare 亮倒 needs ×2 or more (self_draw_min_2)."), "winners", player=name)
        raise _error(
            gettext_noop("%(player)s: a win worth ×1 (屁胡) cannot be taken on a discard, only by self-draw."),
            "winners",
            player=name,
        )
    return Win(seat=w.seat, hand=w.hand, kind=w.kind, situation=frozenset(situation), side=side, value=value)


def _extras_of(inp: HandInput, rules: RuleSet, win: Win) -> WinExtras:
    """The extras of one winner of the input."""
    declared = inp.liang_dao
    return win_extras(
        win.value, win.hand, win.kind, rules, self_draw=win.side == "self_draw", winner_declared=win.seat in declared, discarder_declared=inp.discarder in declared, horses=inp.horses or ()
    )


def _payment(payer: int, payee: int, parts: list[Part] | tuple[Part, ...], kind: str = "win") -> Payment:
    return Payment(payer, payee, sum(p.amount for p in parts), tuple(parts), kind)


def _win_payments(inp: HandInput, rules: RuleSet, win: Win, extras: WinExtras, third: int | None) -> list[Payment]:
    """The payments of one winner: from both others on a self-draw, from the discarder (or the robbed kong's maker) otherwise."""
    w, piao = win.seat, inp.piao
    declared = set(inp.liang_dao)
    self_draw = win.side == "self_draw"
    if self_draw:
        payers = [p for p in PLAYERS if p != w]
    else:
        assert inp.discarder is not None
        payers = [inp.discarder]
    out = []
    for payer in payers:
        t = third if third is not None else 3 - w - payer
        parts = win_parts(
            win.value,
            extras,
            rules,
            self_draw=self_draw,
            winner_declared=w in declared,
            payer_declared=payer in declared,
            third_declared=t in declared,
            rob=inp.result == "rob_kong",
            piao=(piao[w], piao[payer], piao[t]),
            dice=inp.dice,
            base=inp.base,
        )
        out.append(_payment(payer, w, parts))
    return out


def _kong_payments(inp: HandInput, rules: RuleSet) -> list[Payment]:
    """Kong money (喜钱), paid whatever the result; 杠上杠 doubles the later kongs of a chain (§2.2)."""
    out: list[Payment] = []
    for kong in inp.kongs:
        money = KONG_MONEY[kong.type]
        factor = kong.chain_factor(rules)
        amount = money * factor * inp.base
        part = Part(kong.type, amount, (("money", money), ("chain", factor), ("base", inp.base), ("tile", kong.kind)))
        payers = [kong.fed_by] if kong.fed_by is not None else [p for p in PLAYERS if p != kong.seat]
        out.extend(Payment(payer, kong.seat, amount, (part,), "kong") for payer in payers)
    return out


def best_ready(hand: Hand, rules: Rules, declared: bool) -> tuple[int, WinValue] | None:
    """A seat's best value at a drawn hand (§1.7).

    The best self-draw its 13 tiles could make, no situational fans but its own 亮倒 (None: not ready).
    """
    situated = Rules(rules.preset, rules.options, frozenset({"liang_dao"}) if declared else frozenset())
    best: tuple[int, WinValue] | None = None
    best_key = (0, 0, 0)
    for kind in range(NUM_KINDS):
        if hand.held[kind] >= COPIES:
            continue
        values = score_win(hand, kind, situated)
        if values is None:
            continue
        value = values[0]
        seven_pairs = any(h.key in SEVEN_PAIRS_KEYS for h in value.fans)
        key = (capped(value.product, value.cap), value.product, 0 if seven_pairs else kan_count(hand, kind))
        if best is None or key > best_key:
            best, best_key = (kind, value), key
    return best


def _ready_seats(inp: HandInput, rules: Rules) -> tuple[Ready, ...]:
    """Each seat's best value and 查大叫 rank (§1.7)."""
    declared = inp.liang_dao
    found = []
    for seat in PLAYERS:
        hand = inp.hands[seat] if seat < len(inp.hands) else None
        if hand is None:
            raise _error(gettext_noop("These rules settle a drawn hand by 查大叫: give all three hands (hands), as they were when the wall ran out."), "hands")
        found.append(best_ready(hand, rules, seat in declared))
    all_ready = all(f is not None for f in found)
    out = []
    for seat, best in enumerate(found):
        if seat in declared and best is None and rules.options.sha_ma:
            rank = RANK_NOT_READY  # 杀马 konged a face-up triplet and dropped the waits it broke: declared, but no longer ready
        elif seat in declared:
            if best is None:
                raise _error(gettext_noop("%(player)s declared 亮倒 but the hand given is not ready: a declared hand is always ready."), "hands", player=inp.players[seat])
            second = rules.options.hua_zhuang == "cha_da_jiao_suizhou" and all_ready and seat != declared[0]
            rank = RANK_SECOND if second else RANK_DECLARED
        else:
            rank = RANK_READY if best is not None else RANK_NOT_READY
        out.append(Ready(seat, best[0] if best else None, best[1] if best else None, rank))
    return tuple(out)


def first_declarer_counts(rules: RuleSet) -> bool:
    """Whether a drawn hand's money depends on who declared 亮倒 first (``first_declarer``, and the 随州 查大叫 ranks)."""
    return rules.hua_zhuang in ("first_declarer", "cha_da_jiao_suizhou")


def _draw_payments(inp: HandInput, rules: Rules) -> tuple[list[Payment], tuple[Ready, ...]]:
    """荒庄 by ``hua_zhuang`` (§1.7): each declarer pays, the first declarer pays, 查大叫, or nothing."""
    options, base = rules.options, inp.base
    declared = inp.liang_dao
    if options.hua_zhuang == "each_declarer":
        part = Part("huang_zhuang", base, (("base", base),))
        return [Payment(payer, payee, base, (part,), "liang_dao") for payer in sorted(declared) for payee in PLAYERS if payee not in declared], ()
    if options.hua_zhuang == "first_declarer":
        if not declared:
            return [], ()
        pays = options.hua_zhuang_first_pays
        part = Part("first_declarer", pays * base, (("money", pays), ("base", base)))
        return [Payment(declared[0], payee, pays * base, (part,), "liang_dao") for payee in PLAYERS if payee != declared[0]], ()
    if not options.cha_da_jiao:
        return [], ()
    ready = _ready_seats(inp, rules)
    out = []
    for c in ready:
        if c.value is None:
            continue
        for p in ready:
            if p.rank >= c.rank:
                continue
            m = payer_multiplier(c.value, c.seat in declared, p.seat in declared, options, inp.dice)
            parts = [fan_part("cha_da_jiao", m, base)]
            if inp.piao[c.seat] + inp.piao[p.seat]:
                parts.append(piao_part(inp.piao[c.seat], inp.piao[p.seat], base))
            if options.shu_kan and c.value.kan:
                parts.append(Part("kan", c.value.kan * base, (("kan", c.value.kan), ("times", 1), ("base", base))))
            out.append(_payment(p.seat, c.seat, parts, "cha_da_jiao"))
    return out, ready


def settle(inp: HandInput, wins: tuple[Win, ...] | None = None) -> Settlement:
    """Check one hand and compute its payments and nets by town-rules.md §2 (raises EngineError).

    ``wins``: the input's winners already valued at the table (``Win.winner`` of each is ``inp.winners``), not scored again.
    """
    _check_basics(inp)
    rules = make_rules(inp.rules, (), dict(inp.options))
    options = rules.options
    _check_stakes_and_table(inp, options)
    _check_kongs(inp)
    _check_tiles(inp)
    if wins is None:
        wins = tuple(_value(inp, rules, w) for w in inp.winners)
    extras = tuple(_extras_of(inp, options, win) for win in wins)
    payments: list[Payment] = []
    for win, extra in zip(wins, extras, strict=True):
        third = next((o.seat for o in wins if o.seat != win.seat), None)
        payments.extend(_win_payments(inp, options, win, extra, third))
    ready: tuple[Ready, ...] = ()
    if inp.result == "draw":
        drawn, ready = _draw_payments(inp, rules)
        payments.extend(drawn)
    payments.extend(_kong_payments(inp, options))
    nets = [0, 0, 0]
    for p in payments:
        nets[p.payer] -= p.amount
        nets[p.payee] += p.amount
    rule = "draw" if inp.result == "draw" else "double" if len(wins) == 2 else "winner"
    return Settlement(inp, wins, tuple(payments), (nets[0], nets[1], nets[2]), rule, options, extras, ready)


def double_win_partner(winner: int, discarder: int) -> int | None:
    """The other winner of a 一炮双响: the one player neither the first winner nor the discarder (None if those two coincide)."""
    others = [p for p in PLAYERS if p not in (winner, discarder)]
    return others[0] if len(others) == 1 else None


def next_dealer(settlement: Settlement, dealer: int) -> int:
    """Dealer of the next hand (§5): the winner; the discarder after 一炮双响; the same dealer after 荒庄."""
    if settlement.next_dealer_rule == "draw":
        return dealer
    if settlement.next_dealer_rule == "double":
        assert settlement.input.discarder is not None
        return settlement.input.discarder
    return settlement.wins[0].seat


@dataclass(frozen=True, slots=True)
class WinMoney:
    """What one win collects, each way it can happen (None: not allowed that way), every player at the same 漂.

    ``self_draw`` / ``self_draw_each`` / ``discard`` are from payers who did not declare;
    ``self_draw_each_declared`` / ``discard_declared`` from a payer who declared 亮倒, only where
    that differs (``liang_dao_double: winner_or_payer``; ``discard_declared`` also where only a
    declared payer's discard may be won on). ``bao_hu`` is the discard payment of the same hand
    declared 亮倒: a 包胡 (both shares) where ``is_bao_hu``, else the ordinary discard payment.
    Flat extras the win decides (坎, 跑恰摸八) are included; horses are not (they are drawn later).
    """

    self_draw: int | None
    self_draw_each: int | None
    discard: int | None
    bao_hu: int | None
    self_draw_each_declared: int | None = None
    discard_declared: int | None = None
    is_bao_hu: bool = False


def check_stakes(base: Any, piao: Any) -> tuple[int, int]:
    """A base stake (1 to MAX_BASE) and a 漂 (0, 1, 2 or 5) as whole numbers (raises EngineError)."""
    if isinstance(base, bool) or not isinstance(base, int) or not 1 <= base <= MAX_BASE:
        raise _error(gettext_noop("The base stake must be a whole number from 1 to %(limit)d."), "base", limit=MAX_BASE)
    if isinstance(piao, bool) or piao not in PIAO_CHOICES:
        raise _error(gettext_noop("漂 must be 0, 1, 2 or 5."), "piao")
    return base, piao


def win_money(hand: Hand, tile: int, rules: Rules, base: int = 1, piao: int = 0) -> WinMoney | None:
    """What winning ``hand`` (13 tiles) on ``tile`` collects at ``base``, every player at 漂 ``piao`` (None: no win).

    自摸: both others pay; 点炮: the discarder pays (包胡 already when 亮倒 is in the situation and the
    rules have it). The amounts are settle()'s own procedure (§2.1, ``kwx.hand.money``).
    """
    check_stakes(base, piao)
    values = score_win(hand, tile, rules)
    if values is None:
        return None
    declared = "liang_dao" in rules.situation
    as_declared = rules if declared else Rules(rules.preset, rules.options, rules.situation | {"liang_dao"})
    declared_values = score_win(hand, tile, as_declared) or values
    own = side_money(values[0], hand, tile, True, rules)
    thrown = side_money(values[1], hand, tile, False, rules)
    after = side_money(declared_values[1], hand, tile, False, as_declared)

    def paid(allowed: bool, amount: float, pairs: int = 1) -> int | None:
        return base * (round(amount) + 2 * piao * pairs) if allowed else None

    both = 2 if rules.options.bao_hu_piao == "both" else 1

    def thrown_from(side: SideMoney) -> int | None:
        """A discard win from a payer who did not declare: 包胡 where it applies, else the ordinary payment."""
        bao = side.bao_hu_amount
        return paid(True, bao, both) if bao is not None else paid(side.allowed, side.amount)

    each = paid(own.allowed, own.amount)
    each_declared = paid(own.declared_allowed, own.declared_amount)
    discard = thrown_from(thrown)
    discard_declared = paid(thrown.declared_allowed, thrown.declared_amount, both if thrown.declared_bao_hu else 1)
    return WinMoney(
        self_draw=None if each is None else each * (len(PLAYERS) - 1),
        self_draw_each=each,
        discard=discard,
        bao_hu=thrown_from(after),
        self_draw_each_declared=each_declared if each_declared != each else None,
        discard_declared=discard_declared if discard_declared != discard else None,
        is_bao_hu=after.bao_hu is not None,
    )


# ---- reading the JSON form (API body, stored sheet hands) ----------------------------------


def _int(value: Any, field: str, template: str, **params: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        text = value.strip() if isinstance(value, str) else ""
        number = read_whole(text.removeprefix("-"))
        if number is None:
            raise _error(template, field, **params)
        return -number if text.startswith("-") else number
    return value


def _players(value: Any) -> tuple[str, str, str]:
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise _error(gettext_noop("Give exactly three player names."), "players")
    names = []
    for item in value:
        if not isinstance(item, str) or not item.strip() or len(item.strip()) > MAX_NAME:
            raise _error(gettext_noop("Each player name must be 1 to %(limit)d characters."), "players", limit=MAX_NAME)
        names.append(item.strip())
    if len(set(names)) != 3:
        raise _error(gettext_noop("The three player names must be different."), "players")
    return names[0], names[1], names[2]


def _player(value: Any, players: tuple[str, ...], field: str, missing: str = gettext_noop("Choose a player: %(names)s."), **params: Any) -> int:
    """A player given by name (or by index 0–2); ``missing`` says which player is not chosen yet."""
    if isinstance(value, int) and not isinstance(value, bool) and value in PLAYERS:
        return value
    if isinstance(value, str) and value.strip() in players:
        return players.index(value.strip())
    if value is None or value == "":
        raise _error(missing, field, names=", ".join(players), **params)
    raise _error(
        gettext_noop('Unknown player "%(value)s": the players are %(names)s.'),
        field,
        value=str(value)[:40],
        names=", ".join(players),
    )


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise _error(gettext_noop("Must be tile text such as 4556p123s789sZZZ (at most %(limit)d characters)."), field, limit=MAX_TEXT)
    return value


def _kong(item: Any, number: int, players: tuple[str, ...]) -> Kong:
    if not isinstance(item, Mapping):
        raise _error(gettext_noop("Kong %(number)d must be an object with who, type and tile."), "kongs", number=number)
    who = _player(item.get("who", item.get("seat")), players, "kongs", gettext_noop("Kong %(number)d: choose who made it (%(names)s)."), number=number)
    kong_type = item.get("type")
    if kong_type not in KONG_TYPES:
        raise _error(gettext_noop('Kong %(number)d: unknown type "%(value)s": use an_gang, ming_gang or zhi_gang.'), "kongs", number=number, value=str(kong_type)[:40])
    tile = item.get("tile")
    if not isinstance(tile, str) or not tile.strip():
        raise _error(gettext_noop("Kong %(number)d: which tile was konged? Write it like 5p or F."), "kongs", number=number)
    kind = parse_tile(_text(tile, "kongs"), "kongs")
    fed = item.get("fed_by")
    fed_by = None if fed in (None, "") else _player(fed, players, "kongs")
    chain = _int(item.get("chain", 1), "kongs", gettext_noop("Kong %(number)d: the chain position must be a whole number."), number=number)
    drawn = _given(item, "drawn", True)
    if not isinstance(drawn, bool):
        raise _error(gettext_noop("Kong %(number)d: drawn must be true or false (false: an 暗杠 of tiles held before the latest draw)."), "kongs", number=number)
    if not drawn and kong_type != "an_gang":
        raise _error(gettext_noop("Kong %(number)d: only an 暗杠 can be of tiles held before the draw (drawn: false)."), "kongs", number=number)
    return Kong(who, kong_type, kind, fed_by, max(chain, 0), drawn)


def _winner(item: Any, players: tuple[str, ...]) -> Winner:
    if not isinstance(item, Mapping):
        raise _error(gettext_noop("Each winner must be an object with player, hand and tile."), "winners")
    player = _player(item.get("player", item.get("seat")), players, "winners", gettext_noop("Choose the winner: %(names)s."))
    try:
        hand, _ = build_hand(_text(item.get("hand"), "winners"), _given(item, "melds", ()), check_size=False)  # 13 tiles: checked by name
        tile = parse_tile(_text(item.get("tile"), "winners"), "winners")
    except EngineError as exc:
        raise WinnerInputError(players[player], exc) from exc
    situation = _given(item, "situation", [])
    if not isinstance(situation, (list, tuple)) or not all(isinstance(s, str) for s in situation):
        raise _error(gettext_noop("The situation must be a list of situational fan keys."), "winners")
    return Winner(player, hand, tile, frozenset(situation))


def _drawn_hand(item: Any, seat: int, players: tuple[str, ...]) -> Hand | None:
    """One player's tiles at a drawn hand: text with melds in brackets, or ``{hand, melds}``; None when not given."""
    if item is None or item == "":
        return None
    text, melds = (item.get("hand"), _given(item, "melds", ())) if isinstance(item, Mapping) else (item, ())
    try:
        hand, _ = build_hand(_text(text, "hands"), melds, check_size=False)
    except EngineError as exc:
        raise EngineError(gettext_noop("%(player)s's hand: %(problem)s"), "hands", player=players[seat], problem=str(exc)) from exc
    return hand


def _tiles(value: Any, field: str, limit: int) -> tuple[int, ...]:
    """A list of tiles (``["7s", "Z"]``) or tile text (``7sZ``), at most ``limit``."""
    if isinstance(value, str):
        counts = parse_tiles(_text(value, field), field)
        kinds = tuple(k for k, n in enumerate(counts) for _ in range(n))
    elif isinstance(value, (list, tuple)) and all(isinstance(t, str) for t in value):
        kinds = tuple(parse_tile(_text(t, field), field) for t in value)
    else:
        raise _error(gettext_noop('Must be a list of tiles such as ["7s", "Z"].'), field)
    if len(kinds) > limit:
        raise _error(gettext_noop("At most %(limit)d tiles."), field, limit=limit)
    return kinds


def _given(data: Mapping[str, Any], key: str, default: Any) -> Any:
    """The value at ``key``, or ``default`` when it is absent or null (an empty string or 0 is a value, and checked)."""
    value = data.get(key)
    return default if value is None else value


def parse_input(data: Any) -> HandInput:
    """Read the JSON form of a hand (players by name) into a HandInput (shape checks only)."""
    if not isinstance(data, Mapping):
        raise _error(gettext_noop("The request body must be a JSON object."), "body")
    unknown = sorted(set(data) - _INPUT_KEYS)
    if unknown:
        raise _error(gettext_noop('Unknown field "%(name)s".'), unknown[0][:40], name=unknown[0][:40])
    players = _players(data.get("players"))
    base = _int(data.get("base", 1), "base", gettext_noop("The base stake must be a whole number from 1 to %(limit)d."), limit=MAX_BASE)
    piao_raw = _given(data, "piao", [0, 0, 0])
    if isinstance(piao_raw, Mapping):
        piao_raw = [piao_raw[name] for name in players] if set(piao_raw) == set(players) else None
    if not isinstance(piao_raw, (list, tuple)) or len(piao_raw) != 3:
        raise _error(gettext_noop("漂 must be three numbers (0, 1, 2 or 5), one per player."), "piao")
    piao = tuple(_int(v, "piao", gettext_noop("漂 must be three numbers (0, 1, 2 or 5), one per player.")) for v in piao_raw)
    options = checked_options(_given(data, "options", {}))
    preset(data.get("rules", "standard"))
    kongs_raw = _given(data, "kongs", [])
    if not isinstance(kongs_raw, (list, tuple)) or len(kongs_raw) > 12:
        raise _error(gettext_noop("The kongs must be a list (at most 12)."), "kongs")
    liang_raw = _given(data, "liang_dao", [])
    if not isinstance(liang_raw, (list, tuple)) or len(liang_raw) > 3:
        raise _error(gettext_noop("亮倒 must be a list of players, in the order they declared."), "liang_dao")
    hands_raw = _given(data, "hands", [])
    if not isinstance(hands_raw, (list, tuple)) or len(hands_raw) not in (0, 3):
        raise _error(gettext_noop("hands must list the three players' tiles at the drawn hand, in the order of players."), "hands")
    horses = None if data.get("horses") is None else _tiles(data["horses"], "horses", 6)
    wall_left = None if data.get("wall_left") is None else _int(data["wall_left"], "wall_left", gettext_noop("wall_left must be a whole number from 0 to %(limit)d."), limit=WALL_TILES)
    dice_raw = data.get("dice")
    if dice_raw is not None and (not isinstance(dice_raw, (list, tuple)) or len(dice_raw) != 2):
        raise _error(gettext_noop("The dice must be two numbers from 1 to 6."), "dice")
    dice = None if dice_raw is None else tuple(_int(d, "dice", gettext_noop("The dice must be two numbers from 1 to 6.")) for d in dice_raw)
    winners_raw = _given(data, "winners", [])
    if not isinstance(winners_raw, (list, tuple)) or len(winners_raw) > 2:
        raise _error(gettext_noop("The winners must be a list of at most two."), "winners")
    discarder = data.get("discarder")
    return HandInput(
        players=players,
        base=base,
        piao=(piao[0], piao[1], piao[2]),
        rules=data.get("rules", "standard"),
        options=tuple(options.items()),
        kongs=tuple(_kong(item, i, players) for i, item in enumerate(kongs_raw, start=1)),
        liang_dao=tuple(_player(p, players, "liang_dao") for p in liang_raw),
        result=data.get("result", "draw"),
        discarder=None if discarder in (None, "") else _player(discarder, players, "discarder"),
        winners=tuple(_winner(item, players) for item in winners_raw),
        horses=horses,
        wall_left=wall_left,
        dice=(dice[0], dice[1]) if dice is not None else None,
        hands=tuple(_drawn_hand(item, seat, players) for seat, item in enumerate(hands_raw)),
    )


def settle_json(data: Any) -> Settlement:
    """Parse the JSON form of a hand and settle it (raises EngineError)."""
    return settle(parse_input(data))

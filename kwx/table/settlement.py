"""Settlement of one hand (结算, kwx-rules §6): who pays whom, how much and why.

Amounts are whole multiples of the base stake (底金). Every payment carries its
reasons as data (a key and the numbers behind it); the web layer turns them into
words. Players are indices 0, 1, 2 into ``HandInput.players``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Literal

from kwx.errors import EngineError, gettext_noop
from kwx.hand.analysis import MAX_TEXT, build_hand
from kwx.hand.notation import parse_tile
from kwx.hand.rules import Rules, make_rules
from kwx.hand.scoring import WinValue, score_win
from kwx.hand.tiles import COPIES, NUM_KINDS, TILE_IDS, TILE_NAMES_ZH, Hand, MeldType
from kwx.numbers import read_whole

PLAYERS = (0, 1, 2)
PIAO_CHOICES = (0, 1, 2, 5)
MAX_BASE = 10_000
MAX_NAME = 20
KONG_MONEY: Mapping[str, int] = MappingProxyType({"an_gang": 2, "ming_gang": 1, "zhi_gang": 2})
"""Kong money (喜钱) per paying player: 暗杠 2 from each other, 明杠(蓄杠) 1 from each other, 直杠 2 from the feeder."""
KONG_TYPES = tuple(KONG_MONEY)
RESULTS = ("draw", "self_draw", "discard", "rob_kong")
"""荒庄, 自摸, 点炮 (two winners: 一炮双响), 抢杠胡 (``discarder`` = the player robbed)."""
USER_SITUATIONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "draw": (),
        "self_draw": ("gang_shang_kai_hua", "hai_di_lao"),
        "discard": ("gang_shang_pao",),
        "rob_kong": (),
    }
)
"""Situational fans the user sets per result; 亮倒 and 抢杠胡 follow from the input by themselves."""
USER_SITUATION_KEYS: frozenset[str] = frozenset(k for keys in USER_SITUATIONS.values() for k in keys)
"""Every situational fan a user may set on some result (the others follow from the input)."""
WIN_PARTS: Mapping[str, int] = MappingProxyType({"self_draw": 1, "discard": 1, "qiang_gang_hu": 1, "bao_hu": 2})
"""The part of a win payment by how it was won, and how many times the win's value V it pays (包胡: 2·V, §6)."""
_INPUT_KEYS = frozenset({"players", "base", "piao", "rules", "options", "kongs", "liang_dao", "result", "discarder", "winners"})


@dataclass(frozen=True, slots=True)
class Kong:
    """A kong made this hand; ``chain`` is its place in a 杠上杠 chain (1 = first or alone)."""

    seat: int
    type: str
    kind: int
    fed_by: int | None = None
    chain: int = 1

    @property
    def multiplier(self) -> int:
        """×1 for the first kong of a chain, ×2 for the next, ×4 after that …"""
        return int(2 ** (self.chain - 1))


@dataclass(frozen=True, slots=True)
class Winner:
    """A winner as the calculator is told of one: the seat, the 13-tile hand (melds included), the winning kind, the fans the user set."""

    seat: int
    hand: Hand
    kind: int
    situation: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class HandInput:
    """Everything that decides one hand's payments."""

    players: tuple[str, str, str]
    base: int = 1
    piao: tuple[int, int, int] = (0, 0, 0)
    rules: str = "standard"
    options: tuple[tuple[str, bool], ...] = ()
    kongs: tuple[Kong, ...] = ()
    liang_dao: frozenset[int] = frozenset()
    result: str = "draw"
    discarder: int | None = None
    winners: tuple[Winner, ...] = ()


@dataclass(frozen=True, slots=True)
class Part:
    """One reason inside a payment: a key (``self_draw``, ``piao``, ``an_gang`` …), its amount and numbers."""

    key: str
    amount: int
    numbers: tuple[tuple[str, int], ...] = ()

    def number(self, name: str) -> int:
        """One of the numbers behind the part (KeyError if absent)."""
        return dict(self.numbers)[name]


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` (the sum of the parts)."""

    payer: int
    payee: int
    amount: int
    parts: tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class Win:
    """A valued win, made at the table or settled from a Winner: the seat, the winning kind, the 13 tiles before it,
    the side (自摸 or 点炮), every situational fan it carries (亮倒 and 抢杠胡 included) and its value."""

    seat: int
    kind: int
    hand: Hand
    side: Literal["self_draw", "discard"]
    situation: frozenset[str]
    value: WinValue

    def amount(self, base: int) -> int:
        """V, the win value in money."""
        return base * self.value.total


@dataclass(frozen=True, slots=True)
class Settlement:
    """The payments of one hand and each player's net (they always sum to zero)."""

    input: HandInput
    wins: tuple[Win, ...]
    payments: tuple[Payment, ...]
    nets: tuple[int, int, int]
    next_dealer_rule: str


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


def _check_winner_tiles(inp: HandInput) -> None:
    """Each winner's kong melds match the kong list; no kind has more than four copies in all."""
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
        hand_kongs = {m.kind: m.type for m in w.hand.melds if m.type is not MeldType.PONG}
        listed = {k.kind: k for k in inp.kongs if k.seat == w.seat}
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
    total = [0] * NUM_KINDS
    for w in inp.winners:
        for kind, n in enumerate(w.hand.held):
            total[kind] += n
    if inp.winners:
        win = inp.winners[0].kind
        total[win] += 1
        if inp.result == "rob_kong":
            total[win] += 3
    winners = {w.seat for w in inp.winners}
    for kong in inp.kongs:
        if kong.seat not in winners:
            total[kong.kind] += COPIES
    for kind, n in enumerate(total):
        if n > COPIES:
            raise _error(
                gettext_noop("%(tile)s (%(name)s): the winners' hands, the winning tile, the kongs (and a robbed pong) need %(count)d copies; there are only 4."),
                "kongs" if inp.kongs else "winners",
                tile=TILE_IDS[kind],
                name=TILE_NAMES_ZH[kind],
                count=n,
            )


def _value(inp: HandInput, w: Winner) -> Win:
    """Value one winner's hand with the engine, refusing what is not a win."""
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
    situation = set(w.situation)
    if w.seat in inp.liang_dao:
        situation.add("liang_dao")
    if inp.result == "rob_kong":
        situation.add("qiang_gang_hu")
    rules = make_rules(inp.rules, situation, dict(inp.options))
    values = score_win(w.hand, w.kind, rules)
    if values is None:
        raise _error(gettext_noop("%(player)s's hand does not win on %(tile)s."), "winners", player=name, tile=TILE_IDS[w.kind])
    side: Literal["self_draw", "discard"] = "self_draw" if inp.result == "self_draw" else "discard"
    value = values[0] if side == "self_draw" else values[1]
    if not value.allowed:
        if value.reason == "rob_kong_off":
            raise _error(gettext_noop("%(player)s: these rules do not allow robbing a kong (抢杠胡)."), "winners", player=name)
        raise _error(
            gettext_noop("%(player)s: a win worth ×1 (屁胡) cannot be taken on a discard, only by self-draw."),
            "winners",
            player=name,
        )
    return Win(w.seat, w.kind, w.hand, side, frozenset(situation), value)


def _win_payment(payer: int, winner: int, key: str, total: int, base: int, piao: tuple[int, int]) -> Payment:
    """One payer's payment for a win worth ×``total``: V (2·V for 包胡), then both players' 漂 (winner's, payer's)."""
    numbers = (("multiplier", total), ("base", base))
    parts = [Part(key, WIN_PARTS[key] * base * total, numbers)]
    if sum(piao):
        parts.append(Part("piao", sum(piao) * base, (("winner", piao[0]), ("payer", piao[1]), ("base", base))))
    return Payment(payer, winner, sum(p.amount for p in parts), tuple(parts))


def _win_payments(inp: HandInput, win: Win) -> list[Payment]:
    """The win payments of one winner, 漂 included."""
    winner = win.seat
    if inp.result == "self_draw":
        payers, key = [p for p in PLAYERS if p != winner], "self_draw"
    else:
        assert inp.discarder is not None
        payers = [inp.discarder]
        key = "bao_hu" if winner in inp.liang_dao else "qiang_gang_hu" if inp.result == "rob_kong" else "discard"
    return [_win_payment(payer, winner, key, win.value.total, inp.base, (inp.piao[winner], inp.piao[payer])) for payer in payers]


@dataclass(frozen=True, slots=True)
class WinMoney:
    """What one win collects in all, each way it can happen (None: not allowed that way), and from each payer."""

    self_draw: int | None
    self_draw_each: int | None
    discard: int | None
    bao_hu: int | None


def check_stakes(base: Any, piao: Any) -> tuple[int, int]:
    """A base stake (1 to MAX_BASE) and a 漂 (0, 1, 2 or 5) as whole numbers (raises EngineError)."""
    if isinstance(base, bool) or not isinstance(base, int) or not 1 <= base <= MAX_BASE:
        raise _error(gettext_noop("The base stake must be a whole number from 1 to %(limit)d."), "base", limit=MAX_BASE)
    if isinstance(piao, bool) or piao not in PIAO_CHOICES:
        raise _error(gettext_noop("漂 must be 0, 1, 2 or 5."), "piao")
    return base, piao


def win_money(hand: Hand, tile: int, rules: Rules, base: int = 1, piao: int = 0) -> WinMoney | None:
    """What winning ``hand`` (13 tiles) on ``tile`` collects at ``base``, every player at 漂 ``piao`` (None: no win).

    自摸: both others pay; 点炮: the discarder pays (包胡 already when 亮倒 is in the situation);
    包胡: the discarder pays for the hand declared 亮倒. The payments are settle()'s own.
    """
    check_stakes(base, piao)
    values = score_win(hand, tile, rules)
    if values is None:
        return None
    self_draw, discard = values
    declared = rules if "liang_dao" in rules.situation else replace(rules, situation=rules.situation | {"liang_dao"})
    bao_hu = (score_win(hand, tile, declared) or values)[1]
    stakes = (piao, piao)

    def paid(value: WinValue, key: str) -> int | None:
        return _win_payment(1, 0, key, value.total, base, stakes).amount if value.allowed else None

    each = paid(self_draw, "self_draw")
    return WinMoney(
        self_draw=None if each is None else each * (len(PLAYERS) - 1),
        self_draw_each=each,
        discard=paid(discard, "bao_hu" if declared is rules else "discard"),
        bao_hu=paid(bao_hu, "bao_hu"),
    )


def _kong_payments(inp: HandInput) -> list[Payment]:
    """Kong money (喜钱), paid whatever the result; 杠上杠 doubles the later kongs of a chain."""
    out: list[Payment] = []
    for kong in inp.kongs:
        money = KONG_MONEY[kong.type]
        amount = money * kong.multiplier * inp.base
        part = Part(kong.type, amount, (("money", money), ("chain", kong.multiplier), ("base", inp.base), ("tile", kong.kind)))
        payers = [kong.fed_by] if kong.fed_by is not None else [p for p in PLAYERS if p != kong.seat]
        out.extend(Payment(payer, kong.seat, amount, (part,)) for payer in payers)
    return out


def _draw_payments(inp: HandInput) -> list[Payment]:
    """荒庄: each 亮倒 declarer pays each player who did not declare 1 (×base)."""
    part = Part("huang_zhuang", inp.base, (("base", inp.base),))
    return [Payment(payer, payee, inp.base, (part,)) for payer in sorted(inp.liang_dao) for payee in PLAYERS if payee not in inp.liang_dao]


def settle(inp: HandInput) -> Settlement:
    """Check one hand and compute its payments and nets (raises EngineError)."""
    _check_basics(inp)
    _check_kongs(inp)
    _check_winner_tiles(inp)
    wins = tuple(_value(inp, w) for w in inp.winners)
    payments: list[Payment] = []
    for win in wins:
        payments.extend(_win_payments(inp, win))
    if inp.result == "draw":
        payments.extend(_draw_payments(inp))
    payments.extend(_kong_payments(inp))
    nets = [0, 0, 0]
    for p in payments:
        nets[p.payer] -= p.amount
        nets[p.payee] += p.amount
    rule = "draw" if inp.result == "draw" else "double" if len(wins) == 2 else "winner"
    return Settlement(inp, wins, tuple(payments), (nets[0], nets[1], nets[2]), rule)


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
    who = _player(item.get("who"), players, "kongs", gettext_noop("Kong %(number)d: choose who made it (%(names)s)."), number=number)
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
    return Kong(who, kong_type, kind, fed_by, max(chain, 0))


def _winner(item: Any, players: tuple[str, ...]) -> Winner:
    if not isinstance(item, Mapping):
        raise _error(gettext_noop("Each winner must be an object with player, hand and tile."), "winners")
    player = _player(item.get("player"), players, "winners", gettext_noop("Choose the winner: %(names)s."))
    try:
        hand, _ = build_hand(_text(item.get("hand"), "winners"), _given(item, "melds", ()), check_size=False)  # 13 tiles: checked by name
        tile = parse_tile(_text(item.get("tile"), "winners"), "winners")
    except EngineError as exc:
        raise WinnerInputError(players[player], exc) from exc
    situation = _given(item, "situation", [])
    if not isinstance(situation, (list, tuple)) or not all(isinstance(s, str) for s in situation):
        raise _error(gettext_noop("The situation must be a list of situational fan keys."), "winners")
    return Winner(player, hand, tile, frozenset(situation))


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
    options = _given(data, "options", {})
    if not isinstance(options, Mapping):
        raise _error(gettext_noop("The options must be an object of true/false switches."), "options")
    make_rules(data.get("rules", "standard"), (), options)
    kongs_raw = _given(data, "kongs", [])
    if not isinstance(kongs_raw, (list, tuple)) or len(kongs_raw) > 12:
        raise _error(gettext_noop("The kongs must be a list (at most 12)."), "kongs")
    liang_raw = _given(data, "liang_dao", [])
    if not isinstance(liang_raw, (list, tuple)):
        raise _error(gettext_noop("亮倒 must be a list of players."), "liang_dao")
    winners_raw = _given(data, "winners", [])
    if not isinstance(winners_raw, (list, tuple)) or len(winners_raw) > 2:
        raise _error(gettext_noop("The winners must be a list of at most two."), "winners")
    discarder = data.get("discarder")
    return HandInput(
        players=players,
        base=base,
        piao=(piao[0], piao[1], piao[2]),
        rules=data.get("rules", "standard"),
        options=tuple(sorted(options.items())),
        kongs=tuple(_kong(item, i, players) for i, item in enumerate(kongs_raw, start=1)),
        liang_dao=frozenset(_player(p, players, "liang_dao") for p in liang_raw),
        result=data.get("result", "draw"),
        discarder=None if discarder in (None, "") else _player(discarder, players, "discarder"),
        winners=tuple(_winner(item, players) for item in winners_raw),
    )


def settle_json(data: Any) -> Settlement:
    """Parse the JSON form of a hand and settle it (raises EngineError)."""
    return settle(parse_input(data))

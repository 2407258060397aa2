"""Beyond one draw: ready chance, win chance and expected score of every discard.

The model (every assumption is in ``ASSUMPTIONS``, shown on the help page): the
player has ``draws_left`` own draws; before each of them the two opponents each
discard once, and the last own draw is the last tile of the wall (海底捞).
Own draws come uniformly from the tiles not visible to the player, without
replacement. Each opponent turn throws a given unseen copy of a winning tile with
probability ``opponent_discard_rate / unseen``. The player never breaks a ready
hand, takes every win at once, and after a draw that lowers the shanten keeps
the best of the discards that keep it lowered; a draw that does not help is
thrown back. An exact dynamic programme over hand states (memoised on the
13-tile hand, all draw counts at once) gives the figures; hands deeper than
``EXACT_MAX_SHANTEN`` are sampled (Monte Carlo, seeded, with standard errors).
A ``Budget`` bounds the work of one request: what the exact programme cannot finish
within its share is sampled instead, and the result says what precision it got.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from kwx.errors import EngineError, gettext_noop
from kwx.hand.efficiency import DiscardOption, best_discards, discard_options, improving_draws, remaining
from kwx.hand.estimate import Estimate
from kwx.hand.rules import Rules
from kwx.hand.scoring import score_win
from kwx.hand.tiles import COPIES, NUM_KINDS, Counts, Hand, add

Outlook = tuple[float, float, float]
"""(ready probability, win probability, expected score) of one state."""

DEFAULT_DISCARD_RATE = 0.5
"""Opponent turns throw a winning copy half as often as a random unseen tile would be drawn."""
DEFAULT_LIANG_DAO_DISCARD_RATE = 0.0
"""After 亮倒 the opponents see the waits and are assumed never to throw them."""
EXACT_MAX_SHANTEN = 3
"""Options at most this many tiles from ready are computed exactly; deeper ones are sampled."""
DEFAULT_SAMPLES = 1000
MAX_DRAWS = 30
MIN_SAMPLES = 20
"""Hands a sampled estimate plays even when the work budget is spent, so it has a standard error."""
REQUEST_WORK = 30_000
"""Work units one web or API request may spend (calibrated by ``bench.ev --budget``)."""
REQUEST_SECONDS = 0.35
"""CPU seconds after which a request stops computing whatever the work count (a backstop); a request that
computes expected values and a table estimate shares one budget between them."""
EXACT_SHARE = 0.6
"""The share of a budget the exact programme may use before its unfinished starts are sampled."""
WaitRow = tuple[int, float, float, float, int]
"""(kind, self-draw points, self-draw points on the last tile, discard points or -1, §4 value per copy)."""
_ZERO: Outlook = (0.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Assumption:
    """One assumption of the model, for the help page linked from the results (zh and en)."""

    key: str
    title: str
    title_en: str
    text: str
    text_en: str


ASSUMPTIONS: tuple[Assumption, ...] = (
    Assumption(
        "draws",
        "摸牌次数",
        "Draws",
        "“剩余摸牌”是你自己还能摸几次牌（约为牌墙剩余张数 ÷ 3）。每次摸牌之前，另外两家各出一张牌；你的最后一次摸牌就是牌墙最后一张，自摸它算海底捞。0 次表示这张牌打出后本局结束。",
        "“Draws left” counts your own draws still to come (about the tiles left in the wall ÷ 3). Before each of them both opponents discard once; your last draw is the last tile of the wall, so a self-draw on it scores 海底捞. With 0 draws the hand ends after this discard.",
    ),
    Assumption(
        "unseen",
        "未见的牌",
        "Unseen tiles",
        "每种牌未见的张数 = 4 − 你手里和副露的张数 − 你标记为可见的张数（亮倒者的牌也算可见）。你摸到的牌均匀地来自这些未见的牌，不放回：对手的牌和牌墙一视同仁，对手打出的非和牌不单独追踪。",
        "Unseen copies of a kind = 4 − copies in your hand and melds − copies you marked visible (a revealed hand counts as visible). Your draws come uniformly from the unseen tiles without replacement; opponents' hands and the wall are treated alike, and opponents' other discards are not tracked tile by tile.",
    ),
    Assumption(
        "discards",
        "对手放炮的机会",
        "Chance of a discard win",
        f"听牌后，对手每出一张牌，你每一张未见的和牌被打出的机会是 r ÷ 未见张数，r 默认 {DEFAULT_DISCARD_RATE}：r = 1 表示对手出牌跟随机的一张未见牌一样（规则 §4 的估值即此假设），r = 0 表示只能自摸。默认取一半，因为对手会留用有用的牌、也会防守。亮倒之后对手看得见你的和牌，默认 r = {DEFAULT_LIANG_DAO_DISCARD_RATE}。屁胡不能点炮和。",
        f"Once you are ready, each opponent discard throws a given unseen copy of one of your winning tiles with chance r ÷ unseen tiles, r = {DEFAULT_DISCARD_RATE} by default: r = 1 means opponents throw tiles like random unseen ones (the assumption behind the §4 value), r = 0 means self-draw only. Half is a judgement: opponents keep useful tiles and defend. After 亮倒 they can see your waits, so r = {DEFAULT_LIANG_DAO_DISCARD_RATE} by default. A 屁胡 cannot win on a discard.",
    ),
    Assumption(
        "score",
        "期望得分",
        "Expected score",
        "期望得分是若无人先和时你收到的底金倍数的期望：自摸时两家各付 V，点炮和时放炮者一人付 V，V 是实际和牌的最大番数（取最好的拆法，按所选规则封顶，最后一摸自摸加海底捞）。亮倒后 V 含亮倒 ×2，别人点炮要付 2V（包胡）。它假定对手不会先和：没有计入别人先和、你点炮要付的钱、杠钱和漂，所以不是这一局的净输赢。",
        "The expected score is the expected number of base stakes you receive if nobody else wins: a self-draw is paid V by each of the two others, a discard win V by the discarder alone, V being the value of the actual winning hand (its best reading, capped by the chosen rules, with 海底捞 on the last draw). After 亮倒, V includes the ×2 of 亮倒 and a discard win is paid 2V (包胡). It assumes the opponents never win first: their wins, what you would pay for dealing in, kong money and 漂 are not counted, so it is not the hand's net result.",
    ),
    Assumption(
        "play",
        "你的打法",
        "How you play",
        "每次摸牌后：摸到能减少向听数的牌就留下，并在保持新向听数的打法里选期望得分最高的（再比和牌率、听牌率）；摸到没用的牌就打掉。不考虑换牌改型（手变）、不考虑退向听，也不碰不杠；听牌后不再改听，一有和牌就和（不存在漏胡）。因此，退向听的打法排在所有不退的打法之后，它们的数字只作参考。",
        "After each draw: a tile that lowers the shanten is kept and you throw the discard, among those keeping the new shanten, with the highest expected score (then win chance, then ready chance); any other tile is thrown back. Swapping tiles to improve a shape at the same shanten (手变), stepping back a shanten, pong and kong are not considered; a ready hand is kept as it is and every win is taken at once (so 漏胡 never arises). For this reason a discard that steps back a shanten is ranked after every discard that does not; its figures are for reference.",
    ),
    Assumption(
        "liang_dao",
        "亮倒",
        "亮倒",
        "若选择“听牌即亮倒”，一听牌就亮倒：之后手牌锁定，和牌都 ×2，对手点炮的机会按亮倒后的 r 计算。",
        "With “declare 亮倒 when ready”, you declare as soon as you are ready: the hand is locked, every win is ×2, and opponents' discards follow the after-亮倒 rate r.",
    ),
    Assumption(
        "danger",
        "包胡危险",
        "Dealing in to a revealed hand",
        "对手已亮倒并输入其手牌时，凡能让他和的牌都标为危险：打出它就是包胡（你一人付 2V）。亮倒的和牌至少 ×2，从不是屁胡，所以每一张和牌都算。危险的打法排在所有安全打法之后，绝不推荐；之后各巡摸到的危险牌不在模型之内。",
        "When an opponent has declared 亮倒 and their tiles are entered, every tile that lets them win is marked: discarding it is 包胡 (you alone pay 2V). A 亮倒 win is at least ×2, never a 屁胡, so every winning tile counts. Such discards are ranked after every safe one and never advised; dangerous tiles drawn later are outside the model.",
    ),
    Assumption(
        "method",
        "计算方法",
        "Method",
        f"离听牌不超过 {EXACT_MAX_SHANTEN} 向听时精确计算：对所有摸牌结果做动态规划（不抽样）。更远的手牌用蒙特卡洛模拟（固定种子，默认 {DEFAULT_SAMPLES} 局，按普通排序打牌：先向听数，再听牌价值（§4 的 value），再进张），同时给出样本数和标准误差。每次请求的计算量有上限：算不完的精确结果改用抽样，抽样局数也可能少于默认，结果会注明是近似值。",
        f"Up to {EXACT_MAX_SHANTEN} tiles from ready the figures are exact: a dynamic programme over every draw (no sampling). Further hands are played out by Monte Carlo (fixed seed, {DEFAULT_SAMPLES} hands by default, played by the plain ranking: shanten, then the §4 value when ready, then effective tiles), and the sample count and standard errors are shown. Each request has a work limit: an exact figure it cannot finish is sampled instead and samples may be fewer than the default; the result then says it is approximate.",
    ),
)
"""The help page for the EV columns: every assumption of the model, in Chinese and English."""


@dataclass(frozen=True, slots=True)
class EVParams:
    """The model's knobs: own draws left, 亮倒 when ready, opponents' discard rates, sampling."""

    draws_left: int
    liang_dao: bool = False
    opponent_discard_rate: float = DEFAULT_DISCARD_RATE
    liang_dao_discard_rate: float = DEFAULT_LIANG_DAO_DISCARD_RATE
    samples: int = DEFAULT_SAMPLES
    seed: int = 9
    exact_max_shanten: int = EXACT_MAX_SHANTEN


@dataclass(frozen=True, slots=True)
class DiscardEV:
    """One discard of a 14-tile hand with the estimate of the 13 tiles it leaves."""

    discard: int
    estimate: Estimate
    deals_in: bool = False

    @property
    def rank_key(self) -> tuple[bool, int, float, float, float, int]:
        """Sort key, best first: deal-ins last, then shanten, expected score, win and ready chance."""
        e = self.estimate
        return (self.deals_in, e.shanten, -e.expected_score, -e.win_probability, -e.ready_probability, self.discard)


def better_outlook(a: Outlook, b: Outlook) -> bool:
    """Whether ``a`` beats ``b`` for the player: expected score, then win chance, then ready chance."""
    return (a[2], a[1], a[0]) > (b[2], b[1], b[0])


def check_draws(draws_left: object, low: int = 0) -> int:
    """A number of own draws from ``low`` to ``MAX_DRAWS`` (raises EngineError otherwise)."""
    if isinstance(draws_left, bool) or not isinstance(draws_left, int) or not low <= draws_left <= MAX_DRAWS:
        raise EngineError(
            gettext_noop("draws_left must be a whole number from %(low)d to %(limit)d (your own draws still to come)."),
            "draws_left",
            low=low,
            limit=MAX_DRAWS,
        )
    return draws_left


def check_params(params: EVParams, unseen_total: int) -> None:
    """Refuse draw counts and rates the model cannot use (raises EngineError)."""
    d = check_draws(params.draws_left)
    if d > unseen_total:
        raise EngineError(
            gettext_noop("draws_left is %(draws)d but only %(unseen)d tiles are unseen."),
            "draws_left",
            draws=d,
            unseen=unseen_total,
        )
    if params.samples < 1:
        raise EngineError(gettext_noop("samples must be at least 1."), "samples")
    for rate in (params.opponent_discard_rate, params.liang_dao_discard_rate):
        if not 0.0 <= rate <= 3.0:
            raise EngineError(gettext_noop("The opponents' discard rate must be between 0 and 3."), "opponent_discard_rate")


class _OutOfBudget(Exception):
    """The exact programme passed its share of the work budget (caught by ``_Evaluator``)."""


class Budget:
    """The work one request may do: deterministic work units, with a CPU-time backstop.

    Work units count what the programme computes (a new hand's shanten and improving
    kinds, a wait scored, a step of the recursion, a sampled hand), so the same request
    gets the same answer; ``seconds`` of CPU time (``time.process_time``) stop it on a
    machine much slower than the one the units were calibrated on. ``cut`` says whether
    anything was worked out with less precision than planned. Mutable: one per request.
    """

    __slots__ = ("limit", "used", "seconds", "cut", "timed_out", "_deadline", "_checks", "_clock")

    def __init__(self, work: int = REQUEST_WORK, seconds: float | None = REQUEST_SECONDS, clock: Callable[[], float] = time.process_time) -> None:
        self.limit = work
        self.used = 0
        self.seconds = seconds
        self.cut = False
        self.timed_out = False
        self._clock = clock
        self._deadline = clock() + seconds if seconds is not None else None
        self._checks = 0

    def spend(self, units: int) -> None:
        """Count ``units`` of work done."""
        self.used += units

    def out_of_time(self) -> bool:
        """Whether the CPU time has run out, looked at now (the advice checks it before every rollout)."""
        if not self.timed_out and self._deadline is not None and self._clock() > self._deadline:
            self.timed_out = True
        return self.timed_out

    def exceeded(self, stop: int) -> bool:
        """Whether the work passed ``stop`` (a share of the limit) or the CPU time ran out (looked at every 32nd call)."""
        if self.used > stop or self.timed_out:
            return True
        self._checks += 1
        if self._deadline is not None and self._checks % 32 == 0 and self._clock() > self._deadline:
            self.timed_out = True
        return self.timed_out


class _Model:
    """The shared pieces of the exact and the sampled evaluation of one position."""

    def __init__(self, base: Hand, visible: Counts, rules: Rules, params: EVParams, budget: Budget | None = None) -> None:
        self.budget = budget
        self.melds = base.melds
        self.meld_count = len(base.melds)
        held = base.held
        self.meld_held = tuple(h - c for h, c in zip(held, base.concealed))
        self.base = base.concealed
        self.unseen = remaining(add(held, visible))
        self.total = sum(self.unseen)
        self.draws = params.draws_left
        self.params = params
        situation = frozenset({"liang_dao"}) if params.liang_dao else frozenset()
        self.rules = replace(rules, situation=situation)
        self.rules_last = replace(rules, situation=situation | {"hai_di_lao"})
        self.rate = params.liang_dao_discard_rate if params.liang_dao else params.opponent_discard_rate
        self.discard_pay = 2 if params.liang_dao else 1
        self._waits: dict[Counts, tuple[WaitRow, ...]] = {}
        self._status: dict[Counts, tuple[int, tuple[int, ...]]] = {}

    def full(self, counts: Counts) -> tuple[int, ...]:
        """Kinds the player holds all four of (concealed plus melds)."""
        mh = self.meld_held
        return tuple(k for k in range(NUM_KINDS) if counts[k] + mh[k] >= COPIES)

    def status(self, counts: Counts) -> tuple[int, tuple[int, ...]]:
        """Shanten of a 13-tile hand and the kinds whose draw lowers it (memoised per position)."""
        found = self._status.get(counts)
        if found is None:
            self.spend(1)
            found = self._status[counts] = improving_draws(counts, self.meld_count, self.full(counts))
        return found

    def spend(self, units: int) -> None:
        """Charge ``units`` of work to the budget, if there is one."""
        if self.budget is not None:
            self.budget.spend(units)

    def waits(self, counts: Counts, kinds: tuple[int, ...]) -> tuple[WaitRow, ...]:
        """(kind, self-draw points, self-draw points on the last tile, discard points, §4 value per copy) of each wait."""
        found = self._waits.get(counts)
        if found is None:
            self.spend(2 * len(kinds))
            hand = Hand(counts, self.melds)
            rows = []
            for k in kinds:
                values = score_win(hand, k, self.rules)
                last = score_win(hand, k, self.rules_last)
                if values is None or last is None:
                    continue
                own, thrown = values
                rows.append(
                    (
                        k,
                        2.0 * own.total if own.allowed else 0.0,
                        2.0 * last[0].total if last[0].allowed else 0.0,
                        float(self.discard_pay * thrown.total) if thrown.allowed else -1.0,
                        (own.total if own.allowed else 0) + (thrown.total if thrown.allowed else 0),
                    )
                )
            found = self._waits[counts] = tuple(rows)
        return found

    def advances(self, counts: Counts, kind: int, target: int) -> list[Counts]:
        """The 13-tile hands after drawing ``kind`` and discarding so the shanten is ``target``."""
        drawn = list(counts)
        drawn[kind] += 1
        out = []
        for j in range(NUM_KINDS):
            if drawn[j] and j != kind:
                after = drawn.copy()
                after[j] -= 1
                after_t = tuple(after)
                if self.status(after_t)[0] == target:
                    out.append(after_t)
        return out


class ExactModel(_Model):
    """The dynamic programme: each 13-tile hand's outlook for every number of draws left.

    The unseen copies of a kind still undrawn are those at the start less the copies
    kept since the start, and the start is the 13-tile hand the discard leaves (so a
    redrawn copy of the discarded kind is no longer unseen). A state is the hand and
    the kind discarded to reach the start, the latter dropped (-1) once no sequence of
    improving draws can bring that kind's count back to the 14-tile hand's, where its
    outlook no longer depends on the start and all discards share it.
    """

    def __init__(self, base: Hand, visible: Counts, rules: Rules, params: EVParams, budget: Budget | None = None) -> None:
        super().__init__(base, visible, rules, params, budget)
        self.memo: dict[tuple[Counts, int], list[Outlook]] = {}
        self.stop = -1

    def unseen_before(self, d: int) -> int:
        """Unseen tiles just before the own draw made with ``d`` draws left."""
        return self.total - (self.draws - d)

    def pool(self, counts: Counts, kind: int, start: int) -> int:
        """Unseen copies of ``kind`` still undrawn: the start's unseen less the copies kept since the start."""
        return self.unseen[kind] - max(0, counts[kind] - self.base[kind] + (kind == start))

    def value(self, counts: Counts, start: int = -1) -> list[Outlook]:
        """Outlooks of a 13-tile hand just after a discard, indexed by own draws left.

        ``start`` is the kind the 14-tile hand discarded to begin with (-1 for none or a
        13-tile start). Raises ``_OutOfBudget`` when the budget's stop is passed.
        """
        shanten, kinds = self.status(counts)
        if start >= 0 and counts[start] + max(shanten, 0) < self.base[start]:
            start = -1
        key = (counts, start)
        found = self.memo.get(key)
        if found is not None:
            return found
        if self.budget is not None and self.budget.exceeded(self.stop):
            raise _OutOfBudget
        out = self._ready(counts, kinds, start) if shanten <= 0 else self._improving(counts, shanten, kinds, start)
        self.memo[key] = out
        return out

    def _ready(self, counts: Counts, kinds: tuple[int, ...], start: int) -> list[Outlook]:
        rows = [(self.pool(counts, k, start), own, last, thrown) for k, own, last, thrown, _ in self.waits(counts, kinds)]
        copies = sum(p for p, *_ in rows)
        thrown_copies = sum(p for p, _, _, t in rows if t >= 0)
        thrown_points = sum(p * t for p, _, _, t in rows if t > 0)
        own_points = sum(p * o for p, o, _, _ in rows)
        last_points = sum(p * last for p, _, last, _ in rows)
        self.spend(self.draws // 8 + 1)
        out: list[Outlook] = [(1.0, 0.0, 0.0)]
        for d in range(1, self.draws + 1):
            n = max(self.unseen_before(d), copies)
            a = self.rate * thrown_copies / n
            ea = self.rate * thrown_points / n
            if a > 1.0:
                a, ea = 1.0, ea / a
            b = copies / n
            eb = (last_points if d == 1 else own_points) / n
            _, win, score = out[d - 1]
            miss = 1.0 - a
            out.append(
                (
                    1.0,
                    a + miss * (a + miss * (b + (1.0 - b) * win)),
                    ea + miss * (ea + miss * (eb + (1.0 - b) * score)),
                )
            )
        return out

    def _improving(self, counts: Counts, shanten: int, kinds: tuple[int, ...], start: int) -> list[Outlook]:
        branches: list[tuple[int, list[list[Outlook]]]] = []
        for k in kinds:
            copies = self.pool(counts, k, start)
            if copies > 0:
                branches.append((copies, [self.value(h, start) for h in self.advances(counts, k, shanten - 1)]))
        mass = sum(c for c, _ in branches)
        self.spend(self.draws * sum(len(s) for _, s in branches) // 16 + 1)
        out: list[Outlook] = [_ZERO]
        for d in range(1, self.draws + 1):
            n = max(self.unseen_before(d), mass)
            stay = 1.0 - mass / n
            r0, w0, s0 = out[d - 1]
            ready, win, score = stay * r0, stay * w0, stay * s0
            for copies, successors in branches:
                best = successors[0][d - 1]
                for succ in successors[1:]:
                    if better_outlook(succ[d - 1], best):
                        best = succ[d - 1]
                p = copies / n
                ready += p * best[0]
                win += p * best[1]
                score += p * best[2]
            out.append((ready, win, score))
        return out


class SampledModel(_Model):
    """The Monte Carlo fallback: whole hands played out with the plain ranking as the policy."""

    def _plain_key(self, after: Counts, shanten: int, drawn: list[int]) -> tuple[int, int]:
        """The plain ranking's figures for a hand: (§4 value when ready, effective copies), by the copies left."""
        _, kinds = self.status(after)
        left = self.unseen
        ukeire = sum(left[k] - drawn[k] for k in kinds)
        if shanten == 0:
            return sum((left[k] - drawn[k]) * plain for k, _, _, _, plain in self.waits(after, kinds)), ukeire
        return 0, ukeire

    def _choice(self, counts: Counts, kind: int, target: int, drawn: list[int]) -> Counts:
        """The plain-ranking discard after a draw of ``kind`` that lowers the shanten to ``target``."""
        self.spend(2)
        return max(self.advances(counts, kind, target), key=lambda after: self._plain_key(after, target, drawn))

    def play(self, start: Counts, rng: random.Random) -> tuple[int, int, float]:
        """One hand played out: (reached ready, won, points)."""
        self.spend(self.draws // 4 + 1)
        wall = [k for k in range(NUM_KINDS) for _ in range(self.unseen[k])]
        rng.shuffle(wall)
        counts = start
        drawn_so_far = [0] * NUM_KINDS
        ready = 0
        for i in range(self.draws):
            shanten, kinds = self.status(counts)
            if shanten <= 0:
                ready = 1
                rows = self.waits(counts, kinds)
                n = self.total - i
                for _turn in range(2):
                    x = rng.random() * n
                    for k, _, _, thrown, _ in rows:
                        if thrown < 0:
                            continue
                        x -= self.rate * (self.unseen[k] - drawn_so_far[k])
                        if x < 0:
                            return 1, 1, thrown
            tile = wall[i]
            drawn_so_far[tile] += 1
            if shanten <= 0:
                for k, own, last, _, _ in self.waits(counts, kinds):
                    if k == tile:
                        return 1, 1, last if i == self.draws - 1 else own
            elif tile in kinds:
                counts = self._choice(counts, tile, shanten - 1, drawn_so_far)
        return (1 if ready or self.status(counts)[0] <= 0 else 0), 0, 0.0

    def estimate(self, start: Counts, shanten: int, stop: int | None = None) -> Estimate:
        """Mean and standard error of the three figures over ``params.samples`` seeded hands.

        With a budget, sampling ends early once its work passes ``stop`` (after at least
        ``MIN_SAMPLES`` hands); the estimate reports the hands actually played.
        """
        rng = random.Random(self.params.seed)
        budget = self.budget
        ready = wins = m = 0
        total = total_sq = 0.0
        while m < self.params.samples:
            if budget is not None and m >= MIN_SAMPLES and stop is not None and budget.exceeded(stop):
                break
            r, w, s = self.play(start, rng)
            m += 1
            ready += r
            wins += w
            total += s
            total_sq += s * s
        mean = total / m
        var = max(0.0, total_sq / m - mean * mean) * m / max(1, m - 1)
        pr, pw = ready / m, wins / m
        return Estimate(
            shanten,
            pr,
            pw,
            mean,
            "monte_carlo",
            m,
            math.sqrt(pr * (1 - pr) / m),
            math.sqrt(pw * (1 - pw) / m),
            math.sqrt(var / m),
        )


def _check_size(hand: Hand, size: int) -> None:
    if hand.tile_count != size:
        raise EngineError(
            gettext_noop("The hand has %(count)d tiles (each meld counts 3); this needs %(size)d."),
            "hand",
            count=hand.tile_count,
            size=size,
        )


class _Evaluator:
    """The exact programme and the sampler of one position, sharing their memo across discards.

    Without a budget every figure is worked out as planned: exact up to
    ``exact_max_shanten``, else ``samples`` hands. With one, the starts are taken
    cheapest first (fewest shanten); the exact programme may use ``EXACT_SHARE`` of the
    work, a start it cannot finish in that is sampled instead, and the sampled starts
    share what is left, each playing at least ``MIN_SAMPLES`` hands.
    """

    def __init__(self, hand: Hand, visible: Counts, rules: Rules, params: EVParams, size: int, budget: Budget | None = None) -> None:
        _check_size(hand, size)
        self.budget = budget
        self.exact = ExactModel(hand, visible, rules, params, budget)
        check_params(params, self.exact.total)
        self.sampler = SampledModel(hand, visible, rules, params, budget)
        self.sampler._status = self.exact._status
        self.sampler._waits = self.exact._waits

    def estimates(self, starts: list[tuple[Counts, int]]) -> list[Estimate]:
        """The estimate of each (13-tile start, kind discarded to reach it or -1), in the given order."""
        exact, budget = self.exact, self.budget
        shantens = [exact.status(counts)[0] for counts, _ in starts]
        order = sorted(range(len(starts)), key=lambda i: shantens[i])
        found: dict[int, Estimate] = {}
        exact.stop = int(budget.limit * EXACT_SHARE) if budget is not None else -1
        sampled = []
        for i in order:
            counts, start = starts[i]
            if shantens[i] > exact.params.exact_max_shanten:
                sampled.append(i)
                continue
            try:
                ready, win, score = exact.value(counts, start)[exact.draws]
            except _OutOfBudget:
                sampled.append(i)
                if budget is not None:
                    budget.cut = True
                continue
            found[i] = Estimate(shantens[i], ready, win, score)
        for n, i in enumerate(sampled):
            stop = None
            if budget is not None:
                stop = budget.used + (budget.limit - budget.used) // (len(sampled) - n)
            found[i] = estimate = self.sampler.estimate(starts[i][0], shantens[i], stop)
            if budget is not None and (estimate.samples or 0) < exact.params.samples:
                budget.cut = True
        return [found[i] for i in range(len(starts))]


def evaluate_discards(
    hand: Hand,
    visible: Counts,
    rules: Rules,
    draws_left: int,
    *,
    liang_dao: bool = False,
    opponent_discard_rate: float = DEFAULT_DISCARD_RATE,
    liang_dao_discard_rate: float = DEFAULT_LIANG_DAO_DISCARD_RATE,
    danger: frozenset[int] = frozenset(),
    samples: int = DEFAULT_SAMPLES,
    seed: int = 9,
    budget: Budget | None = None,
) -> tuple[DiscardEV, ...]:
    """Every distinct discard of a 14-tile hand with its ready/win chance and expected score, best first."""
    params = EVParams(draws_left, liang_dao, opponent_discard_rate, liang_dao_discard_rate, samples, seed)
    evaluator = _Evaluator(hand, visible, rules, params, 14, budget)
    kinds = [kind for kind in range(NUM_KINDS) if hand.concealed[kind]]
    found = evaluator.estimates([(hand.with_tile(kind, -1).concealed, kind) for kind in kinds])
    options = [DiscardEV(kind, estimate, kind in danger) for kind, estimate in zip(kinds, found)]
    options.sort(key=lambda o: o.rank_key)
    return tuple(options)


def evaluate_hand(hand: Hand, visible: Counts, rules: Rules, params: EVParams, budget: Budget | None = None) -> Estimate:
    """The ready/win chance and expected score of a 13-tile hand just after its discard."""
    return _Evaluator(hand, visible, rules, params, 13, budget).estimates([(hand.concealed, -1)])[0]


def ev_best(options: tuple[DiscardEV, ...], tolerance: float = 1e-9) -> tuple[int, ...]:
    """The discards tied first in the EV ranking (``options`` best first), the one rule the API, page and drills use.

    Tied: the same shanten as the first and an expected score within ``tolerance`` of
    it. None when the first deals in to a revealed hand (every discard does) or is
    worth nothing (no discard is better than another).
    """
    if not options or options[0].deals_in or options[0].estimate.expected_score <= 0:
        return ()
    first = options[0]
    top = first.estimate.expected_score
    return tuple(o.discard for o in options if (o.deals_in, o.estimate.shanten) == (first.deals_in, first.estimate.shanten) and o.estimate.expected_score >= top - tolerance)


@dataclass(frozen=True, slots=True)
class RankingComparison:
    """The EV ranking and the plain (effective tiles) ranking of one 14-tile hand, side by side."""

    ev_options: tuple[DiscardEV, ...]
    plain_options: tuple[DiscardOption, ...]
    ev_best: tuple[int, ...]
    plain_best: tuple[int, ...]

    @property
    def differs(self) -> bool:
        """Whether no EV-best discard is also best by the plain ranking (a 期望值 drill candidate)."""
        return not set(self.ev_best) & set(self.plain_best)


def compare_rankings(hand: Hand, visible: Counts, rules: Rules, draws_left: int, **options: Any) -> RankingComparison:
    """Both rankings of a 14-tile hand (``options`` as for ``evaluate_discards``), for the 期望值 drill."""
    ev_options = evaluate_discards(hand, visible, rules, draws_left, **options)
    plain = discard_options(hand, visible, rules)
    return RankingComparison(ev_options, plain, ev_best(ev_options), best_discards(plain))

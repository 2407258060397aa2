"""What the drill pages and the API read: the next puzzle for a mode, a player's progress, the rating chart, the daily set, the drills' reports.

**The player's town chooses the items** (issue 35 item 7): a player who chose a town gets the
items of their preset wherever a shipped bank holds some of that kind (and theme): 孝感 何切 and
孝感 算番 for 孝感, 通用 ones for 通用. Where none is held (the table drills, 期望值, 何切 under 十堰 …)
they get the legacy banks' items, as a player who never chose does, and the page says under which
rules the item is asked (``town_notice``). Ratings stay per skill: one drill rating and one 算番
rating across every town.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone

from accounts.models import Player
from accounts.selectors import Town, player_town
from kwx import build_hand
from kwx.hand.money import SideMoney, buys_horses, side_money
from kwx.hand.rules import Rules, check_situation
from kwx.hand.scoring import score_win
from kwx.hand.tiles import KIND_OF_ID
from kwx.numbers import seed_of
from kwx.rules import LEGACY_PRESETS, OPTION_BY_KEY, RuleSet, preset
from kwx_site.table import TableShown, table_shown
from play import selectors as play_selectors
from play.models import Hand, ReviewItem

from .generation.themes import THEME_KEYS
from .models import Attempt, DailyDrill, DrillReport, Puzzle, ReviewCard
from .rating import DEFAULT_RATING

WINDOWS = (100, 200, 400, 800, 5000)
"""How far from the player's rating a rated puzzle may be, tried narrowest first."""
POOL = 12
"""Pick at random among this many candidates, so two players don't walk the same path."""
STREAK_START, STREAK_STEP = 1300, 40
"""Streak mode: the n-th puzzle is rated at least STREAK_START + n·STREAK_STEP."""
PROVISIONAL_RD = 110
MODES = ("rated", "theme", "review", "streak", "quiz")


def _served(kind: str, theme: str | None = None) -> QuerySet[Puzzle]:
    """The puzzles of a kind (and theme) that are served (a retired puzzle keeps its attempts but is never posed again)."""
    qs = Puzzle.objects.filter(kind=kind, retired=False)
    return qs.filter(themes__contains=f" {theme} ") if theme else qs


def served_themes() -> frozenset[str]:
    """The themes some served 何切 puzzle is tagged with (a theme whose bank is empty, or all retired, is offered nowhere)."""
    tagged = _served(Puzzle.DISCARD).values_list("themes", flat=True).distinct()
    return frozenset(key for themes in tagged for key in themes.split() if key in THEME_KEYS)


def town_has(*, kind: str, town: Town, theme: str | None = None) -> bool:
    """Whether a shipped bank holds items of this kind (and theme) asked under the town's preset."""
    return _served(kind, theme).filter(rules=town.rules).exists()


def asked_rules(*, kind: str, town: Town, theme: str | None = None) -> tuple[str, ...]:
    """The presets whose items of this kind a player of ``town`` gets: the town's own where a bank has some (``town_has``), else the legacy presets (a town never chosen: the legacy presets too)."""
    if town.chosen and town_has(kind=kind, town=town, theme=theme):
        return (town.rules,)
    return LEGACY_PRESETS


@dataclass(frozen=True)
class TownNotice:
    """What a drill page says when an item is asked under other rules than the player's town: the town, and whether it has items of this kind at all."""

    town: str
    has_bank: bool


def town_notice(*, puzzle: Puzzle, town: Town, english: bool = False) -> TownNotice | None:
    """The notice for a chosen town whose preset the item is not asked under (None when it is, or when no town was chosen)."""
    if not town.chosen or puzzle.rules == town.rules:
        return None
    return TownNotice(town.label(english), town_has(kind=puzzle.kind, town=town))


def _unseen(player: Player | None, kind: str, rules: tuple[str, ...] | None = None) -> QuerySet[Puzzle]:
    qs = _served(kind)
    if rules is not None:
        qs = qs.filter(rules__in=rules)
    if player is not None:
        qs = qs.exclude(pk__in=Attempt.objects.filter(player=player).values("puzzle_id"))
    return qs


def _near(qs: QuerySet[Puzzle], rating: float, rng: random.Random) -> Puzzle | None:
    """A random puzzle among the closest to ``rating``, widening the window until one is found."""
    for window in WINDOWS:
        pks = list(qs.filter(rating__gte=rating - window, rating__lte=rating + window).values_list("pk", flat=True)[:400])
        if pks:
            pks.sort()
            return Puzzle.objects.get(pk=rng.choice(pks))
    return None


def due_count(player: Player | None) -> int:
    """Everything due for review: missed drills and costly decisions of played hands (the one count /drills/ and /progress/ show)."""
    if player is None:
        return 0
    return due_reviews(player).count() + play_selectors.due_items(player).count()


def due_reviews(player: Player | None, now: datetime | None = None) -> QuerySet[ReviewCard]:
    """The player's review cards that are due, soonest first."""
    if player is None:
        return ReviewCard.objects.none()
    return ReviewCard.objects.filter(player=player, due__lte=now or timezone.now(), puzzle__retired=False).order_by("due", "pk")


def next_in_review(player: Player | None, now: datetime | None = None) -> ReviewCard | ReviewItem | None:
    """The review queue's next entry: a missed puzzle's card or a played hand's costly decision, whichever is due sooner (the card on a tie); None when nothing is due."""
    item = play_selectors.first_due(player)
    card = due_reviews(player, now).first()
    if item is not None and (card is None or item.due < card.due):
        return item
    return card


def next_puzzle(
    player: Player | None,
    mode: str = "rated",
    theme: str | None = None,
    rng: random.Random | None = None,
    kind: str | None = None,
    *,
    town: Town | None = None,
) -> Puzzle | None:
    """The next puzzle for a mode: near the player's rating, unseen, of the theme; due; or harder each streak step.

    ``kind`` (a table drill kind: pong, kong, declare, defence) draws rated and streak puzzles of that kind instead of 何切 ones.
    Rated, theme, streak and quiz puzzles are those of the player's town (``town``, else the player's own) where a bank has them
    (``asked_rules``); review brings back any missed puzzle, whatever its rules.
    """
    rng = rng or random.Random()
    if mode == "review":
        card = due_reviews(player).select_related("puzzle").first()
        return card.puzzle if card else None
    town = town if town is not None else player_town(player=player)
    if mode == "quiz":
        rating = player.quiz_rating if player else DEFAULT_RATING
        rules = asked_rules(kind=Puzzle.QUIZ, town=town)
        return _near(_unseen(player, Puzzle.QUIZ, rules), rating, rng) or _near(_served(Puzzle.QUIZ).filter(rules__in=rules), rating, rng)
    rating = player.rating if player else DEFAULT_RATING
    drawn = kind if kind in Puzzle.TABLE_KINDS else Puzzle.DISCARD
    theme = theme if mode == "theme" and theme in THEME_KEYS else None
    rules = asked_rules(kind=drawn, town=town, theme=theme)
    qs = _unseen(player, drawn, rules)
    if theme:
        qs = qs.filter(themes__contains=f" {theme} ")
    if mode == "streak":
        return _streak_step(player, qs, rng)
    return _near(qs, rating, rng) or _near(_served(drawn, theme).filter(rules__in=rules), rating, rng)


def _streak_step(player: Player | None, qs: QuerySet[Puzzle], rng: random.Random) -> Puzzle | None:
    """The next streak puzzle: rated above the run's last one and the step's floor; None once none is harder."""
    run = player.streak if player else 0
    harder = qs.filter(rating__gt=player.streak_floor) if player and run else qs
    pks = list(harder.filter(rating__gte=STREAK_START + STREAK_STEP * run).order_by("rating").values_list("pk", flat=True)[:POOL])
    if pks:
        return Puzzle.objects.get(pk=rng.choice(pks))
    return harder.order_by("-rating").first()


@dataclass
class Tally:
    """Attempts and right answers of one group."""

    attempts: int = 0
    correct: int = 0

    @property
    def accuracy(self) -> int | None:
        """Percent right, or None with no attempts."""
        return round(100 * self.correct / self.attempts) if self.attempts else None

    def add(self, correct: bool) -> None:
        """Count one attempt."""
        self.attempts += 1
        self.correct += int(correct)


@dataclass
class Progress:
    """Everything the progress page and ``/api/v1/progress/`` show."""

    rating: float = DEFAULT_RATING
    deviation: float = 350.0
    quiz_rating: float = DEFAULT_RATING
    quiz_deviation: float = 350.0
    total: Tally = field(default_factory=Tally)
    drills: Tally = field(default_factory=Tally)
    """Every drill kind together (何切 and the table decisions: they move one rating, ``Player.track_of``)."""
    discard: Tally = field(default_factory=Tally)
    """何切 puzzles alone (期望值 ones included), apart from the table drills of ``kinds``."""
    quiz: Tally = field(default_factory=Tally)
    themes: dict[str, Tally] = field(default_factory=dict)
    kinds: dict[str, Tally] = field(default_factory=dict)
    """Attempts of each table drill kind (碰不碰, 杠不杠, 亮不亮, defence)."""
    history: list[tuple[datetime, float]] = field(default_factory=list)
    """The 何切 rating after each rated drill answer (the chart): 何切 puzzles and table drills move the same rating."""
    best_streak: int = 0
    streak: int = 0
    due: int = 0
    scheduled: int = 0
    recent: list[Attempt] = field(default_factory=list)

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain (few rated answers)."""
        return self.deviation > PROVISIONAL_RD

    @property
    def quiz_provisional(self) -> bool:
        """Whether the 算番 rating is still uncertain."""
        return self.quiz_deviation > PROVISIONAL_RD

    def as_json(self) -> dict[str, Any]:
        """The API body."""
        return {
            "attempts": self.total.attempts,
            "correct": self.total.correct,
            "accuracy": self.total.accuracy,
            "rating": {"value": round(self.rating), "deviation": round(self.deviation), "provisional": self.provisional},
            "drills": {"attempts": self.drills.attempts, "accuracy": self.drills.accuracy},
            "discard": {"attempts": self.discard.attempts, "accuracy": self.discard.accuracy},
            "quiz": {
                "attempts": self.quiz.attempts,
                "accuracy": self.quiz.accuracy,
                "rating": {"value": round(self.quiz_rating), "deviation": round(self.quiz_deviation), "provisional": self.quiz_provisional},
            },
            "themes": {k: {"attempts": t.attempts, "accuracy": t.accuracy} for k, t in self.themes.items()},
            "kinds": {k: {"attempts": t.attempts, "accuracy": t.accuracy} for k, t in self.kinds.items()},
            "history": [{"at": at.isoformat(), "rating": round(r)} for at, r in self.history],
            "streak": {"current": self.streak, "best": self.best_streak},
            "due_reviews": self.due,
            "scheduled_reviews": self.scheduled,
        }


def progress(player: Player | None) -> Progress:
    """A player's progress (an empty one for a visitor who has not answered yet)."""
    result = Progress(themes={key: Tally() for key in THEME_KEYS}, kinds={key: Tally() for key in Puzzle.TABLE_KINDS})
    if player is None:
        return result
    result.rating, result.deviation = player.rating, player.rating_deviation
    result.quiz_rating, result.quiz_deviation = player.quiz_rating, player.quiz_rating_deviation
    result.best_streak, result.streak = player.best_streak, player.streak
    result.due = due_count(player)
    result.scheduled = ReviewCard.objects.filter(player=player, puzzle__retired=False).count() + ReviewItem.objects.filter(player=player).count()
    attempts = list(Attempt.objects.filter(player=player).select_related("puzzle").order_by("created", "pk"))
    for a in attempts:
        result.total.add(a.correct)
        (result.quiz if a.puzzle.kind == Puzzle.QUIZ else result.drills).add(a.correct)
        for key in a.puzzle.theme_list:
            if key in result.themes:
                result.themes[key].add(a.correct)
        if a.puzzle.kind in result.kinds:
            result.kinds[a.puzzle.kind].add(a.correct)
        elif a.puzzle.kind == Puzzle.DISCARD:
            result.discard.add(a.correct)
        if a.rated and a.rating_after is not None and a.puzzle.kind in Puzzle.DRILL_KINDS:
            result.history.append((a.created, a.rating_after))
    result.recent = attempts[-10:][::-1]
    return result


CHART_LAST = 100
"""The chart shows the rating after at most this many of the latest rated answers."""


@dataclass(frozen=True)
class ChartPoint:
    """One rated answer on the chart: where it is drawn, its number and the rating after it."""

    x: float
    y: float
    number: int
    rating: int
    anchor: str


@dataclass(frozen=True)
class Chart:
    """An inline SVG line chart of rating over time, computed server-side, sized for a phone.

    The y labels sit in a gutter left of the plot (never under the line); the x axis runs
    along the bottom with the answer numbers; each point can be tapped for its figure.
    """

    width: int
    height: int
    points: str
    low: int
    high: int
    last: tuple[float, float] | None
    gridlines: list[tuple[float, int]]
    left: float = 0
    bottom: float = 0
    right: float = 0
    x_ticks: list[tuple[float, int]] = field(default_factory=list)
    dots: list[ChartPoint] = field(default_factory=list)
    first: int = 0


def _tick_step(count: int) -> int:
    """A round step that puts about four ticks on an axis of ``count`` answers."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if count / step <= 5:
            return step
    return max(1, count // 4)


def rating_chart(history: list[tuple[datetime, float]], start: float = DEFAULT_RATING, width: int = 360, height: int = 200) -> Chart:
    """The rating after each of the latest rated answers (x = answer number, y = rating), with axes and tap targets."""
    first = max(0, len(history) - CHART_LAST)
    values = ([start] if first == 0 else [history[first - 1][1]]) + [r for _, r in history[first:]]
    low = int(min(values) // 50 * 50 - 50)
    high = int(max(values) // 50 * 50 + 100)
    left, right, top, bottom = 40.0, width - 14.0, 10.0, height - 26.0
    span_x = max(len(values) - 1, 1)

    def xy(i: int, v: float) -> tuple[float, float]:
        return (round(left + (right - left) * i / span_x, 1), round(bottom - (bottom - top) * (v - low) / (high - low), 1))

    coords = [xy(i, v) for i, v in enumerate(values)]
    step = 50 if high - low <= 300 else 100 if high - low <= 800 else 200
    grid = [(xy(0, g)[1], g) for g in range(low - low % step + step, high, step)]
    tick = _tick_step(len(values) - 1)
    ticks = [(xy(i, low)[0], first + i) for i in range(0, len(values), tick)]
    dots = [ChartPoint(x, y, first + i, round(v), "start" if x < left + 30 else "end" if x > right - 30 else "middle") for i, ((x, y), v) in enumerate(zip(coords, values)) if i > 0]
    return Chart(
        width,
        height,
        " ".join(f"{x},{y}" for x, y in coords),
        low,
        high,
        coords[-1] if len(values) > 1 else None,
        grid,
        left=left,
        bottom=bottom,
        right=right,
        x_ticks=ticks,
        dots=dots,
        first=first,
    )


def table_view(puzzle: Puzzle) -> TableShown | None:
    """What a drill shows of the table from the player's chair (``partials/table.html``), or None for a puzzle without one (a 算番 item)."""
    view = puzzle.view
    return table_shown(view) if view is not None else None


DAY_ZONE = ZoneInfo(settings.TIME_ZONE)
"""The site's time zone (Asia/Shanghai): the daily set's day begins at its midnight, whatever zone a visitor is in."""
DAILY_ROTATION = ("discard", "pong", "quiz", "kong", "declare", "defence", "ev")
"""The kind of the day's drill, one a day in turn (a week: 何切, 碰不碰, 算番, 杠不杠, 亮不亮, defence, 期望值); ``ev`` is the 期望值 theme of 何切."""
DAILY_LEVEL = "judge"
"""The bots' level of the daily hand (a key of ``play.services.LEVELS``): the judge, the level the streak's hands were
played at (a stronger level, ``boosted``, is on /play/; moving the daily hand to it would drop the days players have)."""


def site_day(now: datetime | None = None) -> date:
    """The day ``now`` falls on in the site's time zone (``DAY_ZONE``)."""
    return (now or timezone.now()).astimezone(DAY_ZONE).date()


def day_span(day: date) -> tuple[datetime, datetime]:
    """The day's first instant and the next day's, in the site's time zone."""
    start = datetime.combine(day, time.min, tzinfo=DAY_ZONE)
    return start, datetime.combine(day + timedelta(days=1), time.min, tzinfo=DAY_ZONE)


def daily_kind(day: date) -> str:
    """The day's kind of drill (``DAILY_ROTATION``, by the day's number: every Monday is 何切)."""
    return DAILY_ROTATION[day.weekday()]


def _of_daily_kind(kind: str) -> QuerySet[Puzzle]:
    if kind == "ev":
        return _served(Puzzle.DISCARD).filter(draws_left__isnull=False)
    if kind == Puzzle.DISCARD:
        return _served(Puzzle.DISCARD).filter(draws_left__isnull=True)
    return _served(kind)


def daily_choice(*, day: date) -> Puzzle | None:
    """The drill the day would get: of the day's kind (else the next kind in turn that has one), never a past day's while any is left,
    picked among them by the date's SHA-256 in the order of their bank keys (the same on every server); None with an empty bank."""
    digest = seed_of("kwx-daily", day.isoformat(), bits=64)
    start = DAILY_ROTATION.index(daily_kind(day))
    used = DailyDrill.objects.filter(day__lt=day).values("puzzle_id")
    for step in range(len(DAILY_ROTATION)):
        served = _of_daily_kind(DAILY_ROTATION[(start + step) % len(DAILY_ROTATION)])
        for pool in (served.exclude(pk__in=used), served):
            keys = list(pool.order_by("key").values_list("pk", flat=True))
            if keys:
                return Puzzle.objects.get(pk=keys[digest % len(keys)])
    return None


def stored_daily(*, day: date) -> Puzzle | None:
    """The day's daily drill if it has been chosen (``services.daily_drill`` chooses and stores it)."""
    row = DailyDrill.objects.filter(day=day).select_related("puzzle").first()
    return row.puzzle if row else None


@dataclass(frozen=True)
class DailySolvers:
    """How many players answered a daily drill on its day, and how many of them got it right at their first answer that day."""

    answered: int = 0
    solved: int = 0


def daily_solvers(*, puzzle: Puzzle, day: date) -> DailySolvers:
    """Who answered ``puzzle`` on ``day`` (site time): each player once, however often they answered (the first answer of the day decides "solved")."""
    start, end = day_span(day)
    first: dict[int, bool] = {}
    for player_id, correct in Attempt.objects.filter(puzzle=puzzle, created__gte=start, created__lt=end).order_by("created", "pk").values_list("player_id", "correct"):
        first.setdefault(player_id, correct)
    return DailySolvers(len(first), sum(first.values()))


def daily_drill_days(*, player: Player) -> set[date]:
    """The days (site time) on which the player answered that day's daily drill."""
    attempts = Attempt.objects.filter(player=player).annotate(day=TruncDate("created", tzinfo=DAY_ZONE))
    of_the_day = DailyDrill.objects.filter(day=OuterRef("day"), puzzle=OuterRef("puzzle"))
    return set(attempts.filter(Exists(of_the_day)).values_list("day", flat=True).distinct())


def daily_hand_days(*, player: Player) -> set[date]:
    """The days (site time) on which the player finished a hand against the judge (``DAILY_LEVEL``): a hand counts for the day it was dealt."""
    hands = Hand.objects.filter(player=player, over=True, game__level=DAILY_LEVEL).annotate(day=TruncDate("created", tzinfo=DAY_ZONE))
    return set(hands.values_list("day", flat=True).distinct())


def streaks(done: set[date], today: date) -> tuple[int, int]:
    """(current, best) runs of consecutive days in ``done``: the current run ends today, or yesterday while today is not done yet."""
    current = 0
    day = today if today in done else today - timedelta(days=1)
    while day in done:
        current += 1
        day -= timedelta(days=1)
    best = run = 0
    previous: date | None = None
    for day in sorted(done):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best, previous = max(best, run), day
    return current, best


@dataclass(frozen=True)
class DailySet:
    """The daily set of one day for one player: the day's drill and who solved it, the reviews due, the hand against the judge, the day streak.

    The day is **done** when the player answered the day's drill that day (right or not) and finished a hand
    against the judge dealt that day; the reviews are shown but never required (a player may have none due).
    """

    day: date
    puzzle: Puzzle | None
    solvers: DailySolvers
    drill_done: bool
    drill_right: bool | None
    due: int
    hand_done: bool
    streak: int
    best_streak: int
    open_game: int | None = None
    """A game against the judge whose hand dealt today is still at the table (the set links back to it), or None."""

    @property
    def done(self) -> bool:
        """Whether the day counts for the streak: the drill answered and the hand played, both today."""
        return self.drill_done and self.hand_done

    @property
    def kind(self) -> str:
        """The drill's kind as ``DAILY_ROTATION`` names it (``ev`` for a 期望值 何切), or empty."""
        if self.puzzle is None:
            return ""
        return "ev" if self.puzzle.is_ev else self.puzzle.kind


def daily_set(*, player: Player | None, day: date, puzzle: Puzzle | None) -> DailySet:
    """The player's daily set of ``day`` whose drill is ``puzzle`` (``services.daily_drill``); a visitor who has done nothing gets an empty one."""
    solvers = daily_solvers(puzzle=puzzle, day=day) if puzzle else DailySolvers()
    if player is None:
        return DailySet(day, puzzle, solvers, False, None, 0, False, 0, 0)
    start, end = day_span(day)
    mine = Attempt.objects.filter(player=player, puzzle=puzzle, created__gte=start, created__lt=end).order_by("created", "pk").first() if puzzle else None
    drills, hands = daily_drill_days(player=player), daily_hand_days(player=player)
    current, best = streaks(drills & hands, day)
    at_table = Hand.objects.filter(player=player, over=False, game__level=DAILY_LEVEL, created__gte=start, created__lt=end).order_by("-pk").first()
    return DailySet(day, puzzle, solvers, mine is not None, mine.correct if mine else None, due_count(player), day in hands, current, best, at_table.game_id if at_table else None)


def open_reports(*, puzzle: Puzzle) -> int:
    """How many reports of the drill are still open (its page says so)."""
    return DrillReport.objects.filter(puzzle=puzzle, resolved__isnull=True).count()


@dataclass(frozen=True)
class ReportedDrill:
    """A drill with open reports, for the staff page: the drill, its open reports (oldest first) and how many of each kind."""

    puzzle: Puzzle
    reports: list[DrillReport]

    @property
    def count(self) -> int:
        """Open reports."""
        return len(self.reports)

    @property
    def by_kind(self) -> list[tuple[str, int]]:
        """(kind, open reports of it), in ``DrillReport.KINDS`` order, kinds without one left out."""
        counts = Counter(r.kind for r in self.reports)
        return [(kind, counts[kind]) for kind, _name in DrillReport.KINDS if counts[kind]]


def reported_drills() -> list[ReportedDrill]:
    """Every drill with open reports, the most reported first (then the oldest report first), each with its open reports."""
    puzzles = Puzzle.objects.annotate(open=Count("reports", filter=Q(reports__resolved__isnull=True))).filter(open__gt=0)
    reports: dict[int, list[DrillReport]] = {}
    for report in DrillReport.objects.filter(resolved__isnull=True, puzzle__in=puzzles).select_related("player__user").order_by("created", "pk"):
        reports.setdefault(report.puzzle_id, []).append(report)
    drills = [ReportedDrill(p, reports[p.pk]) for p in puzzles if p.pk in reports]
    return sorted(drills, key=lambda d: (-d.count, d.reports[0].created, d.puzzle.pk))


PAID_APART = ("shu_kan", "pao_qia_mo_ba", "mai_ma", "shang_lou")
"""The options that add to a win payment beside its multiplier (flat extras, and 上楼 from the deal's dice), in the order a page names them."""


def paid_apart(rules: RuleSet, *, english: bool = False, dice: bool = True) -> tuple[str, ...]:
    """The names of what these rules pay beside a win's multiplier (数坎, 跑恰摸八, 买马; 上楼 unless ``dice`` is False), as ``kwx.rules.OPTIONS`` names them."""
    on = {"shu_kan": rules.shu_kan, "pao_qia_mo_ba": rules.pao_qia_mo_ba, "mai_ma": rules.buys_horses, "shang_lou": dice and rules.shang_lou}
    return tuple(OPTION_BY_KEY[key].name_en if english else OPTION_BY_KEY[key].name for key in PAID_APART if on[key])


@dataclass(frozen=True)
class QuizMoney:
    """What a 算番 item's win pays beside the multiplier it asks (town-rules.md §2.1 steps 2–6, 漂 0), from the engine: ``money`` (坎, 跑恰摸八,
    the total a payer who did not declare pays, what a declared payer or the discarder on 包胡 pays), whether horses are turned, whether 上楼 could double it."""

    money: SideMoney
    horses: bool
    dice: bool

    @property
    def declared_differs(self) -> bool:
        """Whether a payer who declared 亮倒 pays another multiplier (``winner_or_payer``; not on a 包胡 discard)."""
        return self.money.declared_allowed and self.money.bao_hu is None and self.money.declared_total != self.money.total

    @property
    def extras(self) -> bool:
        """Whether anything is paid beside the multiplier (坎, 跑恰摸八, 马)."""
        return self.money.kan is not None or self.money.pao_qia_mo_ba is not None or self.horses


def quiz_money(*, puzzle: Puzzle) -> QuizMoney:
    """A 算番 item's win priced under the rules it is asked under (the engine's ``score_win`` and ``side_money``)."""
    rules = Rules(preset(puzzle.rules), puzzle.rule_set, check_situation(puzzle.situation))
    hand, _visible = build_hand(puzzle.hand, puzzle.melds)
    win, self_draw = KIND_OF_ID[puzzle.win_tile], puzzle.win_side == "self_draw"
    values = score_win(hand, win, rules)
    assert values is not None, puzzle.key  # every item of the banks is a win (tests/puzzles: possible.record_problem)
    money = side_money(values[0] if self_draw else values[1], hand, win, self_draw, rules)
    return QuizMoney(money, buys_horses(rules.options, self_draw, "liang_dao" in rules.situation), rules.options.shang_lou)

"""From simulated play to the JSON records of the puzzle bank (何切 puzzles and 算番 quiz items).

``generate(seed, ...)`` is deterministic: the same seed, counts and code give the same
bank. Each record holds everything a page needs without asking the engine again:
hand and melds (canonical notation), visible tiles, preset, situation, accepted
answers, the full option table (or the fan breakdown), themes and a first rating.

``generate(seed, ..., rules=town)`` makes the bank of one town preset (issue 35 item 7): every
deal is played under the town's rules, every 何切 judged by the §4 value under its money, every
quiz item drawn among the situations that can happen with its win and that the town counts
(``town_quiz_from_win``), and each record stores the town's options (``rule_options``). Each deal
has its own random streams, one for the play and one for the picks, so the first n 何切 puzzles
and the first m quiz items of a town bank are the same whatever counts it was made with.
"""

from __future__ import annotations

import gzip
import json
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from kwx.drills.simulate import Candidate, Win, play_deal
from kwx.hand.efficiency import DiscardOption
from kwx.hand.notation import format_counts, format_hand
from kwx.hand.rules import Rules, make_rules
from kwx.hand.scoring import WinValue, score_win, situation_counts
from kwx.hand.serial import option_row
from kwx.hand.tiles import TILE_IDS, Hand
from kwx.rules import RuleSet

from .filters import Verdict, judge
from .possible import possible_win, record_problem, standing_win, with_situation
from .themes import fan_themes, tag

DATA = Path(__file__).resolve().parent.parent / "data"
BANK_PATH = DATA / "bank.json.gz"
PRESET_WEIGHTS: dict[str, int] = {"standard": 6, "xiangyang": 2, "shiyan": 2}
"""How often each preset is dealt in the bank of mixed legacy presets (a bank for one town deals only that town)."""
SELF_DRAW_SITUATIONS: tuple[tuple[str, ...], ...] = ((), (), ("liang_dao",), ("gang_shang_kai_hua",), ("hai_di_lao",))
DISCARD_SITUATIONS: tuple[tuple[str, ...], ...] = ((), (), ("liang_dao",), ("gang_shang_pao",), ("qiang_gang_hu",))
QUIZ_FROM_PUZZLE = 0.25
"""Share of kept puzzles that also give a quiz item (one wait of the accepted discard)."""
REPLACEMENT_STREAM = "/possible quiz"
"""What follows the seed in the seed of the replacement quiz items' own random stream (a stream apart, so the 何切 puzzles and the
items that could happen keep their draws and their keys)."""
PLAIN_WIN_KEPT = 0.25
"""Share of ×1 wins (屁胡 self-draws) kept as quiz items: most items should have fans to count."""
MIN_RATING, MAX_RATING = 800, 2400
PREFIX = {"discard": "h", "quiz": "s", "ev": "v"}
"""The first letter of a generated puzzle's key (``h00001``: 何切 puzzle 1; ``s``: 算番 item; ``v``: 期望值 puzzle)."""
RETIRED_PREFIXES = ("d", "q", "e")
"""The keys of the banks made before the simulation played on the table: retired by ``puzzles.banks.retire_old`` (kept for their
attempts, no longer served)."""
WITHDRAWN = frozenset({"s00606", "s00679"})
"""Two 算番 items of the legacy bank that ask a self-draw of the wall's last tile without its 海底捞, so their answer lacks a fan
(``possible.record_problem``). The legacy bank is kept byte for byte, so they stay in its file; ``load_bank`` never loads them and
``puzzles.banks.retire_old`` retires them where a database holds them (attempts kept)."""


def clamp_rating(value: float) -> int:
    """A first rating estimate as stored: rounded and kept within MIN_RATING–MAX_RATING."""
    return int(max(MIN_RATING, min(MAX_RATING, round(value))))


def hand_fields(hand: Hand) -> dict[str, Any]:
    """The concealed tiles (canonical text) and the melds (API form) of a hand."""
    return {"hand": format_counts(hand.concealed), "melds": [m.as_dict() for m in hand.melds]}


def puzzle_rating(verdict: Verdict, options: tuple[DiscardOption, ...], hand: Hand) -> int:
    """A first difficulty estimate: more plausible alternatives, a thinner margin, a value choice
    and melds make a puzzle harder. Glicko-2 corrects it as players answer."""
    relative = verdict.margin / max(verdict.best, 1)
    rating = 1050 + 55 * min(verdict.plausible, 8) + 350 * (1 - min(relative, 1.0))
    rating += 180 if verdict.measure == "value" else 0
    rating += 60 * len(hand.melds) + (80 if len(verdict.accepted) == 1 else 0)
    return clamp_rating(rating)


def position_key(position: Candidate, preset: str) -> tuple[str, str, str]:
    """What makes two positions the same puzzle: the hand, the visible tiles and the preset."""
    return format_hand(position.hand), format_counts(position.visible), preset


def town_bank_path(rules: str) -> Path:
    """Where the bank of one town preset lives (``generate_puzzles --rules``)."""
    return DATA / f"bank_{rules}.json.gz"


def town_key(rules: str, kind: str, n: int) -> str:
    """The key of the ``n``-th record of a kind in a town's bank: ``xiaogan-h00001``, ``suizhou-s00042``."""
    return f"{rules}-{PREFIX[kind]}{n:05d}"


def position_fields(position: Candidate) -> dict[str, Any]:
    """The fields every 何切 record has: hand, melds, visible tiles, preset, situation, turn, wall, and the table from the player's chair (its SeatView)."""
    return {
        "kind": "discard",
        **hand_fields(position.hand),
        "visible": format_counts(position.visible),
        "rules": position.rules.preset.key,
        "situation": sorted(position.rules.situation),
        "turn": position.turn,
        "wall_left": position.wall_left,
        "table": position.view.to_json(),
    }


def puzzle_record(position: Candidate, verdict: Verdict) -> dict[str, Any]:
    """The bank record of a kept 何切 position."""
    return {
        **position_fields(position),
        "accepted": [TILE_IDS[k] for k in verdict.accepted],
        "options": [option_row(o) for o in position.options],
        "margin": {"measure": verdict.measure, "best": verdict.best, "runner_up": verdict.runner_up},
        "themes": list(tag(position.hand, position.options)),
        "rating": puzzle_rating(verdict, position.options, position.hand),
    }


def quiz_choices(total: int, product: int, rng: random.Random) -> list[int]:
    """Four multipliers to pick from: the right total and three near misses (halves, doubles, uncapped)."""
    near = {total // 4, total // 2, total * 2, total * 4, product} - {total, 0}
    near = {n for n in near if 1 <= n <= 1024}
    picked = rng.sample(sorted(near), k=min(3, len(near)))
    while len(picked) < 3:
        picked.append(max(picked + [total]) * 2)
    return sorted(picked + [total])


def quiz_record(hand: Hand, win: int, side: str, rules: Rules, value: WinValue, rng: random.Random, wall_left: int) -> dict[str, Any]:
    """The bank record of a 算番 quiz item: a complete hand, how it was won, and its fans."""
    keys = {h.key for h in value.fans}
    rating = 950 + 120 * len(value.fans) + (150 if rules.situation else 0) + (150 if value.product != value.total else 0)
    return {
        "kind": "quiz",
        **hand_fields(hand),
        "visible": "",
        "rules": rules.preset.key,
        "situation": sorted(rules.situation),
        "turn": 0,
        "wall_left": wall_left,
        "win": TILE_IDS[win],
        "side": side,
        "accepted": [str(value.total)],
        "options": {
            "choices": quiz_choices(value.total, value.product, rng),
            "fans": [{"key": h.key, "multiplier": h.multiplier, **({"tile": TILE_IDS[h.kind]} if h.kind is not None else {})} for h in value.fans],
            "product": value.product,
            "total": value.total,
        },
        "themes": list(fan_themes(keys)),
        "rating": clamp_rating(rating),
    }


def quiz_from_win(hand: Hand, win: int, side: str, preset: str, rng: random.Random, wall_left: int) -> dict[str, Any] | None:
    """A quiz item for a win, with a situation drawn for its side; None when that win is not allowed.

    The situation is drawn whatever the hand (the draws every bank so far was made with): an item whose
    situation could not happen with it (``possible.record_problem``: 杠上开花 without a kong …) is replaced
    by ``generate`` after the run. A 海底捞 is the wall's last tile: its item's wall is empty.
    """
    situation = rng.choice(SELF_DRAW_SITUATIONS if side == "self_draw" else DISCARD_SITUATIONS)
    if "qiang_gang_hu" in situation and hand.held[win]:
        situation = ()  # a robbed kong needs the other three copies in someone else's pong
    rules = make_rules(preset, situation)
    values = score_win(hand, win, rules)
    if values is None:
        return None
    value = values[0] if side == "self_draw" else values[1]
    if not value.allowed or (value.total == 1 and rng.random() >= PLAIN_WIN_KEPT):
        return None
    return quiz_record(hand, win, side, rules, value, rng, 0 if "hai_di_lao" in situation else wall_left)


def possible_quiz_from_win(hand: Hand, win: int, side: str, preset: str, rng: random.Random, wall_left: int) -> dict[str, Any] | None:
    """A quiz item for a win with a situation drawn among those that can happen with it (``possible.possible_win``: 杠上开花
    from a kong the winner made of a triplet or a pong, 海底捞 on an empty wall …); None when the win drawn is not allowed."""
    rules = make_rules(preset)
    options = []
    for situation in SELF_DRAW_SITUATIONS if side == "self_draw" else DISCARD_SITUATIONS:
        made = possible_win(hand, win, side, situation, rules, wall_left, rng)
        if made is not None:
            options.append((situation, made))
    situation, (hand, wall_left) = rng.choice(options)
    rules = make_rules(preset, situation)
    values = score_win(hand, win, rules)
    assert values is not None  # possible_win keeps only hands that win
    value = values[0] if side == "self_draw" else values[1]
    if not value.allowed or (value.total == 1 and rng.random() >= PLAIN_WIN_KEPT):
        return None
    return quiz_record(hand, win, side, rules, value, rng, wall_left)


def town_situations(side: str, options: RuleSet) -> tuple[tuple[str, ...], ...]:
    """The situations a town's quiz item may have on this side: those of the legacy bank (海底炮 beside them on a discard), each only where the town counts it."""
    drawn = SELF_DRAW_SITUATIONS if side == "self_draw" else (*DISCARD_SITUATIONS, ("hai_di_pao",))
    return tuple(s for s in drawn if all(situation_counts(key, options) for key in s))


def town_quiz_from_win(hand: Hand, win: int, side: str, rules: Rules, rng: random.Random, wall_left: int) -> dict[str, Any] | None:
    """A quiz item of a town's bank, made possible from the start: the situation is drawn among those the town counts with which this win can
    happen and stands (``possible_win``, ``possible.standing_win``: 杠上开花 from the winner's own kong, 海底 on an empty wall and only there, an allowed win …);
    None when there is none, or for most ×1 wins."""
    options = []
    for situation in town_situations(side, rules.options):
        made = possible_win(hand, win, side, situation, rules, wall_left, rng)
        if made is not None and standing_win(made[0], win, side, with_situation(rules, situation), made[1]):
            options.append((situation, made))
    if not options:
        return None
    situation, (hand, wall_left) = rng.choice(options)
    asked = with_situation(rules, situation)
    values = score_win(hand, win, asked)
    assert values is not None  # standing_win kept only hands that win
    value = values[0] if side == "self_draw" else values[1]
    if value.total == 1 and rng.random() >= PLAIN_WIN_KEPT:
        return None
    return {**quiz_record(hand, win, side, asked, value, rng, wall_left), "rule_options": asked.record_options()}


def replacement_quiz(seed: int, count: int) -> list[dict[str, Any]]:
    """``count`` quiz items from simulated play on a stream of their own (``seed`` and ``REPLACEMENT_STREAM``), each
    situation one that can happen with its win (``possible_quiz_from_win``): what replaces the items that could not."""
    rng = random.Random(f"{seed}{REPLACEMENT_STREAM}")
    items: list[dict[str, Any]] = []
    while len(items) < count:
        preset = rng.choices(tuple(PRESET_WEIGHTS), weights=tuple(PRESET_WEIGHTS.values()))[0]
        for event in play_deal(rng, make_rules(preset)):
            if isinstance(event, Win) and len(items) < count:
                item = possible_quiz_from_win(event.hand, event.win, event.side, preset, rng, event.wall_left)
                if item is not None:
                    items.append(item)
    return items


@dataclass
class Stats:
    """What a generation run did, for the command's report."""

    positions: int = 0
    kept: int = 0
    duplicates: int = 0
    quiz: int = 0
    replaced: int = 0
    """Quiz items drawn with a situation their win could not have had, replaced by others (``replacement_quiz``)."""
    deals: int = 0
    seconds: float = 0.0
    rejected: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Bank records (puzzles and quiz items) made per second."""
        return (self.kept + self.quiz) / self.seconds if self.seconds else 0.0


def kept_verdict(event: Candidate, preset: str, seen: set[tuple[str, str, str]], stats: Stats, wanted: bool) -> Verdict | None:
    """A decision met in play, counted: its verdict when a 何切 is still ``wanted``, it offers no kong (a four held or a pong's fourth
    drawn: no plain 何切), it passes the filters and its position was not kept before; else None."""
    stats.positions += 1
    if not wanted:
        return None
    if event.offers_kong:
        stats.rejected["kong"] = stats.rejected.get("kong", 0) + 1
        return None
    verdict = judge(event.hand.concealed, event.options)
    if verdict is None:
        return None
    key = position_key(event, preset)
    if key in seen:
        stats.duplicates += 1
        return None
    seen.add(key)
    return verdict


def _count_kept(record: dict[str, Any], event: Candidate, stats: Stats, progress: Callable[[int], None] | None, kept: Callable[[dict[str, Any], Candidate], None] | None) -> None:
    if kept:
        kept(record, event)
    stats.kept += 1
    if progress:
        progress(1)


def generate(
    seed: int,
    count: int,
    quiz_count: int,
    progress: Callable[[int], None] | None = None,
    kept: Callable[[dict[str, Any], Candidate], None] | None = None,
    rules: str | None = None,
) -> tuple[list[dict[str, Any]], Stats]:
    """``count`` 何切 puzzles and ``quiz_count`` quiz items from simulated play, reproducible from ``seed``.

    ``kept`` is told of each 何切 record made and the position it came from (its key is set at the end).
    ``rules`` (a town preset's key) makes that town's bank instead of the mixed legacy one (``generate_town``).
    """
    if rules is not None:
        return generate_town(seed, rules, count, quiz_count, progress, kept)
    rng = random.Random(seed)
    stats = Stats()
    puzzles: list[dict[str, Any]] = []
    quiz: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    started = time.perf_counter()
    while len(puzzles) < count or len(quiz) < quiz_count:
        preset = rng.choices(tuple(PRESET_WEIGHTS), weights=tuple(PRESET_WEIGHTS.values()))[0]
        stats.deals += 1
        for event in play_deal(rng, make_rules(preset)):
            if isinstance(event, Win):
                if len(quiz) < quiz_count:
                    item = quiz_from_win(event.hand, event.win, event.side, preset, rng, event.wall_left)
                    if item is not None:
                        quiz.append(item)
                        stats.quiz += 1
                continue
            verdict = kept_verdict(event, preset, seen, stats, len(puzzles) < count)
            if verdict is None:
                continue
            puzzles.append(puzzle_record(event, verdict))
            _count_kept(puzzles[-1], event, stats, progress, kept)
            best = event.options[0]
            if best.result.waits and len(quiz) < quiz_count and rng.random() < QUIZ_FROM_PUZZLE:
                wait = rng.choice(best.result.waits)
                side = rng.choice(("self_draw", "discard"))
                item = quiz_from_win(event.hand.with_tile(best.discard, -1), wait.kind, side, preset, rng, event.wall_left)
                if item is not None:
                    quiz.append(item)
                    stats.quiz += 1
    for n, record in enumerate(puzzles, 1):
        record["key"] = f"{PREFIX['discard']}{n:05d}"
    for n, record in enumerate(quiz, 1):
        record["key"] = f"{PREFIX['quiz']}{n:05d}"
    possible = [record for record in quiz if record_problem(record, last_tile=False) is None]  # the checks this bank was made with
    stats.replaced = len(quiz) - len(possible)
    for n, record in enumerate(replacement_quiz(seed, stats.replaced), len(quiz) + 1):  # new keys: a database keeps the old items' attempts (load_banks retires them)
        record["key"] = f"{PREFIX['quiz']}{n:05d}"
        possible.append(record)
    stats.seconds = time.perf_counter() - started
    return puzzles + possible, stats


def generate_town(
    seed: int,
    rules: str,
    count: int,
    quiz_count: int,
    progress: Callable[[int], None] | None = None,
    kept: Callable[[dict[str, Any], Candidate], None] | None = None,
) -> tuple[list[dict[str, Any]], Stats]:
    """The bank of one town preset: ``count`` 何切 puzzles and ``quiz_count`` quiz items from deals played under its rules.

    Deal ``d`` plays from the stream ``{seed}/{rules}/{d}`` and picks (which wait, which side, which situation) from
    ``{seed}/{rules}/{d}/pick``; a 何切 is kept by the same filters as the legacy bank, judged by the value under the
    town's money; a quiz item comes from a deal's win or a kept puzzle's best wait (``QUIZ_FROM_PUZZLE``), possible
    by construction (``town_quiz_from_win``), never twice the same.
    """
    stats = Stats()
    puzzles: list[dict[str, Any]] = []
    quiz: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    asked: set[tuple[str, str, str, str, str]] = set()
    started = time.perf_counter()
    deal_rules = make_rules(rules)
    options = deal_rules.record_options()

    def add_quiz(item: dict[str, Any] | None) -> None:
        if item is None:
            return
        same = (item["hand"], json.dumps(item["melds"]), item["win"], item["side"], " ".join(item["situation"]))
        if same not in asked:
            asked.add(same)
            quiz.append(item)
            stats.quiz += 1

    while len(puzzles) < count or len(quiz) < quiz_count:
        play, pick = random.Random(f"{seed}/{rules}/{stats.deals}"), random.Random(f"{seed}/{rules}/{stats.deals}/pick")
        stats.deals += 1
        for event in play_deal(play, deal_rules):
            if isinstance(event, Win):
                if len(quiz) < quiz_count:
                    add_quiz(town_quiz_from_win(event.hand, event.win, event.side, deal_rules, pick, event.wall_left))
                continue
            verdict = kept_verdict(event, rules, seen, stats, len(puzzles) < count)
            if verdict is None:
                continue
            puzzles.append({**puzzle_record(event, verdict), "rule_options": options})
            _count_kept(puzzles[-1], event, stats, progress, kept)
            best = event.options[0]
            if best.result.waits and len(quiz) < quiz_count and pick.random() < QUIZ_FROM_PUZZLE:
                wait = pick.choice(best.result.waits)
                side = pick.choice(("self_draw", "discard"))
                add_quiz(town_quiz_from_win(event.hand.with_tile(best.discard, -1), wait.kind, side, deal_rules, pick, event.wall_left))
    for n, record in enumerate(puzzles, 1):
        record["key"] = town_key(rules, "discard", n)
    for n, record in enumerate(quiz, 1):
        record["key"] = town_key(rules, "quiz", n)
    stats.seconds = time.perf_counter() - started
    return puzzles + quiz, stats


def write_bank(records: Iterable[dict[str, Any]], path: Path = BANK_PATH, meta: dict[str, Any] | None = None) -> None:
    """Write the bank as gzip'd JSON (stable: no timestamp in the gzip header)."""
    body = json.dumps({"meta": meta or {}, "records": list(records)}, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    with open(path, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0, compresslevel=9) as out:
        out.write(body.encode("utf-8"))


def _read(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rb") as f:
        return orjson.loads(f.read())  # the same values as json's, in less than half the time (bank.json.gz: 6 MB)


def read_bank(path: Path = BANK_PATH) -> list[dict[str, Any]]:
    """The records of a bank file."""
    return _read(path)["records"]


def read_meta(path: Path = BANK_PATH) -> dict[str, Any]:
    """The meta of a bank file: how it was made (seed, counts, rules)."""
    return _read(path)["meta"]


POSITION = ("kind", "hand", "melds", "visible", "rules", "rule_options", "situation", "win_tile", "win_side", "draws_left")
"""The fields that make a stored puzzle the one its bank record describes: what the player is asked about."""


def bank_row(record: dict[str, Any]) -> dict[str, Any]:
    """The Puzzle fields of a bank record (every bank file's records, read by ``read_bank``)."""
    return {
        "key": record["key"],
        "kind": record["kind"],
        "hand": record["hand"],
        "melds": record["melds"],
        "visible": record["visible"],
        "rules": record["rules"],
        "situation": record["situation"],
        "turn": record["turn"],
        "wall_left": record["wall_left"],
        "win_tile": record.get("win", ""),
        "win_side": record.get("side", ""),
        "accepted": record["accepted"],
        "options": record["options"],
        "themes": f" {' '.join(record['themes'])} " if record["themes"] else "",
        "rating": record["rating"],
        **({"draws_left": record["draws_left"], "ev": record["ev"]} if "ev" in record else {}),
        "rule_options": record.get("rule_options", {}),
        **({"table": record["table"]} if "table" in record else {}),
        **({"verdict": {"margin": record["margin"], "danger": record["danger"], "source": record["source"]}} if "danger" in record else {}),
    }


@dataclass
class Loaded:
    """What loading one bank file did: rows added, rows brought up to their record, and the keys left apart."""

    records: int = 0
    added: int = 0
    updated: int = 0
    apart: list[str] = field(default_factory=list)
    """Keys whose stored puzzle is another position than the record's: left as they are, since attempts point to it."""
    keys: frozenset[str] = frozenset()
    """Every key the file ships and serves, ``WITHDRAWN`` left out (what ``puzzles.banks.retire_old`` keeps)."""


def load_bank(model: Any, path: Path = BANK_PATH, batch_size: int = 1000) -> Loaded:
    """Upsert the bank's records into ``model`` (the Puzzle model, historical or not) by key.

    A missing key is inserted. A stored puzzle of the record's position (``POSITION``) takes the
    record's other fields where they differ (figures, answers, themes, a table drill's table), and
    its rating only while nobody has played it; its row, and so every attempt and review card
    pointing at it, stays. A key holding another position is left alone and reported.
    """
    records = read_bank(path)
    rows = {r["key"]: bank_row(r) for r in records if r["key"] not in WITHDRAWN}
    loaded = Loaded(records=len(records), keys=frozenset(rows))
    changed: dict[tuple[str, ...], list[Any]] = {}
    for puzzle in model.objects.filter(key__in=list(rows)).order_by("key"):
        row = rows.pop(puzzle.key)
        if any(getattr(puzzle, name, None) != row.get(name) for name in POSITION):  # no draws_left: not a 期望值 puzzle
            loaded.apart.append(puzzle.key)
            continue
        differ = {name for name, value in row.items() if name not in POSITION and name != "key" and getattr(puzzle, name) != value}
        if puzzle.plays:
            differ.discard("rating")
        if differ:
            for name in differ:
                setattr(puzzle, name, row[name])
            changed.setdefault(tuple(sorted(differ)), []).append(puzzle)
    for names, puzzles in changed.items():  # each row writes only its own changed fields
        model.objects.bulk_update(puzzles, names, batch_size=batch_size)
    model.objects.bulk_create([model(**row) for row in rows.values()], batch_size=batch_size)
    loaded.added, loaded.updated = len(rows), sum(map(len, changed.values()))
    return loaded

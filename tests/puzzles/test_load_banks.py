"""Banks by command: ``migrate`` loads no puzzle, ``manage.py load_banks`` upserts every shipped bank by key,
changes nothing on a database that has them, and never makes a played puzzle's row again."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from accounts.models import Player
from kwx.rules import PRESETS, town_presets
from puzzles.banks import BANKS, NAMES
from puzzles.generation.bank import PREFIX, WITHDRAWN, bank_row, read_bank
from puzzles.models import Attempt, Puzzle, ReviewCard
from puzzles.services import answer_puzzle
from tests.migrating import migrate
from tests.puzzles.factories import aid

RECORDS = {name: read_bank(path) for name, path in BANKS.items()}
TABLES = {r["key"]: r["table"] for records in RECORDS.values() for r in records if "table" in r}


def load_banks(*names: str) -> tuple[str, str]:
    """Run the command as a deploy does; what it printed and what it warned."""
    out, err = io.StringIO(), io.StringIO()
    call_command("load_banks", *names, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def snapshot() -> list[dict]:
    """Every stored puzzle, every field, by row id."""
    return list(Puzzle.objects.order_by("id").values())


@pytest.mark.django_db(transaction=True)
def test_migrate_loads_no_puzzle():
    """Every migration after puzzles' first, forward again (the old loaders were among them): no puzzle. Going back to it
    unapplies the other apps' migrations that depend on it too, so forward is every app's newest (``tests.migrating``): a
    forward of the puzzles app alone left other tables of old (a later test on the worker's database failed on them)."""
    Puzzle.objects.all().delete()
    try:
        migrate([("puzzles", "0001_initial")])
        migrate()
        assert Puzzle.objects.count() == 0
    finally:
        migrate()


@pytest.mark.django_db
def test_the_session_holds_every_shipped_bank():
    for records in RECORDS.values():
        stored = dict(Puzzle.objects.filter(key__in=[r["key"] for r in records]).values_list("key", "hand"))
        assert stored == {r["key"]: r["hand"] for r in records if r["key"] not in WITHDRAWN}
    tables = dict(Puzzle.objects.filter(key__in=list(TABLES)).values_list("key", "table"))
    assert tables == TABLES


@pytest.mark.django_db
def test_on_a_database_that_has_the_banks_it_changes_nothing():
    player = Player.objects.create()
    played = list(Puzzle.objects.filter(kind=Puzzle.DISCARD, key__startswith=PREFIX["discard"]).order_by("key")[:3])
    for n, puzzle in enumerate(played):  # played: ratings moved, attempts and a review card point at these rows
        answer_puzzle(player=player, puzzle=puzzle, answer=puzzle.accepted[0] if n else puzzle.options[-1]["discard"], attempt_id=aid(f"played-{n}"))
    assert ReviewCard.objects.filter(player=player).exists()
    before, cards = snapshot(), list(ReviewCard.objects.values_list("puzzle_id", flat=True))
    assert any(p["plays"] for p in before)
    out, err = load_banks()
    assert snapshot() == before and list(ReviewCard.objects.values_list("puzzle_id", flat=True)) == cards
    assert err == "" and out.count(" 0 added, 0 updated") == len(BANKS) and "retired: 0 " in out
    assert sorted(Attempt.objects.values_list("puzzle__key", flat=True)) == [p.key for p in played]


@pytest.mark.django_db
def test_it_adds_the_missing_and_brings_stored_puzzles_up_to_their_record():
    shipped = RECORDS["bank"][:3]
    keys = [r["key"] for r in shipped]
    rows = {p.key: p for p in Puzzle.objects.filter(key__in=keys)}
    for record in shipped:  # what an old build stored: an option's figure off, a first rating since replaced
        stale = [{**record["options"][0], "ukeire": record["options"][0]["ukeire"] + 3}, *record["options"][1:]]
        Puzzle.objects.filter(key=record["key"]).update(options=stale, rating=1234.0, plays=0, table={})
    Puzzle.objects.filter(key=keys[1]).update(plays=5)  # its rating was learned from plays: kept
    Puzzle.objects.filter(key=keys[2]).update(hand="123456789p1234s")  # another position under that key: left alone
    missing = [r["key"] for r in RECORDS["table_bank"][:4]] + [f"{PREFIX['discard']}00004", f"{PREFIX['quiz']}00003"]
    Puzzle.objects.filter(key__in=missing).delete()

    out, err = load_banks()

    now = {p.key: p for p in Puzzle.objects.filter(key__in=keys)}
    assert {k: p.pk for k, p in now.items()} == {k: p.pk for k, p in rows.items()}  # the same rows, not made again
    assert now[keys[0]].options == shipped[0]["options"] and now[keys[0]].rating == shipped[0]["rating"] and now[keys[0]].table == TABLES[keys[0]]
    assert now[keys[1]].options == shipped[1]["options"] and now[keys[1]].rating == 1234.0
    assert now[keys[2]].options != shipped[2]["options"] and now[keys[2]].hand == "123456789p1234s" and now[keys[2]].table == {}
    assert set(Puzzle.objects.filter(key__in=missing).values_list("key", flat=True)) == set(missing)
    assert f"{BANKS['bank'].name}: {len(RECORDS['bank'])} records, 2 added, 2 updated" in out
    assert "table_bank.json.gz: " in out and ", 4 added, 0 updated" in out
    assert keys[2] in err and "left as they are" in err
    again, _err = load_banks()
    assert again.count(" 0 added, 0 updated") == len(BANKS)


@pytest.mark.django_db
def test_the_puzzles_of_the_banks_made_before_are_retired_with_their_attempts_kept():
    player = Player.objects.create()
    old = Puzzle.objects.create(key="d00007", kind=Puzzle.DISCARD, hand="123456789p12345s", accepted=["1p"], options=[])
    made = Puzzle.objects.create(key="t00007", kind=Puzzle.DISCARD, hand="123456789p12345s", accepted=["1p"], options=[])
    Attempt.objects.create(player=player, puzzle=old, attempt_id=aid("old"), answer="1p", correct=True)
    out, _err = load_banks("bank")
    assert "retired" not in out  # only a load of every bank retires
    out, _err = load_banks()
    assert "retired: 1 " in out
    old.refresh_from_db()
    made.refresh_from_db()
    assert old.retired and not made.retired and Attempt.objects.filter(puzzle=old).exists()
    assert not Puzzle.objects.filter(key__startswith=PREFIX["discard"], retired=True).exists()
    again, _err = load_banks()
    assert "retired: 0 " in again


@pytest.mark.django_db
def test_it_loads_only_the_banks_it_is_given():
    Puzzle.objects.all().delete()
    out, _err = load_banks("bank_suizhou")
    assert Puzzle.objects.count() == len(RECORDS["bank_suizhou"]) > 0 and out.count("\n") == 1
    with pytest.raises(CommandError, match="no bank named quiz .*" + ", ".join(NAMES)):
        load_banks("quiz")


@pytest.mark.django_db
def test_a_table_drill_that_left_the_bank_is_retired_with_its_attempts_and_its_card_no_longer_due():
    """A drill its confirming worlds no longer keep leaves the bank file (manage.py confirm_table_drills); load_banks retires its row."""
    from datetime import timedelta

    from puzzles.selectors import due_reviews

    player = Player.objects.create()
    shipped = RECORDS["table_bank"][0]
    gone_key = f"{shipped['key'][0]}99999"
    assert gone_key not in {r["key"] for r in RECORDS["table_bank"]}
    gone = Puzzle.objects.create(key=gone_key, kind=shipped["kind"], hand=shipped["hand"], accepted=shipped["accepted"], options=shipped["options"], table=shipped["table"])
    answer_puzzle(player=player, puzzle=gone, answer=next(o["answer"] for o in shipped["options"] if not o["right"]), attempt_id=aid("gone"))
    assert ReviewCard.objects.filter(player=player, puzzle=gone).exists()
    out, _err = load_banks()
    assert "retired: 1 " in out
    gone.refresh_from_db()
    assert gone.retired and Attempt.objects.filter(puzzle=gone).count() == 1 and ReviewCard.objects.filter(puzzle=gone).exists()
    assert not Puzzle.objects.filter(key=shipped["key"], retired=True).exists()
    assert not due_reviews(player, now=gone.attempts.get().created + timedelta(days=3650)).filter(puzzle=gone).exists()


@pytest.mark.django_db
def test_a_quiz_item_replaced_in_the_bank_is_retired_with_its_attempts_and_the_rest_is_brought_up_to_date():
    """Issue 38 item 3: s00021 (杠上开花 on seven pairs: it cannot happen) left the bank for a new key; a database that served it keeps its attempts."""
    player = Player.objects.create()
    Puzzle.objects.filter(key="s00021").delete()
    impossible = Puzzle.objects.create(
        key="s00021", kind=Puzzle.QUIZ, hand="11566p335577sBB", rules="standard", situation=["gang_shang_kai_hua"], win_tile="5p", win_side="self_draw", accepted=["8"], options={}
    )
    Attempt.objects.create(player=player, puzzle=impossible, attempt_id=aid("s21"), answer="8", correct=True)
    haidi = next(r for r in RECORDS["bank"] if r["kind"] == "quiz" and "hai_di_lao" in r["situation"] and int(r["key"][1:]) <= 600)
    Puzzle.objects.filter(key=haidi["key"]).update(wall_left=20)  # as the bank had it: 海底捞 with tiles left in the wall
    out, _err = load_banks()
    assert "retired: 1 " in out
    impossible.refresh_from_db()
    assert impossible.retired and Attempt.objects.filter(puzzle=impossible).count() == 1
    assert Puzzle.objects.get(key=haidi["key"]).wall_left == 0  # the same question, its wall now empty
    assert not Puzzle.objects.filter(kind=Puzzle.QUIZ, retired=True).exclude(key="s00021").exists()
    assert Puzzle.objects.filter(key="s00601", retired=False).exists()  # a replacement


@pytest.mark.django_db
def test_every_town_bank_is_loaded_with_its_rules_and_a_town_item_no_bank_ships_is_retired_with_its_attempts():
    """Issue 35 item 7: one bank file per town (``bank_xiaogan`` …), loaded by ``load_banks`` with the other banks: each item with its preset
    and every option; loading again changes nothing; an item of a town's bank that the bank no longer ships is retired, its attempts kept."""
    towns = [name for name in NAMES if name.startswith("bank_")]
    assert sorted(towns) == sorted(f"bank_{rules}" for rules in town_presets())
    for name in towns:
        rules = name.removeprefix("bank_")
        stored = {p.key: p for p in Puzzle.objects.filter(key__startswith=f"{rules}-")}
        assert sorted(stored) == sorted(r["key"] for r in RECORDS[name])
        assert all(p.rules == rules and p.rule_set == PRESETS[rules].values and not p.retired for p in stored.values())
    player = Player.objects.create()
    gone = Puzzle.objects.create(key="xiaogan-s09999", kind=Puzzle.QUIZ, hand="123p456p789p23sFF", rules="xiaogan", situation=[], win_tile="1s", win_side="self_draw", accepted=["1"], options={})
    Attempt.objects.create(player=player, puzzle=gone, attempt_id=aid("gone"), answer="1", correct=True)
    out, err = load_banks()
    assert err == "" and "retired: 1 " in out and out.count(" 0 added, 0 updated") == len(BANKS)
    gone.refresh_from_db()
    assert gone.retired and Attempt.objects.filter(puzzle=gone).count() == 1
    assert not Puzzle.objects.filter(retired=True, key__regex=r"^[a-z_]+-[hs][0-9]{5}$").exclude(key=gone.key).exists()


@pytest.mark.django_db
def test_retire_old_reads_the_shipped_keys_itself_when_not_given_them():
    """The command hands ``retire_old`` the keys it has just loaded; called alone it reads the bank files for them."""
    from puzzles.banks import load_banks as load_service
    from puzzles.banks import retire_old

    old = Puzzle.objects.create(key="d00007", kind=Puzzle.DISCARD, hand="123456789p12345s", accepted=["1p"], options=[])
    loaded = load_service()
    assert {k for done in loaded.values() for k in done.keys} == {r["key"] for records in RECORDS.values() for r in records} - WITHDRAWN
    assert retire_old() == 1 and retire_old() == 0
    old.refresh_from_db()
    assert old.retired


@pytest.mark.django_db
def test_a_withdrawn_item_is_never_loaded_and_a_database_holding_it_retires_it_with_its_attempts():
    """The legacy bank's two 算番 items without their 海底捞 (``WITHDRAWN``, tests/puzzles/test_bank.py) stay in its file, kept byte
    for byte; a load never adds them, and where an older load stored one it is retired, its attempts kept."""
    record = next(r for r in RECORDS["bank"] if r["key"] == "s00606")
    assert not Puzzle.objects.filter(key__in=WITHDRAWN).exists()
    Puzzle.objects.filter(key__startswith=PREFIX["quiz"]).delete()
    out, _err = load_banks("bank")
    assert not Puzzle.objects.filter(key__in=WITHDRAWN).exists() and f"{len(RECORDS['bank'])} records, " in out
    stored = Puzzle.objects.create(**bank_row(record))  # as a load before the withdrawal stored it
    Attempt.objects.create(player=Player.objects.create(), puzzle=stored, attempt_id=aid("s00606"), answer="2", correct=True)
    out, _err = load_banks()
    assert "retired: 1 " in out
    stored.refresh_from_db()
    assert stored.retired and Attempt.objects.filter(puzzle=stored).count() == 1

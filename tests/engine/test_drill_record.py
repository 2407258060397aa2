"""A table drill's bank record, typed (kwx/drills/record.py): every shipped record read and written back exactly."""

from __future__ import annotations

from kwx.drills.record import AnswerRow, TableDrill, answer_of
from puzzles.generation.bank import read_bank, read_meta, write_bank
from puzzles.generation.table_bank import TABLE_BANK_PATH

RECORDS = read_bank(TABLE_BANK_PATH)


def test_every_shipped_record_is_written_back_as_it_was_read():
    drills = [TableDrill.from_json(r) for r in RECORDS]
    assert [d.to_json() for d in drills] == RECORDS


def test_the_bank_written_from_the_typed_records_is_the_shipped_file_byte_for_byte(tmp_path):
    path = tmp_path / "table_bank.json.gz"
    write_bank([TableDrill.from_json(r).to_json() for r in RECORDS], path, read_meta(TABLE_BANK_PATH))
    assert path.read_bytes() == TABLE_BANK_PATH.read_bytes()


def test_a_record_is_typed_down_to_its_choices_and_rows():
    drill = TableDrill.from_json(next(r for r in RECORDS if r["kind"] == "defence" and any(o.get("dangerous") for o in r["options"])))
    assert drill.table.hand.tile_count == 14 and drill.selection is not None and drill.source.seed > 0
    assert sorted(answer_of(c, drill.kind) for c in drill.choices) == sorted(o.answer for o in drill.options)
    dangerous = {drill.choices[i].tile for i in drill.dangerous()}  # type: ignore[union-attr]
    assert dangerous == {o.answer for o in drill.options if o.dangerous} and not dangerous & set(drill.accepted)


def test_a_row_leaves_out_what_says_nothing():
    row = AnswerRow("pass", 1.5, 0.25, True, 1, 8)
    assert row.to_json() == {"answer": "pass", "mean": 1.5, "se": 0.25, "right": True, "shanten": 1, "ukeire": 8}
    assert AnswerRow.from_json(row.to_json()) == row

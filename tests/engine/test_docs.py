"""The examples in the engine's docstring and in docs/engine.md run as written."""

import doctest

import kwx
from tests.conftest import ROOT


def test_engine_docstring_examples():
    result = doctest.testmod(kwx)
    assert result.attempted >= 3 and result.failed == 0


def test_engine_doc_examples():
    result = doctest.testfile(str(ROOT / "docs" / "engine.md"), module_relative=False)
    assert result.attempted >= 7 and result.failed == 0


def test_the_policy_protocol_in_docs_bots_is_what_the_code_offers():
    import inspect
    import re

    from kwx.table.selfplay import Policy
    from kwx.table.view import SeatView
    from tests import outside_bot

    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    protocol = text.split("## The Policy protocol")[1].split("\n## ")[0]
    # the example is the bot the tournament test seats, word for word
    example = protocol.split("```python\n")[1].split("```")[0]
    assert example == inspect.getsource(outside_bot.FirstChoice)
    # the two methods, and every SeatView name the field table lists
    assert {"act", "claim"} <= set(dir(Policy)) and "`act(view: SeatView) -> Action`" in protocol
    table = protocol.split("| field | meaning |")[1].split("\n\n")[0]
    names = {n for row in table.splitlines()[2:] for n in re.findall(r"`([a-z_]+)(?:\[i\]|\(\))?", row.split("|")[1])}
    assert len(names) >= 20
    assert all(hasattr(SeatView, n) or n in SeatView.__dataclass_fields__ for n in names), names - set(dir(SeatView)) - set(SeatView.__dataclass_fields__)

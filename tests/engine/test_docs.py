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

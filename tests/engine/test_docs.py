"""The examples in the engine's docstring run as written."""
import doctest

import analysis.engine


def test_engine_docstring_examples():
    result = doctest.testmod(analysis.engine)
    assert result.attempted >= 3 and result.failed == 0

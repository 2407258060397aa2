"""kwx engine: the rules of 卡五星 as a pure-Python library (no Django).

>>> from kwx import analyze, shanten
>>> shanten("4556p123789sZZZ")
0
>>> [w["tile"] for w in analyze("4556p123789sZZZ")["waits"]]
['5p']
"""

from kwx.errors import EngineError, NotationError
from kwx.hand.analysis import analyze, analyze_hand, build_hand, parse_melds, shanten

__all__ = ["EngineError", "NotationError", "analyze", "analyze_hand", "build_hand", "parse_melds", "shanten"]

"""The engine's benchmarks, run as ``python -m bench.engine`` (``make bench``: against the ``mahjong``-package peer) and ``python -m bench.ev``."""

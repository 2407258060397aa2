"""Puzzle generation: simulated play → candidate positions → filters → theme taggers → bank records.

Pure Python on top of ``kwx`` (no Django): ``simulate`` deals and plays,
``filters`` keeps the good 何切 positions, ``themes`` tags them, ``bank`` turns them
into the JSON records shipped in ``puzzles/data/bank.json.gz``.
"""

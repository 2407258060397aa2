"""The chart of a hand's worth step by step: at each decision, what the seat's choice and the best choice were worth (an SVG drawn by the page, no script)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT = 360, 190
LEFT, RIGHT, TOP, BOTTOM = 42.0, WIDTH - 12.0, 12.0, HEIGHT - 28.0


@dataclass(frozen=True, slots=True)
class WorthDot:
    """One decision on the chart: its step, where its two points are drawn, the two worths with their errors, and the review's link to it."""

    step: int
    x: float
    y_mine: float
    y_best: float
    mine: float
    mine_se: float
    best: float
    best_se: float
    same: bool
    costly: bool
    url: str


@dataclass(frozen=True, slots=True)
class WorthChart:
    """The chart's frame (plot edges, the zero line, gridlines, step ticks), its two lines and its dots."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    zero: float
    mine: str
    best: str
    gridlines: tuple[tuple[float, str], ...]
    ticks: tuple[tuple[float, int], ...]
    dots: tuple[WorthDot, ...]


def _grid_step(span: float) -> float:
    """A round step that puts three to six gridlines across ``span`` base stakes."""
    for step in (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        if span / step <= 6:
            return step
    return 10 ** math.ceil(math.log10(span))


def _label(value: float) -> str:
    """A gridline's figure: no trailing zeros, a real minus sign, never "−0"."""
    text = f"{abs(round(value, 2)):g}"
    return "\u2212" + text if value < 0 and text != "0" else text


def _row(decision: dict[str, Any], key: str) -> dict[str, Any]:
    return next(o for o in decision["options"] if o[key])


def worth_chart(decisions: list[dict[str, Any]], link: Callable[[int], str]) -> WorthChart:
    """The chart of ``decisions`` (a review's, in step order): x the step, y the expected net in base stakes of the seat's choice and of the best."""
    pairs = [(d, _row(d, "mine"), _row(d, "selected")) for d in decisions]
    values = [0.0] + [r["mean"] for _, m, b in pairs for r in (m, b)]
    step = _grid_step(max(max(values) - min(values), 1.0))
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high - low < step:
        high = low + step
    first, last = decisions[0]["step"], decisions[-1]["step"]
    span_x = max(last - first, 1)

    def x(at: int) -> float:
        return round(LEFT + (RIGHT - LEFT) * ((at - first) / span_x if last > first else 0.5), 1)

    def y(value: float) -> float:
        return round(BOTTOM - (BOTTOM - TOP) * (value - low) / (high - low), 1)

    dots = tuple(WorthDot(d["step"], x(d["step"]), y(m["mean"]), y(b["mean"]), m["mean"], m["se"], b["mean"], b["se"], bool(d["same"]), bool(d["costly"]), link(d["step"])) for d, m, b in pairs)
    count = round((high - low) / step)
    grid = tuple((y(low + i * step), _label(low + i * step)) for i in range(count + 1))
    every = max(1, math.ceil(len(dots) / 6))
    ticks = tuple((d.x, d.step) for d in dots[::every])
    return WorthChart(
        WIDTH,
        HEIGHT,
        LEFT,
        RIGHT,
        TOP,
        BOTTOM,
        y(0.0),
        " ".join(f"{d.x},{d.y_mine}" for d in dots),
        " ".join(f"{d.x},{d.y_best}" for d in dots),
        grid,
        ticks,
        dots,
    )

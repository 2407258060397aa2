"""The rating chart on a phone (390 px, Chromium): labels beside the plot, never under the line,
an x axis with answer numbers, and each point's figure on a tap."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.puzzles.factories import discard_puzzle

pytestmark = pytest.mark.django_db(transaction=True)
HANDS = ["34556p123789sZZZ", "4556p1234789sZZZ", "14556p123789sZZZ"]


def answer_rated(page, count: int) -> None:
    for notation in HANDS[:count]:
        puzzle = discard_puzzle(notation)
        page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=rated")
        page.locator("button.tile-button").first.click()
        page.wait_for_selector(".feedback")


def test_the_chart_reads_on_a_phone(page):
    answer_rated(page, 3)
    page.goto(page.base + "/progress/")
    chart = page.locator("svg.chart")
    expect(chart).to_be_visible()
    line = chart.locator("polyline.line").bounding_box()
    labels = chart.locator("text.y-label")
    assert labels.count() >= 2
    for i in range(labels.count()):
        box = labels.nth(i).bounding_box()
        assert box["x"] + box["width"] <= line["x"] + 0.5  # in the gutter, left of the line
        assert box["height"] >= 10  # readable: the chart is drawn at about phone size
    axis = chart.locator("line.x-axis").first.bounding_box()  # a horizontal line: zero height, the plot's width
    assert axis["width"] >= line["width"] - 10 and axis["y"] >= line["y"] + line["height"] - 0.5
    ticks = chart.locator("text.x-label")
    assert ticks.count() >= 2 and ticks.first.inner_html() == "0" and ticks.last.inner_html() == "3"

    last = chart.locator("g.pt").last
    tip = last.locator("text.tip")
    expect(tip).to_be_hidden()
    last.locator("circle.hit").click()  # a tap focuses the point and shows its figure
    expect(tip).to_be_visible()
    rating = page.get_by_test_id("rating").inner_text().rstrip("?")
    assert tip.inner_html() == f"#3: {rating}"
    page.locator(".chart-figures summary").click()
    expect(page.locator(".chart-figures tbody tr")).to_have_count(3)

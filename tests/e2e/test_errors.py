"""In Chromium: a missing page is the site's own 404 page, in Chinese, with a way back."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_missing_puzzle_shows_the_404_page_and_the_way_back(page):
    response = page.goto(f"{page.base}/drills/999999/")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "这个页面不存在"
    assert page.locator(".site-header nav").is_visible() and page.locator(".site-footer").is_visible()
    back = page.get_by_role("link", name="返回牌理分析")
    assert back.bounding_box()["height"] >= 36
    back.click()
    page.wait_for_url(f"{page.base}/")
    assert page.locator("#hand-text").is_visible()

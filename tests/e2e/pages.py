"""Every page of the site, for the checks that walk them all (tap targets, width, axe-core)."""

from __future__ import annotations

import re

from tests.puzzles.factories import discard_puzzle, quiz_puzzle

FIXED = [
    "/",
    "/?hand=4556p123s789sZZZ",
    "/?hand=4556p123s789sZZZ8p&ev=1&draws=3",
    "/?hand=4556p123s789sZZZ5p",
    "/?hand=123456p789s11sZZ&visible=ZZ",
    "/?hand=46p11s[555p][FFF][BBB]&rev1=46p456s789sFFF11s",
    "/analyze/?hand=23456p11678999sZ&r0=Z1p&r1=ZB9p1s2p&m1=[555s]&r2=FB8p&l2=46p123456789sFF&advice=1",
    "/analyze/ev-help/?hand=4556p123s789sZZZ8p",
    "/drills/",
    "/progress/",
    "/learn/",
    "/learn/tiles/",
    "/learn/play/",
    "/learn/shapes/",
    "/learn/fans/",
    "/learn/settlement/",
    "/learn/glossary/",
    "/learn/koujue/",
    "/learn/koujue/memorise/",
    "/settle/",
    "/settle/sheets/",
    "/accounts/login/",
    "/accounts/signup/",
    "/play/",
]


def sheet_pages(page) -> list[str]:
    """Start a score sheet through its form and return its pages (sheet, edit, new hand)."""
    page.goto(page.base + "/settle/sheets/")
    page.fill("#id_name_0", "老王")
    page.click("form button.primary")
    page.wait_for_url(re.compile(r"/settle/sheets/\d+/$"))
    sheet = page.url.removeprefix(page.base)
    return [sheet, sheet + "edit/", sheet + "hands/new/"]


def play_pages(page) -> list[str]:
    """Sit down at a table through /play/'s form and return the table, with and without hints."""
    page.goto(page.base + "/play/")
    page.click("#start-game")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    table = page.url.removeprefix(page.base)
    return [table, table + "?hint=1"]


def all_pages(page) -> list[str]:
    """The fixed pages, a drill, a 算番 quiz item, a score sheet's pages and a play table (made for this test)."""
    puzzle = discard_puzzle("34556p123789sZZZ")
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    return FIXED + [f"/drills/{puzzle.pk}/", f"/learn/quiz/{quiz.pk}/"] + sheet_pages(page) + play_pages(page)


def switch_to_english(page) -> None:
    """Use the site's own language switch (in the menu on a phone, in the header on a desktop)."""
    page.goto(page.base + "/learn/")
    menu = page.locator(".menu summary")
    if menu.is_visible():
        menu.click()
    page.get_by_role("button", name="English").click()
    page.wait_for_function("document.documentElement.lang === 'en'")

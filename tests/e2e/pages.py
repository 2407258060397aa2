"""Every page of the site, for the walk that checks them all (tests/e2e/test_pages.py: axe-core, ARIA
references, tap targets, width), and the checks themselves."""

from __future__ import annotations

import re

from kwx.rules import PRESETS
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
    "/?hand=111p234p567p9p888s&rules=suizhou&cap=16&situation=liang_dao",
    "/town/",
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
    "/learn/towns/",
    *(f"/learn/towns/{key}/" for key in PRESETS),
    "/settle/",
    "/settle/sheets/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/logged-out/",
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


def drill_page(page) -> str:
    """A 何切 drill made for the test."""
    return f"/drills/{discard_puzzle('34556p123789sZZZ').pk}/"


def quiz_page(page) -> str:
    """A 算番 quiz item made for the test."""
    return f"/learn/quiz/{quiz_puzzle('4556p123789sZZZ', '5p').pk}/"


MADE = {
    "drill": drill_page,
    "quiz": quiz_page,
    "report": lambda page: drill_page(page) + "report/",
    "sheet": lambda page: sheet_pages(page)[0],
    "sheet-edit": lambda page: sheet_pages(page)[1],
    "sheet-new-hand": lambda page: sheet_pages(page)[2],
    "play-table": lambda page: play_pages(page)[0],
    "play-table-hints": lambda page: play_pages(page)[1],
}
"""The pages a test makes first (a puzzle, a score sheet through its form, a table through /play/'s form), by name."""
PAGES = FIXED + list(MADE)
"""Every page by its URL, or for a page that must be made first by its name in ``MADE``."""


def page_url(page, name: str) -> str:
    """The URL of a page of ``PAGES``, making what it shows first when it is one of ``MADE``."""
    return MADE[name](page) if name in MADE else name


def switch_to_english(page) -> None:
    """Use the site's own language switch (in the menu on a phone, in the header on a desktop)."""
    page.goto(page.base + "/learn/")
    menu = page.locator(".menu summary")
    if menu.is_visible():
        menu.click()
    page.get_by_role("button", name="English").click()
    page.wait_for_function("document.documentElement.lang === 'en'")


SMALL_TARGETS = """() => {
  const out = [];
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary";
  for (const el of document.querySelectorAll(controls)) {
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;          // not shown (closed <details>, other width)
    if (getComputedStyle(el).visibility === "hidden" || el.classList.contains("skip")) continue;
    const label = el.closest("label") || (el.id && document.querySelector(`label[for="${el.id}"]`));
    if ((el.type === "checkbox" || el.type === "radio") && label) box = label.getBoundingClientRect();
    if (box.width >= 43.5 && box.height >= 43.5) continue;
    // WCAG 2.5.8's inline exception: a link inside a sentence of other text
    if (el.tagName === "A" && getComputedStyle(el).display === "inline") {
      const around = Array.from(el.parentElement.childNodes).filter(n => n !== el).map(n => n.textContent).join("").trim();
      if (around) continue;
    }
    out.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""} "${(el.innerText || el.value || "").trim().slice(0, 24)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  return out;
}"""

DANGLING = """() => {
  const out = [];
  for (const el of document.querySelectorAll("[aria-describedby], [aria-labelledby], [aria-controls]")) {
    for (const name of ["aria-describedby", "aria-labelledby", "aria-controls"]) {
      for (const id of (el.getAttribute(name) || "").split(/\\s+/).filter(Boolean)) {
        if (!document.getElementById(id)) out.push(`${el.tagName.toLowerCase()}#${el.id} ${name}=${id}`);
      }
    }
  }
  return out;
}"""


def fit_problems(page, width: int) -> list[str]:
    """What does not fit a phone on the page as loaded: tap targets under 44 px, a header of more than
    one row or whose main links do not fit, anything that scrolls sideways."""
    problems = list(page.evaluate(SMALL_TARGETS))
    header = page.locator(".site-header").bounding_box()
    if header["height"] > 56:
        problems.append(f"header {header['height']:.0f} px high (more than one row)")
    if page.evaluate("(n => n.scrollWidth > n.clientWidth + 1)(document.querySelector('.nav'))"):
        problems.append("the main links do not all fit the header")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        problems.append(f"{scroll} px wide, scrolls sideways")
    return problems


def dangling_references(page) -> list[str]:
    """ARIA references (describedby, labelledby, controls) to ids the page does not have."""
    return [f"dangling {d}" for d in page.evaluate(DANGLING)]

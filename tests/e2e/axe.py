"""axe-core in the browser tests: the script comes from the installed axe-playwright-python
package (its bundled axe.min.js, pinned in requirements-dev.txt), injected by the test, never fetched."""

from __future__ import annotations

from functools import cache
from importlib import resources

RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}, "resultTypes": ["violations"]}
"""The rules run, every one; ``resultTypes`` only spares axe-core the details of the rules passed (what it finds is the same)."""
RUN = """options => axe.run(document, options).then(result => result.violations.map(v => (
  {id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target.join(" "))})))"""
"""axe-core's run, answering only its violations: the whole result (every rule passed, with its nodes' HTML) took two to three
times as long to hand back from the browser as the rules took to run (issue 39 item 7)."""


@cache
def axe_source() -> str:
    """The text of axe.min.js as the package ships it."""
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def violations(page) -> list[dict]:
    """axe-core's violations on the page as it is now (each rule with the selectors it failed on)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())  # through DevTools, not a <script> the site's CSP would block
    return page.evaluate(RUN, RULES)


def assert_no_violations(page) -> None:
    """Fail with a readable list when axe-core finds anything on the page."""
    found = violations(page)
    assert not found, f"{page.url}: " + "; ".join(f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in found)

"""The house's shape, checked: the domain library stands alone, and bots and apps see the table only through a SeatView."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

KWX = ROOT / "kwx"
APPS = ("accounts", "analysis", "kwx_site", "learn", "play", "puzzles", "settlement")


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "migrations" not in p.parts)


def _imports(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Each import of a module: the module imported and the names taken from it."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend((a.name, ()) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append((node.module, tuple(a.name for a in node.names)))
    return out


@pytest.mark.parametrize("path", _modules(KWX), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_domain_library_imports_nothing_but_the_standard_library_and_itself(path):
    for module, _names in _imports(path):
        top = module.split(".")[0]
        assert top == "kwx" or top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {module}"


@pytest.mark.parametrize("app", APPS)
def test_no_app_imports_a_private_name_of_the_library(app):
    for path in _modules(ROOT / app):
        for module, names in _imports(path):
            if module.split(".")[0] == "kwx":
                assert not any(n.startswith("_") for n in names), f"{path.relative_to(ROOT)} imports a private name of {module}: {names}"


HIDDEN = {"Table", "SeatState", "view_for", "sample_world", "legal_actions", "apply"}
"""What a bot must not reach for: a whole table, another seat's state, the reader of hidden tiles."""


MEASURING = {"fit.py"}
"""Not bots: ``fit.py`` counts on whole tables what was hidden from a seat (is a hidden hand ready?) to fit the strong bot's figures."""


@pytest.mark.parametrize("path", [p for p in _modules(KWX / "bots") if p.name not in MEASURING], ids=lambda p: p.name)
def test_a_bot_module_never_takes_the_whole_table(path):
    for module, names in _imports(path):
        if module.startswith("kwx.table"):
            assert not HIDDEN & set(names), f"{path.name} imports {sorted(HIDDEN & set(names))} from {module}"
        assert module not in {f"kwx.bots.{m.removesuffix('.py')}" for m in MEASURING}, f"{path.name} imports {module}, which reads whole tables"

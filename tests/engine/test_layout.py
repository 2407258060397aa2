"""The house's shape, checked: the domain library stands alone, and bots and apps see the table only through a SeatView."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

KWX = ROOT / "kwx"
APPS = ("accounts", "analysis", "kwx_site", "learn", "play", "puzzles", "settlement", "tournaments")


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


OUTSIDE = (*APPS, "bench", "tests", "scripts")
"""Every folder of Python outside the library: the apps, the tests (which test through the public API too), the scripts."""


def _private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


@pytest.mark.parametrize("folder", OUTSIDE)
def test_nothing_outside_the_library_imports_a_private_name_of_it(folder):
    paths = _modules(ROOT / folder) + ([ROOT / "manage.py"] if folder == "scripts" else [])
    for path in paths:
        for module, names in _imports(path):
            if module.split(".")[0] == "kwx":
                private = [n for n in (*module.split("."), *names) if _private(n)]
                assert not private, f"{path.relative_to(ROOT)} imports a private name of {module}: {private}"
        reached = _private_attributes(path)
        assert not reached, f"{path.relative_to(ROOT)} reaches a private name of the library through a module: {reached}"


def _private_attributes(path: Path) -> list[str]:
    """``module._name`` where ``module`` is a name the file bound to a library module (``from kwx.bots import advised``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "kwx" and not node.level:
            modules.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] == "kwx")
    return [f"{node.value.id}.{node.attr}" for node in ast.walk(tree) if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules and _private(node.attr)]


HIDDEN = {"Table", "SeatState", "view_for", "sample_world", "legal_actions", "apply"}
"""What a bot must not reach for: a whole table, another seat's state, the reader of hidden tiles."""


MEASURING = {"control.py", "fit.py", "fit_judge.py", "fit_boosted.py"}
"""Not bots: ``fit.py`` counts on whole tables what was hidden from a seat (is a hidden hand ready?) to fit the strong bot's figures; ``fit_judge.py`` and ``fit_boosted.py`` read the money each seat made to fit the judge's evaluator and the boosted one's trees; ``control.py`` predicts a review's playouts from a whole sampled world."""


@pytest.mark.parametrize("path", [p for p in _modules(KWX / "bots") if p.name not in MEASURING], ids=lambda p: p.name)
def test_a_bot_module_never_takes_the_whole_table(path):
    for module, names in _imports(path):
        if module.startswith("kwx.table"):
            assert not HIDDEN & set(names), f"{path.name} imports {sorted(HIDDEN & set(names))} from {module}"
        assert module not in {f"kwx.bots.{m.removesuffix('.py')}" for m in MEASURING}, f"{path.name} imports {module}, which reads whole tables"


SUMMARY_MOST = 120
"""The most characters a docstring's first line (its summary) may have in the library; the detail goes below it."""


@pytest.mark.parametrize("path", _modules(KWX), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_docstring_of_the_library_opens_with_one_short_line(path):
    long = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and (doc := ast.get_docstring(node, clean=False)):
            summary = doc.strip().splitlines()[0]
            if len(summary) > SUMMARY_MOST:
                long.append(f"{getattr(node, 'name', '(module)')}: {len(summary)} characters")
    assert not long, f"{path.relative_to(ROOT)}: summaries longer than {SUMMARY_MOST} characters: {long}"

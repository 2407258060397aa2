"""Every setting kwx_site/settings.py reads from the environment is documented in docs/deploy.md and the README."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT

READERS = {"env_bool", "env_list"}


def environment_names() -> set[str]:
    """The names settings.py reads: ``os.environ.get``/``os.environ[...]``, its env_* helpers, and dj-database-url's DATABASE_URL."""
    tree = ast.parse((ROOT / "kwx_site" / "settings.py").read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            first = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
            if called in READERS | {"os.environ.get", "os.getenv"} and first is not None:
                names.add(first)
            elif called == "dj_database_url.config":
                names.add("DATABASE_URL")  # its default env name
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ" and isinstance(node.slice, ast.Constant):
            names.add(node.slice.value)
    return names


def test_the_parser_finds_the_settings_read_from_the_environment():
    names = environment_names()
    assert {"DEBUG", "SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS", "EMAIL_USE_TLS", "EV_RATE_CLIENT"} <= names
    assert len(names) > 25


@pytest.mark.parametrize("doc", ["docs/deploy.md", "README.md"])
def test_every_environment_setting_is_documented(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    missing = sorted(name for name in environment_names() if f"`{name}`" not in text and f"{name}=" not in text)
    assert missing == [], f"{doc} does not name {missing}"

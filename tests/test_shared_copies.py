"""The repository's copies of the shared files are the shared files, where ../shared is beside the clone."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT, SHARED, VECTORS

COPIES = [
    (VECTORS / "analyze.json", SHARED / "vectors" / "analyze.json"),
    (VECTORS / "hands.json", SHARED / "vectors" / "hands.json"),
    (VECTORS / "towns.json", SHARED / "vectors" / "towns.json"),
    (ROOT / "learn" / "data" / "kouque.txt", SHARED / "kouque.txt"),
    (ROOT / "bench" / "peer_mahjong.py", SHARED / "bench" / "peer_mahjong.py"),
    (ROOT / "learn" / "data" / "towns.json", SHARED / "vectors" / "towns.json"),
]


@pytest.mark.parametrize("copy, shared", COPIES, ids=[c.name for c, _ in COPIES])
def test_copy_equals_the_shared_file_when_it_is_there(copy, shared):
    text = copy.read_text(encoding="utf-8")
    assert text.strip()
    if copy.suffix == ".json":
        assert json.loads(text)["cases"]
    if shared.exists():
        assert text == shared.read_text(encoding="utf-8")


def test_the_learn_pages_copy_of_the_town_vectors_is_the_tests_copy():
    assert (ROOT / "learn" / "data" / "towns.json").read_text(encoding="utf-8") == (VECTORS / "towns.json").read_text(encoding="utf-8")

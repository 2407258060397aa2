"""Choices explained where they are made: each rules preset with the engine's own note, and the provisional "1500?"."""

from __future__ import annotations

import pytest

from kwx.hand.rules import PRESETS

pytestmark = pytest.mark.django_db


def html(client, url: str) -> str:
    response = client.get(url, follow=True)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("url", ["/?hand=4556p123s789sZZZ", "/settle/", "/settle/sheets/"])
def test_each_preset_is_explained_where_it_is_chosen(client, url):
    page = html(client, url)
    notes = page.split('id="rules-notes"')[1].split("</ul>")[0]
    for preset in PRESETS.values():
        assert f"<strong>{preset.name}</strong>: {preset.note}" in notes


def test_the_analyzer_marks_the_chosen_preset_and_links_its_notes(client):
    page = html(client, "/?hand=4556p123s789sZZZ&rules=shiyan")
    assert 'aria-describedby="rules-notes"' in page
    assert f'<li class="chosen"><strong>{PRESETS["shiyan"].name}</strong>' in page


def test_in_english_the_notes_are_english(client):
    client.cookies["django_language"] = "en"
    page = html(client, "/?hand=4556p123s789sZZZ")
    assert PRESETS["xiangyang"].note_en in page


def test_the_provisional_rating_is_explained(client):
    page = html(client, "/drills/")
    assert "1500?" in page
    assert "? 表示暂定" in page

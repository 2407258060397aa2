"""Choices explained where they are made: each rules preset with the engine's own note, and the provisional "1500?"."""

from __future__ import annotations

import pytest

from kwx.rules import PRESETS

pytestmark = pytest.mark.django_db


def html(client, url: str) -> str:
    response = client.get(url, follow=True)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("url", ["/?hand=4556p123s789sZZZ&rules={key}", "/settle/?rules={key}", "/settle/sheets/"])
@pytest.mark.parametrize("key", ["standard", "shiyan", "xiaogan"])
def test_the_chosen_preset_is_explained_where_it_is_chosen(client, url, key):
    page = html(client, url.format(key=key))
    shown = key if "{key}" in url else "standard"
    assert PRESETS[shown].note in page
    assert "/town/" in page  # every preset, with its note, one tap away


def test_the_town_page_explains_every_preset(client):
    page = html(client, "/town/")
    for preset in PRESETS.values():
        assert preset.note in page, preset.key


def test_the_analyzer_marks_the_chosen_preset_and_links_its_notes(client):
    page = html(client, "/?hand=4556p123s789sZZZ&rules=shiyan")
    assert 'aria-describedby="town-note"' in page
    assert f'id="town-note" class="town-note muted">{PRESETS["shiyan"].note}</p>' in page


def test_in_english_the_notes_are_english(client):
    client.cookies["django_language"] = "en"
    page = html(client, "/?hand=4556p123s789sZZZ&rules=xiangyang")
    assert PRESETS["xiangyang"].note_en in page


def test_the_provisional_rating_is_explained(client):
    page = html(client, "/drills/")
    assert "1500?" in page
    assert "? 表示暂定" in page

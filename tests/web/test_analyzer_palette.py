"""The analyzer's palette says why it is switched off and what its numbers mean (not only a faded grid)."""

from __future__ import annotations

import re

import pytest

from kwx.hand.tiles import TILE_IDS

pytestmark = pytest.mark.django_db


def page(client, url: str) -> str:
    response = client.get(url, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_a_full_hand_says_so_above_the_faded_palette(client):
    html = page(client, "/?hand=4556p123789sZZZ8p")
    assert 'id="palette-full"' in html
    assert "14 张" in html and "打哪张" in html
    assert len(re.findall(r'name="add" value="\w+" id="add-\w+" disabled', html)) == len(TILE_IDS)


def test_no_message_while_a_tile_can_still_be_added(client):
    assert 'id="palette-full"' not in page(client, "/?hand=4556p123789sZZZ")


def test_twelve_tiles_in_meld_mode_name_the_limit(client):
    html = page(client, "/?hand=4556p123789sZZ&to=pong")
    assert 'id="palette-full"' in html
    assert "14" in html.split('id="palette-full"')[1].split("</p>")[0]


def test_the_copies_left_are_labelled_in_text(client):
    html = page(client, "/?hand=5p")
    assert "牌角小数字：还剩几张" in html
    five = html.split('id="add-5p"')[1].split("</button>")[0]
    assert '<span class="visually-hidden">剩 3 张</span>' in five
    assert '<span class="count" aria-hidden="true">3</span>' in five

"""The analyzer's money lines (自摸 收 · 点炮 收 · 包胡 收) at the chosen base and 漂, a complete hand's
worth before the discard table, and 空听 waits. Every figure is the engine's (win_money)."""

from __future__ import annotations

import re

import pytest
from django.http import QueryDict

from analysis.board import canonical_query, read_board
from kwx import build_hand
from kwx.hand.rules import make_rules
from kwx.hand.scoring import score_win
from kwx.hand.tiles import KIND_OF_ID
from kwx.table.settlement import win_money

pytestmark = pytest.mark.django_db


def html(client, url: str) -> str:
    response = client.get(url, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def wait_html(page: str, tile: str) -> str:
    return page.split(f'data-tile="{tile}"')[1].split("</li>")[0]


def money_of(text: str, tile: str, base: int, piao: int, situation=()):
    hand, _ = build_hand(text)
    return win_money(hand, KIND_OF_ID[tile], make_rules("standard", list(situation)), base, piao)


def numbers(fragment: str) -> list[int]:
    return [int(n) for n in re.findall(r"<strong>(\d+)</strong>", fragment.split('class="az-money"')[1])]


@pytest.mark.parametrize("base, piao", [(1, 0), (5, 1), (20, 5)])
def test_each_wait_shows_the_engines_money(client, base, piao):
    page = html(client, f"/?hand=4556p123s789sZZZ&base={base}&piao={piao}")
    money = money_of("4556p123s789sZZZ", "5p", base, piao)
    assert numbers(wait_html(page, "5p")) == [money.self_draw, money.discard, money.bao_hu]
    assert f"每家 {money.self_draw_each}" in wait_html(page, "5p")
    assert f"底金 {base}、三家都漂 {piao}" in page


def test_a_pinghu_shows_no_discard_money(client):
    page = html(client, "/?hand=123456p789s11sZZ")
    money = money_of("123456p789s11sZZ", "Z", 1, 0)
    fragment = wait_html(page, "Z").split('class="az-money"')[1]
    assert "点炮 收 ✕" in fragment
    assert numbers(wait_html(page, "Z")) == [money.self_draw, money.bao_hu]


def test_with_liang_dao_chosen_a_discard_win_is_bao_hu(client):
    page = html(client, "/?hand=4556p123s789sZZZ&situation=liang_dao")
    money = money_of("4556p123s789sZZZ", "5p", 1, 0, ["liang_dao"])
    fragment = wait_html(page, "5p").split('class="az-money"')[1]
    assert "点炮 收" not in fragment  # it is the 包胡 figure
    assert numbers(wait_html(page, "5p")) == [money.self_draw, money.bao_hu]


def test_base_and_piao_stay_in_the_link_and_bad_ones_are_named():
    board = read_board(QueryDict("hand=4556p123s789sZZZ&base=5&piao=2"))
    assert canonical_query(board).endswith("base=5&piao=2")
    assert "base" not in canonical_query(read_board(QueryDict("hand=4556p123s789sZZZ&base=1&piao=0")))
    bad = read_board(QueryDict("hand=4556p123s789sZZZ&base=0&piao=3"))
    assert set(bad.errors) == {"base", "piao"}


def test_a_bad_base_leaves_the_analysis_standing(client):
    page = html(client, "/?hand=4556p123s789sZZZ&base=abc&piao=7")
    assert 'data-tile="5p"' in page
    error = page.split('id="stakes-error"')[1].split("</p>")[0]
    assert "底金" in error and "漂只能是 0、1、2 或 5" in error


def test_a_complete_hand_shows_its_worth_before_the_discard_table(client):
    page = html(client, "/?hand=4556p123s789sZZZ5p")
    assert "这 14 张已经和牌" in page
    wins = "".join(part.split("</ul>")[0] for part in page.split('class="az-waits az-wins"')[1:])
    assert page.index('class="az-waits az-wins"') < page.index('class="discards')
    # every tile that can have been the last one, the most valuable first (卡五星 on the 5筒), the others folded away
    full, _ = build_hand("4556p123s789sZZZ5p")
    winning = {t for t, k in KIND_OF_ID.items() if full.concealed[k] and score_win(full.with_tile(k, -1), k, make_rules())}
    shown = re.findall(r'data-tile="(\w+)"', wins)
    assert set(shown) == winning and len(shown) == len(winning) and shown[0] == "5p"
    assert "卡五星" in wins.split("</li>")[0] and "和这张" in wins
    assert page.index('id="other-wins"') > page.index(wins.split("</li>")[0])
    money = money_of("4556p123s789sZZZ", "5p", 1, 0)
    assert numbers(wins.split("</li>")[0]) == [money.self_draw, money.discard, money.bao_hu]


def test_a_wait_with_no_tile_left_is_flagged_kong_ting(client):
    page = html(client, "/?hand=4556p123s789sZZZ&visible=55p")
    assert "空听" in wait_html(page, "5p")
    assert "空听：和牌张已经一张不剩" in page
    assert "空听" not in html(client, "/?hand=4556p123s789sZZZ")

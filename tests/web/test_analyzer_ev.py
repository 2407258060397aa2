"""The analyzer's expected-value columns, their help page and danger against revealed (亮倒) hands."""

from __future__ import annotations

import functools
import re

import pytest
from django.http import QueryDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.board import canonical_query, read_board
from kwx import analyze
from kwx.hand.danger import dealing_in
from kwx.hand.ev import ASSUMPTIONS, EVParams, evaluate_discards, evaluate_hand
from kwx.hand.notation import parse_hand
from kwx.hand.rules import make_rules
from kwx.hand.tiles import EMPTY, TILE_IDS
from tests.ev_limits import low_ev_limits

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_cpu_backstop(monkeypatch):
    """Budgets count work units only, so the page and a second computation agree on a busy machine.

    The CPU-time backstop stops a request early when the machine is slow (its own test is in
    tests/engine/test_ev.py); here it would make the two differ.
    """
    from kwx.hand import ev, ev_analysis

    monkeypatch.setattr(ev_analysis, "Budget", functools.partial(ev.Budget, seconds=None))


HTMX = {"HTTP_HX_REQUEST": "true"}
HAND = "34556p123789sZZZ"  # ready after 3p, 6p or 中; 1-shanten after the others
REVEALED = "46p11456789sFFF"  # a 亮倒 hand waiting on 5p
EV_URL = f"/analyze/?hand={HAND}&ev=1&draws=4"


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def rows(html: str) -> list[tuple[str, str]]:
    """(discard, row html) of the discard table, in order."""
    return re.findall(r'<tr class="[^"]*" data-discard="(\w+)">(.*?)</tr>', html, re.S)


def cells(row: str) -> tuple[str, str, str]:
    """The figures a row shows: ready %, win %, expected score."""
    found = re.search(r'ready-p">([\d.]+)%.*?win-p"><strong>([\d.]+)%</strong>.*?score"><strong>([\d.]+)</strong>', row, re.S)
    assert found, row
    return found.groups()


def test_ev_columns_show_the_engine_figures_in_the_engine_order(client):
    html = page(client, EV_URL)
    for header in ("听牌率", "胡牌率"):
        assert f">{header}</th>" in html
    assert '>期望得分<small class="ev-if">若无人先和</small></th>' in html  # named for what it is
    assert "都假定若无人先和" in html and "近似值" not in html
    expected = evaluate_discards(parse_hand(HAND), EMPTY, make_rules("standard"), 4)
    shown = rows(html)
    assert [d for d, _ in shown] == [TILE_IDS[o.discard] for o in expected]
    for (_, row), option in zip(shown, expected):
        e = option.estimate
        assert cells(row) == (f"{100 * round(e.ready_probability, 4):.1f}", f"{100 * round(e.win_probability, 4):.1f}", f"{round(e.expected_score, 4):.2f}")
    assert "精确" in html and "蒙特卡洛" not in html
    assert 'href="/analyze/ev-help/?hand=34556p123789sZZZ&amp;ev=1&amp;draws=4"' in html


def test_without_ev_the_table_is_the_plain_one_with_the_button(client):
    html = page(client, f"/analyze/?hand={HAND}")
    assert ">胡牌率</th>" not in html and "win-p" not in html and 'id="ev-load"' not in html
    assert re.search(r'<button type="submit" name="ev" value="1" id="ev-button"', html)
    assert 'name="draws" value="12"' in html  # the default wall assumption


def test_step_back_rows_are_marked_for_reference_only(client):
    html = page(client, EV_URL)
    shanten = {TILE_IDS[o.discard]: o.estimate.shanten for o in evaluate_discards(parse_hand(HAND), EMPTY, make_rules("standard"), 4)}
    assert sorted(set(shanten.values())) == [0, 1]
    for discard, row in rows(html):
        assert ("仅供参考" in row) is (shanten[discard] > 0), discard
    first = rows(html)[0][1]
    assert "期望最高" in first


def test_liang_dao_when_ready_is_in_the_link_and_changes_the_score(client):
    plain = dict(rows(page(client, EV_URL)))
    declared = page(client, EV_URL + "&ldwr=1")
    assert cells(dict(rows(declared))["3p"])[2] != cells(plain["3p"])[2]
    box = re.search(r'<input[^>]*name="ldwr"[^>]*>', declared).group(0)
    assert "听牌即亮倒" in declared and " checked" in box
    assert " checked" not in re.search(r'<input[^>]*name="ldwr"[^>]*>', page(client, EV_URL)).group(0)


def test_a_thirteen_tile_hand_shows_its_own_figures(client):
    html = page(client, "/analyze/?hand=4556p123789sZZZ&ev=1&draws=2")
    e = evaluate_hand(parse_hand("4556p123789sZZZ"), EMPTY, make_rules("standard"), EVParams(2))
    assert cells(html) == (f"{100 * e.ready_probability:.1f}", f"{100 * round(e.win_probability, 4):.1f}", f"{round(e.expected_score, 4):.2f}")


def test_a_deep_hand_says_monte_carlo_with_samples_and_errors(client):
    html = page(client, "/analyze/?hand=124578p13479sZFB&ev=1&draws=2")
    body = analyze("124578p13479sZFB", depth="ev", draws_left=2)
    samples = sorted({o["samples"] for o in body["options"]})
    assert body["ev_complete"] is (samples == [1000])
    shown = f"{samples[0]} 局" if len(samples) == 1 else f"{samples[0]}–{samples[-1]} 局"
    assert f"蒙特卡洛模拟，{shown}" in html and 'class="pm">±' in html
    assert "期望最高" not in html  # no draw can make this hand win: no discard is marked best by EV


# --- htmx: the plain table first, the EV columns in a second request --------------------


def test_htmx_page_shows_a_progress_placeholder_then_the_fragment_fills_it(client):
    first = client.get(EV_URL, **HTMX)
    html = first.content.decode()
    assert first["HX-Push-Url"] == EV_URL
    assert re.search(r'id="ev-load" class="az-ev-status" role="status" hx-get="/analyze/\?hand=34556p123789sZZZ&amp;ev=1&amp;draws=4" hx-trigger="load"', html)
    assert "计算中" in html and 'class="az-spinner"' in html and "win-p" not in html
    assert html.count("pending") == len(rows(html)) == 11

    fragment = client.get(EV_URL, HTTP_HX_TRIGGER="ev-load", **HTMX)
    body = fragment.content.decode()
    assert body.lstrip().startswith('<section id="results"') and "HX-Push-Url" not in fragment
    assert 'id="ev-load"' not in body and len(rows(body)) == 11
    assert all(cells(row) for _, row in rows(body))
    assert "HX-Trigger" in fragment["Vary"]


def test_ev_button_submits_through_the_form(client):
    response = client.get(f"/analyze/?hand={HAND}&draws=3&ev=1", **HTMX)
    assert response["HX-Push-Url"] == f"/analyze/?hand={HAND}&ev=1&draws=3"
    html = response.content.decode()
    assert '<input type="hidden" name="ev" value="1">' in html and "隐藏期望值" in html


# --- the help page -------------------------------------------------------------------------


def test_help_page_in_chinese_lists_every_assumption_and_the_parameters(client):
    html = page(client, "/analyze/ev-help/?hand=34556p123789sZZZ&ev=1&draws=7&ldwr=1")
    for a in ASSUMPTIONS:
        assert f"<h3>{a.title}</h3>" in html and a.text in html
    assert '<dd id="param-draws">7</dd>' in html and '<dd id="param-ldwr">是</dd>' in html
    assert 'href="/analyze/?hand=34556p123789sZZZ&amp;ev=1&amp;draws=7&amp;ldwr=1"' in html


def test_help_page_in_english(client):
    client.cookies["django_language"] = "en"
    html = page(client, "/analyze/ev-help/?ev=1&draws=12")
    assert '<html lang="en">' in html
    for a in ASSUMPTIONS:
        assert f"<h3>{a.title_en}</h3>" in html
    assert "How the expected values are computed" in html and '<dd id="param-ldwr">no</dd>' in html


# --- danger against a revealed hand ---------------------------------------------------------


@pytest.mark.parametrize("ev", ["", "&ev=1&draws=3"])
def test_dealing_in_tiles_are_marked_and_never_advised(client, ev):
    danger = dealing_in(parse_hand(REVEALED), make_rules("standard"))
    assert [TILE_IDS[k] for k in danger] == ["5p"]
    html = page(client, f"/analyze/?hand={HAND}&rev1={REVEALED}{ev}")
    marked = re.findall(r'class="tile-button az-danger" name="remove_tile" value="(\w+)"', html)
    assert marked == ["5p", "5p"]
    shown = rows(html)
    last, row = shown[-1]
    assert last == "5p" and "危险 · 包胡" in row and "最佳" not in row and "期望最高" not in row
    assert not any("危险" in r for _, r in shown[:-1])
    assert 'class="az-danger-note"' in html


def test_dealing_in_on_a_thirteen_tile_hand_marks_the_held_tiles(client):
    html = page(client, f"/analyze/?hand=4556p123789sZZZ&rev2={REVEALED}")
    assert re.findall(r'class="tile-button az-danger" name="remove_tile" value="(\w+)"', html) == ["5p", "5p"]


def test_revealed_tiles_count_as_seen(client):
    html = page(client, f"/analyze/?hand=4556p123789sZF&rev1={REVEALED}")
    assert re.search(r'id="add-F"[^>]*disabled', html)  # three 发 revealed and one in the hand
    assert 'name="rev1" value="46p11456789sFFF"' in html


@pytest.mark.parametrize(
    "query, field, words",
    [
        (f"hand={HAND}&rev1=46p", "rev1", "13"),
        (f"hand={HAND}&rev2=1p4p7p1s4s7sZFB258p9s", "rev2", "听牌"),
        (f"hand={HAND}&rev1=46p11456789sFFQ", "rev1", "Q"),
        (f"hand={HAND}&rev1=" + "1" * 61 + "p", "rev1", "60"),
        (f"hand={HAND}&rev1=4556p123789sZZZ", "revealed", "中"),
        (f"hand={HAND}&ev=1&draws=0", "draws", "30"),
        (f"hand={HAND}&ev=1&draws=abc", "draws", "30"),
        (f"hand={HAND}&ev=1&draws=%C2%B2", "draws", "30"),  # ², a digit to str.isdigit, not to int()
        (f"hand={HAND}&ev=1&draws=99", "draws", "30"),
    ],
)
def test_bad_revealed_or_draws_input_shows_inline_and_keeps_the_table(client, query, field, words):
    for headers in ({}, HTMX):
        response = client.get("/analyze/?" + query, **headers)
        assert response.status_code == 200
        html = response.content.decode()
        pattern = rf'id="{field}-error" class="az-error" role="alert">([^<]+)<' if field != "revealed" else r'<p class="az-error" role="alert">([^<]+)<'
        message = re.search(pattern, html)
        assert message and words in message.group(1), (field, message)
        assert len(rows(html)) == 11 and "win-p" not in html
        assert response.get("HX-Push-Url") in (None, "false")


def test_more_draws_than_unseen_tiles_is_refused_without_a_loop(client):
    crowded = f"/analyze/?hand={HAND}&visible=11112222777788889999p333p444455556666sFFFFBBBB&ev=1&draws=30"
    error = r'id="draws-error" class="az-error" role="alert">([^<]+)<'
    moved = client.get(crowded)  # the link is not canonical (333p): redirected before any EV work
    assert moved.status_code == 302 and "p333p" not in moved["Location"] and moved["Location"].endswith("&ev=1&draws=30")
    html = page(client, moved["Location"])  # the canonical link shows the error and stays
    assert "27" in re.search(error, html).group(1) and len(rows(html)) == 11
    fragment = client.get(crowded, HTTP_HX_TRIGGER="ev-load", **HTMX).content.decode()
    assert "27" in re.search(error, fragment).group(1)
    assert 'id="ev-load"' not in fragment  # the placeholder does not ask again


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.dictionaries(
        st.sampled_from(["hand", "rev1", "rev2", "ev", "draws", "ldwr", "visible", "discard"]),
        st.text(max_size=20) | st.sampled_from([HAND, REVEALED, "4556p123789sZZZ", "1", "0", "31", "[555p]", "5p"]),
    )
)
def test_no_ev_or_revealed_query_gives_a_server_error(client, query):
    expected = (400,) if any("\x00" in v for v in query.values()) else (200, 302)  # a NUL: refused before any view
    for headers in ({}, HTMX, {**HTMX, "HTTP_HX_TRIGGER": "ev-load"}):
        assert client.get("/analyze/", query, **headers).status_code in expected


def test_canonical_query_keeps_ev_and_revealed_and_drops_draws_without_ev():
    query = f"hand={HAND}&ldwr=1&draws=5&ev=1&rev2={REVEALED}&rev1=46p456s789sFFF11s"
    once = canonical_query(read_board(QueryDict(query)))
    assert once == f"hand={HAND}&rev1={REVEALED}&rev2={REVEALED}&ev=1&draws=5&ldwr=1"
    assert canonical_query(read_board(QueryDict(once))) == once
    assert canonical_query(read_board(QueryDict(f"hand={HAND}&draws=5&ldwr=1"))) == f"hand={HAND}"


@pytest.mark.parametrize("draws", ["abc", "0", "99"])
def test_a_bad_draws_value_names_the_pages_field_in_both_languages(client, draws):
    error = r'id="draws-error" class="az-error" role="alert">([^<]+)<'
    chinese = re.search(error, page(client, f"/analyze/?hand={HAND}&ev=1&draws={draws}")).group(1)
    assert chinese.startswith("剩余摸牌须是 1 到 30 的整数") and "draws_left" not in chinese
    english = re.search(error, client.get(f"/analyze/?hand={HAND}&ev=1&draws={draws}", HTTP_ACCEPT_LANGUAGE="en").content.decode()).group(1)
    assert english.startswith("Own draws left must be a whole number from 1 to 30") and "draws_left" not in english


COSTLIEST = "13579p13579sZFB1p"  # the most work one EV request can ask for: 30 draws, deep options sampled


def test_the_costliest_page_stays_within_its_budget_and_says_it_is_approximate(client):
    html = page(client, "/analyze/?hand=113579p13579sZFB&ev=1&draws=30&ldwr=1")  # the canonical link
    body = analyze(COSTLIEST, depth="ev", draws_left=30, liang_dao_when_ready=True)
    assert body["ev_complete"] is False
    assert "近似值：这次请求用完了计算量上限" in html
    low = min(o["samples"] for o in body["options"] if o["method"] == "monte_carlo")
    high = max(o["samples"] for o in body["options"] if o["method"] == "monte_carlo")
    assert f"蒙特卡洛模拟，{low}–{high} 局" in html and high < 1000
    assert [d for d, _ in rows(html)] == [o["discard"] for o in body["options"]]


@pytest.fixture
def limits(settings, tmp_path, stopped_clock):
    low_ev_limits(settings, tmp_path, "2/min", "50/min")


def test_the_page_limits_ev_per_client_and_keeps_the_plain_table(client, limits):
    for _ in range(2):
        assert "win-p" in page(client, EV_URL)
    html = page(client, EV_URL)
    assert "你的期望值请求太多了，请 60 秒后再试" in html and "win-p" not in html
    assert rows(html) and 'id="ev-load"' not in html  # the plain table, and no placeholder that would ask again
    assert f'<a href="{EV_URL.replace("&", "&amp;")}">再试一次</a>' in html
    fragment = client.get(EV_URL, HTTP_HX_TRIGGER="ev-load", **HTMX).content.decode()
    assert "你的期望值请求太多了" in fragment and "win-p" not in fragment
    assert "win-p" in client.get(EV_URL, REMOTE_ADDR="10.0.0.7").content.decode()  # another client still gets them


def test_the_page_says_when_the_server_is_busy_with_other_ev_work(client, limits):
    from analysis.ev_limits import release_slot, take_slot

    held = take_slot()
    try:
        html = page(client, EV_URL)
        assert "服务器正在为别人计算期望值，请 1 秒后再试" in html and "win-p" not in html and rows(html)
        assert rows(page(client, f"/analyze/?hand={HAND}"))  # plain pages are not held up
    finally:
        release_slot(held)
    assert "win-p" in page(client, EV_URL)

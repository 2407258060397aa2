"""The analyzer page: state in the URL, edits, htmx fragments, errors, both languages."""

from __future__ import annotations

import random
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.http import QueryDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.board import apply_edit, canonical_query, read_board
from kwx import analyze
from kwx.hand.efficiency import best_discards, discard_options
from kwx.hand.fans import fan
from kwx.hand.notation import parse_hand
from kwx.hand.rules import PRESETS, make_rules
from kwx.hand.tiles import EMPTY, TILE_IDS
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def query_of(response) -> dict[str, list[str]]:
    return parse_qs(urlsplit(response["Location"]).query)


def html_of(client, url: str) -> str:
    """The page at ``url`` after any redirect to its canonical link."""
    response = client.get(url, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def board_after(query: str):
    board, edited = apply_edit(read_board(QueryDict(query)), QueryDict(query), random.Random(1))
    return board, edited


# --- the state in the URL -------------------------------------------------


def test_empty_page_offers_the_palette_and_examples(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('name="add" value=') == 21
    assert "4556p123s789sZZZ" in html  # an example link
    assert '<html lang="zh-Hans">' in html


@pytest.mark.parametrize("path", ["/", "/analyze/"])
def test_a_non_canonical_link_redirects_to_the_canonical_one(client, path):
    response = client.get(path, {"hand": "4556p 123s 789s 中中中", "rules": "shiyan", "situation": "liang_dao", "rob_kong": ["0", "1"], "pinghu_selfdraw_only": "0", "to": "hand"})
    assert response.status_code == 302
    assert response["Location"].startswith(path + "?")
    assert query_of(response) == {"hand": ["4556p123789sZZZ"], "rules": ["shiyan"], "situation": ["liang_dao"], "pinghu_selfdraw_only": ["0"]}


def test_canonical_query_is_a_fixed_point():
    for query in ["hand=46p11s[555p][FFF]{BBBB}&visible=55p&rules=xiangyang&situation=liang_dao&situation=hai_di_lao", "hand=4556p123789sZZZ8p&discard=8p&si_gui_yi_big_hand=1&to=pong", ""]:
        once = canonical_query(read_board(QueryDict(query)))
        assert canonical_query(read_board(QueryDict(once))) == once


def test_thirteen_tiles_ready_shows_each_wait_with_its_value(client):
    html = html_of(client, "/?hand=4556p123789sZZZ")
    assert "听牌" in html
    wait = re.search(r'<li class="az-wait" data-tile="5p">.*?</li>', html, re.S).group(0)
    assert f"×{fan('ka_wu_xing').multiplier('standard')}" in wait and 'href="/learn/fans/#ka_wu_xing"' in wait
    assert "2 left" in wait or "剩" in wait or "余" in wait


def test_fan_breakdown_multiplies_and_shows_the_cap(client):
    html = html_of(client, "/?hand=1122334456677p")
    wait = re.search(r'data-tile="5p">.*?</li>', html, re.S).group(0)
    pure, pairs = fan("qing_yi_se").multiplier("standard"), fan("qi_dui").multiplier("standard")
    assert re.search(rf"清一色</a> ×{pure} · .*七对</a> ×{pairs} = ×{pure * pairs}", wait)
    capped = html_of(client, "/?hand=1122334456677p&rules=xiangyang")
    cap = PRESETS["xiangyang"].cap
    capped_wait = re.search(r'data-tile="5p">.*?</li>', capped, re.S).group(0)
    assert pure * pairs > cap and f"= ×{pure * pairs} →" in capped_wait and f"×{cap}</strong>" in capped_wait


def test_a_discard_win_on_pinghu_is_marked_not_allowed(client):
    body = analyze("123456789p1178s")
    assert any(not w["discard"]["allowed"] for w in body["waits"])
    html = html_of(client, "/?hand=123456789p1178s")
    assert "az-side az-no" in html and "屁胡" in html


def test_not_ready_shows_shanten_in_words_and_effective_tiles(client):
    body = analyze("1358p246799sZFB")
    html = html_of(client, "/?hand=1358p246799sZFB")
    assert "向听" in html
    assert f"{body['ukeire']['total']}" in re.search(r'class="az-effective">.*?</div>', html, re.S).group(0)


def test_fourteen_tiles_show_the_discard_table_with_the_engine_best_rows(client):
    hand = "4556p123789sZZZ8p"
    html = html_of(client, "/?hand=45568p123789sZZZ")
    full = parse_hand(hand)
    best = {TILE_IDS[k] for k in best_discards(discard_options(full, EMPTY, make_rules()))}
    rows = re.findall(r'<tr class="([^"]*)" data-discard="(\w+)">', html)
    assert {d for _, d in rows} == {o["discard"] for o in analyze(hand)["options"]}
    assert {d for cls, d in rows if "best" in cls.split()} == best == {"8p"}


def test_choosing_a_row_shows_its_thirteen_tile_analysis_and_a_link_to_play_it(client):
    html = html_of(client, "/?hand=45568p123789sZZZ&discard=4p")
    assert '<input type="hidden" name="discard" value="4p">' in html  # kept when the rules change
    assert 'class=" chosen" data-discard="4p"' in html
    assert "/?hand=5568p123789sZZZ&amp;visible=4p" in html


# --- edits ------------------------------------------------------------------


def test_tapping_a_palette_tile_adds_it_and_redirects(client):
    response = client.get("/?hand=455p&add=6p&rules=shiyan")
    assert response.status_code == 303
    assert query_of(response) == {"hand": ["4556p"], "rules": ["shiyan"]}


def test_a_fifth_copy_cannot_be_added_and_its_button_is_disabled(client):
    board, _ = board_after("hand=5555p&visible=&add=5p")
    assert board.notice and board.hand.concealed[4] == 4
    html = html_of(client, "/?hand=555p&visible=5p")
    assert re.search(r'id="add-5p"[^>]*disabled', html)
    assert not re.search(r'id="add-4p"[^>]*disabled', html)


def test_no_more_than_fourteen_tiles(client):
    board, _ = board_after("hand=45568p123789sZZZ&add=1p")
    assert board.tile_count == 14 and board.notice
    html = html_of(client, "/?hand=45568p123789sZZZ")
    assert html.count("disabled") >= 21


@pytest.mark.parametrize(
    ("query", "hand", "visible"),
    [
        ("hand=46p11s&to=pong&add=5p", "46p11s[555p]", ""),
        ("hand=46p11s&to=kong&add=F", "46p11s[FFFF]", ""),
        ("hand=46p11s&to=concealed_kong&add=B", "46p11s{BBBB}", ""),
        ("hand=46p11s[555p][FFF]&remove_meld=0", "46p11s[FFF]", ""),
        ("hand=4556p&remove_tile=5p", "456p", ""),
        ("hand=4556p&remove_tile=Z", "4556p", ""),
        ("hand=4556p&add_visible=5p", "4556p", "5p"),
        ("hand=4556p&visible=55p&remove_visible=5p", "4556p", "5p"),
        ("hand=4556p&visible=55p&clear=1", "", ""),
    ],
)
def test_edits(query, hand, visible):
    from kwx.hand.notation import format_counts, format_hand

    board, edited = board_after(query)
    assert edited and not board.notice
    assert format_hand(board.hand) == hand
    assert format_counts(board.visible) == visible


def test_a_meld_number_int_cannot_read_removes_nothing():
    from kwx.hand.notation import format_hand

    board, _ = board_after("hand=46p11s[555p][FFF]&remove_meld=%C2%B2")  # ², a digit to str.isdigit
    assert format_hand(board.hand) == "46p11s[555p][FFF]"


def test_a_meld_needs_its_copies():
    board, _ = board_after("hand=55p&to=pong&add=5p")
    assert board.notice and not board.hand.melds


@pytest.mark.parametrize("size", ["13", "14"])
def test_random_hand_is_a_full_valid_hand(client, size):
    response = client.get("/", {"random": size, "visible": "5555p"})
    assert response.status_code == 303
    query = query_of(response)
    body = analyze(query["hand"][0], visible=query["visible"][0])
    assert body["tile_count"] == int(size) and "5p" not in query["hand"][0]


# --- htmx -------------------------------------------------------------------


def test_htmx_edit_returns_the_form_and_pushes_the_canonical_url(client):
    response = client.get("/?hand=455p&add=6p", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="app"') and "<html" not in html
    assert response["HX-Push-Url"] == "/?hand=4556p"
    assert "HX-Request" in response["Vary"]


def test_typing_updates_everything_but_the_text_box(client):
    response = client.get("/?hand=4556p123789sZZZ", HTTP_HX_TRIGGER_NAME="hand", **HTMX)
    html = response.content.decode()
    assert 'id="hand-text"' not in html
    for region in ("hand-error", "hand-view", "palette", "visible-view", "results"):
        assert re.search(rf'id="{region}"[^>]*hx-swap-oob="true"', html), region
    assert response["HX-Replace-Url"] == "/?hand=4556p123789sZZZ"
    bad = client.get("/?hand=4556", HTTP_HX_TRIGGER_NAME="hand", **HTMX)
    assert "HX-Replace-Url" not in bad and "“4556”" in bad.content.decode()


def test_history_restore_gets_the_full_page(client):
    response = client.get("/?hand=4556p123789sZZZ", HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert "<html" in response.content.decode()
    assert {"HX-Request", "HX-Trigger"} <= {v.strip() for v in response["Vary"].split(",")}
    assert "HX-Push-Url" not in response  # a restore shows the page the browser already has in its history


# --- errors and languages ---------------------------------------------------


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("hand=4556x", "hand", "x"),
        ("hand=4556", "hand", "4556"),
        ("hand=55555p12345678s", "hand", "5"),
        ("hand=4556p123789sZZZZZ", "hand", "15"),
        ("hand=4556p123789sZZZ&visible=ZZ", "visible", "4"),
        ("hand=4556p123789sZZZ&situation=gang_shang_pao&situation=qiang_gang_hu", "situation", "gang_shang_pao"),
        ("hand=4556p123789sZZZ&rules=wuhan", "rules", "wuhan"),
    ],
)
def test_bad_input_shows_the_engine_message_next_to_its_field(client, query, field, words):
    response = client.get("/?" + query)
    assert response.status_code == 200
    html = response.content.decode()
    message = re.search(r'class="az-error" role="alert"[^>]*>([^<]+)<', html)
    assert message and words in message.group(1)
    if field in ("hand", "visible"):
        assert re.search(rf'id="{field}-error" class="az-error" role="alert"[^>]*>[^<]', html)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.dictionaries(
        st.sampled_from(["hand", "visible", "rules", "situation", "add", "remove_tile", "remove_meld", "add_visible", "remove_visible", "random", "to", "discard", "rob_kong", "clear"]),
        st.text(max_size=30) | st.sampled_from(["4556p123789sZZZ", "5p", "14", "pong", "0", "[555p]"]),
    )
)
def test_no_query_gives_a_server_error(client, query):
    expected = (400,) if any("\x00" in v for v in query.values()) else (200, 302, 303)  # a NUL: refused before any view
    for headers in ({}, HTMX):
        assert client.get("/", query, **headers).status_code in expected


def test_english_page(client):
    client.cookies["django_language"] = "en"
    html = html_of(client, "/?hand=4556p123789sZZZ")
    assert '<html lang="en">' in html and "ready (听牌)" in html and "self-draw" in html


def test_own_css_and_js_stay_small():
    own = ["static/css/site.css", "static/css/analyzer.css", "static/js/analyzer.js"]
    assert sum((ROOT / name).stat().st_size for name in own) < 100_000
    assert isinstance(ROOT, Path)


@pytest.mark.parametrize(
    ("query", "tiles"),
    [
        ("hand=4556p123789sZZZ", 13),
        ("hand=34556p123789sZZZ", 14),
        ("hand=34556p123789sZZZ&rev1=46p11456789sFFF", 14),
        ("hand=34556p123789sZZZ&ev=1&draws=3", 14),
        ("hand=4556p123789sZZZ&ev=1&draws=3&rev1=46p11456789sFFF", 13),
        ("hand=123456789p11s{5555s}", 14),
    ],
)
def test_a_page_asks_the_engine_once(client, monkeypatch, query, tiles):
    """One ``analyze_hand`` per request, and inside it one ``discard_options``: nothing re-run by the view."""
    from analysis import presenter as view
    from kwx.hand import analysis as engine_analysis

    calls = {"analyze_hand": 0, "discard_options": 0}

    def counted(name, module):
        real = getattr(module, name)

        def wrapper(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    counted("analyze_hand", view)
    counted("discard_options", engine_analysis)
    response = client.get("/analyze/?" + query)
    assert response.status_code == 200
    assert calls == {"analyze_hand": 1, "discard_options": 1 if tiles == 14 else 0}


@pytest.mark.parametrize(
    "query",
    [
        "hand=34556p123789sZZZ",
        "hand=34556p123789sZZZ&discard=3p&to=kong&rev1=46p11456789sFFF&ev=1&draws=4&base=3",
        "hand=44556p11s8p[555s]{BBBB}&situation=liang_dao&rules=shiyan",
    ],
)
def test_discard_links_are_each_rows_canonical_link(query):
    from dataclasses import replace

    from analysis.board import discard_links

    board = read_board(QueryDict(query))
    tiles = [TILE_IDS[k] for k, n in enumerate(board.hand.concealed) if n]
    links = discard_links(board, "/analyze/", tiles)
    assert links == {t: "/analyze/?" + canonical_query(replace(board, discard=t)) for t in tiles}


def test_a_link_to_redirect_gets_no_ev_work(client, monkeypatch):
    """A non-canonical EV link is redirected after the plain analysis alone: its EV figures are worked out once, at the canonical link."""
    from analysis import presenter as view

    asked = []
    real = view.analyze_hand

    def wrapper(*args, **kwargs):
        asked.append(kwargs.get("ev"))
        return real(*args, **kwargs)

    monkeypatch.setattr(view, "analyze_hand", wrapper)
    response = client.get("/analyze/?draws=3&ev=1&hand=ZZZ34556p123789s")
    assert response.status_code == 302 and response["Location"] == "/analyze/?hand=34556p123789sZZZ&ev=1&draws=3"
    assert asked == [None]  # one plain analysis, no EV request
    assert client.get(response["Location"]).status_code == 200 and len(asked) == 2 and asked[1] is not None

"""The learn pages: every fan with its multipliers, every example and couplet, both languages translated."""

from __future__ import annotations

import html
import re
from pathlib import Path

import polib
import pytest
from django.test import Client

from kwx.hand.fans import FANS
from kwx.rules import LEGACY_PRESETS
from learn import content as lc
from learn.towns import SOURCES
from tests.e2e.pages import FIXED

PAGES = [url for url in FIXED if url.startswith("/learn/")]
"""Every learn page (the whole site's walk lists them: tests/e2e/pages.py), the town pages included."""
LEARN_FILES = ("learn/templates/learn/", "learn/content.py", "learn/views.py", "learn/towns.py")
PO = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"


def _get(client: Client, url: str, lang: str) -> str:
    client.cookies["django_language"] = lang
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _visible_text(page: str) -> str:
    """The text a reader sees: no tags, scripts, code samples or attribute values."""
    page = re.sub(r"<(script|style|code)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'<span class="pinyin">.*?</span>', " ", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.fixture
def client(db):
    return Client()


@pytest.mark.parametrize("url", PAGES)
def test_pages_render_in_both_languages_with_a_title_and_the_navigation(client, url):
    for lang in ("zh-hans", "en"):
        page = _get(client, url, lang)
        assert re.search(r"<title>[^<]+· kwx</title>", page)
        assert page.count("<h1>") == 1
        for link in ('href="/"', 'href="/drills/"', 'href="/learn/"', 'href="/progress/"', 'href="/learn/fans/"', 'href="/learn/koujue/"', 'href="/learn/quiz/"'):
            assert link in page, (url, lang, link)


ENGLISH_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
ALLOWED_ENGLISH = {"API", "FSRS", "English", "kwx"} | {word for s in SOURCES if s.words is None for word in ENGLISH_WORD.findall(s.key)}
"""Words a Chinese page may show: the API link, the scheduler's name, the language switch, the site's name, the town rules' source names (GO-GOLD, NODE-A …)."""


@pytest.mark.parametrize("url", PAGES)
def test_chinese_pages_have_no_untranslated_sentences(client, url):
    text = _visible_text(_get(client, url, "zh-hans"))
    assert set(ENGLISH_WORD.findall(text)) <= ALLOWED_ENGLISH, url


def test_every_catalog_string_of_the_learn_pages_is_translated():
    po = polib.pofile(str(PO))
    mine = [e for e in po if not e.obsolete and any(f.startswith(LEARN_FILES) for f, _ in e.occurrences)]
    assert len(mine) > 200
    assert [e.msgid for e in mine if not e.msgstr or "fuzzy" in e.flags] == []


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_fans_page_shows_every_fan_with_its_multiplier_under_each_preset(client, lang):
    page = _get(client, "/learn/fans/", lang)
    for fan in FANS:
        assert f'id="{fan.key}"' in page
        row = re.search(rf'<tr><td><a href="#{fan.key}">{fan.name}</a>.*?</tr>', page, flags=re.S)
        assert row, fan.key
        cells = re.findall(r'<td class="num">×(\d+)</td>', row.group(0))
        assert cells == [str(fan.multiplier(p)) for p in LEGACY_PRESETS], fan.key
        assert (fan.definition_en if lang == "en" else fan.definition) in html.unescape(page)


def test_fans_page_links_every_example_to_the_analyzer_and_states_the_engines_values(client):
    page = html.unescape(_get(client, "/learn/fans/", "zh-hans"))
    for fan in FANS:
        for view in lc.fan_examples(fan.key):
            assert f'href="{view.url}"' in page
    for worked in lc.COMBINATION_EXAMPLES:
        assert f'href="{worked.url}"' in page
        assert (f"×{worked.total}" if worked.allowed else "不能和") in page
    for row in lc.PRESET_ROWS:
        for cell in row.cells():
            assert f'href="{cell["url"]}"' in page
    assert 'href="/learn/quiz/"' in page


def test_settlement_page_states_each_examples_payments(client):
    page = html.unescape(_get(client, "/learn/settlement/", "zh-hans"))
    for example in lc.SETTLEMENT_EXAMPLES:
        block = re.search(rf'id="example-{example.key}".*?</table>', page, flags=re.S).group(0)
        rows = re.findall(r"<td>([ABC]) → ([ABC])</td><td class=\"num\">(\d+)</td>", block)
        assert rows == [(p.payer, p.payee, str(p.amount)) for p in example.payments]


def test_shapes_and_tiles_pages_draw_their_examples(client):
    shapes = html.unescape(_get(client, "/learn/shapes/", "zh-hans"))
    for shape in lc.SHAPE_EXAMPLES:
        assert f'href="{shape.worked.url}"' in shapes
    tiles = _get(client, "/learn/tiles/", "zh-hans")
    for kind in ("1p", "9p", "1s", "9s", "Z", "F", "B"):
        assert f"tiles/{kind}.svg" in tiles
    for example in lc.NOTATION_EXAMPLES:
        assert html.escape(example.canonical) in tiles


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_koujue_page_has_every_couplet_with_its_note_and_drill_links(client, lang):
    page = _get(client, "/learn/koujue/", lang)
    for c in lc.couplets():
        assert f'id="couplet-{c.number}"' in page
        assert c.first in page and c.second in page
        for theme in lc.COUPLET_NOTES[c.number].themes:
            assert f'href="/drills/?mode=theme&amp;theme={theme}"' in page


@pytest.mark.django_db
def test_every_koujue_drill_link_opens_that_theme(client):
    page = _get(client, "/learn/koujue/", "zh-hans")
    links = set(re.findall(r'class="drill" href="([^"]+)"', page))
    assert len(links) >= 5
    for link in links:
        theme = link.rpartition("theme=")[2]
        response = client.get(html.unescape(link), follow=True)
        assert response.status_code == 200
        assert f'theme={theme}" aria-current="true"' in response.content.decode(), link


def test_glossary_links_every_term(client):
    page = html.unescape(_get(client, "/learn/glossary/", "en"))
    for term in lc.GLOSSARY:
        assert f'<a href="{term.url}">{term.term}</a>' in page


def test_glossary_anchors_exist_on_their_pages(client):
    cache: dict[str, str] = {}
    for term in lc.GLOSSARY:
        url, _, anchor = term.url.partition("#")
        if anchor:
            page = cache.setdefault(url, _get(client, url, "zh-hans"))
            assert f'id="{anchor}"' in page, term.url


def test_zhi_gang_money_is_paid_by_who_discarded_the_kong_tile(client):
    rows = re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td><td class=\"num\">", _get(client, "/learn/settlement/", "zh-hans"))
    assert dict(rows)["直杠"] == "只有放杠的人"  # not 点炮: 直杠 money is paid whatever the result
    english = dict(re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td><td class=\"num\">", _get(client, "/learn/settlement/", "en")))
    assert "fourth tile" in english["直杠"]

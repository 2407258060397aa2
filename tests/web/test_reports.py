"""Reporting a bad drill through the client: the button on every drill and quiz page, without JavaScript and with htmx, counted once,
limited like other writes; the staff page (staff only) that lists and resolves them; the mark on a reported drill's page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from puzzles import limits
from puzzles.models import DrillReport, Puzzle
from tests.puzzles.factories import discard_puzzle, ensure_bank, quiz_puzzle, table_drill

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _windows_stand_still(stopped_clock):
    """No limit's window ends while a loaded machine works through a test's requests."""


@pytest.fixture
def drill() -> Puzzle:
    return discard_puzzle("34556p123789sZZZ")


def report_form(html: str) -> str:
    found = re.search(r'<section id="report".*?</section>', html, re.S)
    assert found, "no report section"
    return found.group(0)


def staff_client() -> Client:
    User.objects.create_user("boss", password="pw-12345678", is_staff=True)
    client = Client()
    client.login(username="boss", password="pw-12345678")
    return client


def test_every_kind_of_drill_and_the_quiz_has_the_report_form():
    ensure_bank("table_bank")
    pages = [f"/drills/{discard_puzzle('34556p123789sZZZ').pk}/", f"/learn/quiz/{quiz_puzzle('4556p123789sZZZ', '5p').pk}/"]
    pages += [f"/drills/{table_drill(kind).pk}/?mode=rated&kind={kind}" for kind in Puzzle.TABLE_KINDS]
    for url in pages:
        form = report_form(Client().get(url).content.decode())
        pk = re.search(r"/(\d+)/", url).group(1)
        assert f'action="/drills/{pk}/report/"' in form and f'hx-post="/drills/{pk}/report/"' in form and "csrfmiddlewaretoken" in form, url
        assert [k for k, _ in DrillReport.KINDS] == re.findall(r'name="kind" value="(\w+)"', form)
        assert f'maxlength="{DrillReport.TEXT_MAX}"' in form and "答案错了" in form and "局面不可能出现" in form and "解释错了" in form
        assert f'name="next" value="{url}"' in form.replace("&amp;", "&")  # back to this very page, its mode kept


def test_a_report_without_javascript_comes_back_to_the_drill_which_is_marked(drill):
    client = Client()
    url = f"/drills/{drill.pk}/?mode=rated"
    assert 'data-testid="open-reports"' not in client.get(url).content.decode()
    response = client.post(f"/drills/{drill.pk}/report/", {"kind": "position", "text": "a sixth 5p", "next": url})
    assert response.status_code == 302 and response["Location"] == f"{url}&reported=new#report"
    page = client.get(response["Location"]).content.decode()
    assert "谢谢：报告已记下" in page and "已被报告：1 条未处理" in page
    again = client.post(f"/drills/{drill.pk}/report/", {"kind": "position", "text": "", "next": url})  # a double submit
    assert again["Location"] == f"{url}&reported=again#report" and DrillReport.objects.count() == 1
    assert "同一报告只记一次" in client.get(again["Location"]).content.decode()
    assert DrillReport.objects.get().text == "a sixth 5p"


def test_a_report_with_htmx_swaps_the_section_and_the_mark(drill):
    response = Client().post(f"/drills/{drill.pk}/report/", {"kind": "answer", "text": "Z is better"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body and body.lstrip().startswith('<section id="report"')
    assert "谢谢：报告已记下" in body and 'id="report-mark" class="report-mark" hx-swap-oob="true"' in body and "已被报告：1 条未处理" in body
    assert DrillReport.objects.get().kind == "answer"


def test_bad_words_are_a_400_naming_the_field_and_nothing_is_stored(drill):
    client = Client()
    other = client.post(f"/drills/{drill.pk}/report/", {"kind": "other", "text": ""}, HTTP_HX_REQUEST="true")
    assert other.status_code == 400 and "请用几句话说明哪里有误" in other.content.decode() and "<details open" in other.content.decode()
    long = client.post(f"/drills/{drill.pk}/report/", {"kind": "answer", "text": "很" * 501})
    assert long.status_code == 400 and "<html" in long.content.decode() and "最多 500 个字（你写了 501 个）" in long.content.decode()
    nothing = client.post(f"/drills/{drill.pk}/report/", {"text": "?"}, HTTP_ACCEPT_LANGUAGE="en")
    assert nothing.status_code == 400 and "Say what is wrong: pick one of the choices." in nothing.content.decode()
    assert not DrillReport.objects.exists()


def test_a_report_comes_back_only_to_its_own_drill(drill):
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    for asked in ("https://evil.example/", f"/learn/quiz/{quiz.pk}/", "//evil.example/drills/", ""):
        response = Client().post(f"/drills/{drill.pk}/report/", {"kind": "answer", "next": asked})
        assert response["Location"].startswith(f"/drills/{drill.pk}/?reported="), asked
    response = Client().post(f"/drills/{quiz.pk}/report/", {"kind": "answer", "next": f"/learn/quiz/{quiz.pk}/?mode=review"})
    assert response["Location"] == f"/learn/quiz/{quiz.pk}/?mode=review&reported=new#report"


def test_the_report_page_alone_works_for_a_get(drill):
    html = Client().get(f"/drills/{drill.pk}/report/").content.decode()
    assert "<details open>" in html and f'href="/drills/{drill.pk}/"' in html
    assert Client().get("/drills/999999/report/").status_code == 404


def test_reports_are_limited_like_other_writes(drill):
    client = Client()
    codes = [client.post(f"/drills/{drill.pk}/report/", {"kind": "answer"}).status_code for _ in range(limits.REPORTS_PER_PLAYER + 1)]
    assert codes == [302] * limits.REPORTS_PER_PLAYER + [429]
    refused = client.post(f"/drills/{drill.pk}/report/", {"kind": "position"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0 and "报告太多次" in refused.content.decode()
    assert DrillReport.objects.count() == 1


def test_reports_need_csrf(drill):
    assert Client(enforce_csrf_checks=True).post(f"/drills/{drill.pk}/report/", {"kind": "answer"}).status_code == 403


def test_the_staff_page_is_staff_only():
    User.objects.create_user("wang", password="pw-12345678")
    member = Client()
    member.login(username="wang", password="pw-12345678")
    for client in (Client(), member):
        assert client.get("/drills/reports/").status_code == 404
        assert client.post("/drills/reports/resolve/", {"drill": "1"}).status_code == 404
    assert staff_client().get("/drills/reports/").status_code == 200


def test_staff_see_the_most_reported_drill_first_and_resolve_them(drill):
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    Client().post(f"/drills/{drill.pk}/report/", {"kind": "answer", "text": "<b>3p</b> is not best"})
    for kind in ("position", "answer"):
        Client().post(f"/drills/{quiz.pk}/report/", {"kind": kind})
    staff = staff_client()
    html = staff.get("/drills/reports/").content.decode()
    assert html.index(f"#{quiz.key}") < html.index(f"#{drill.key}") and "2 条未处理" in html and "&lt;b&gt;3p&lt;/b&gt; is not best" in html
    one = DrillReport.objects.filter(puzzle=quiz, kind="answer").get()
    fragment = staff.post("/drills/reports/resolve/", {"drill": quiz.pk, "report": one.pk}, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="reports">') and "<html" not in fragment and "1 条未处理" in fragment
    response = staff.post("/drills/reports/resolve/", {"drill": quiz.pk})
    assert response.status_code == 302 and response["Location"] == "/drills/reports/"
    html = staff.get("/drills/reports/").content.decode()
    assert f"#{quiz.key}" not in html and f"#{drill.key}" in html
    assert 'data-testid="open-reports"' not in Client().get(f"/learn/quiz/{quiz.pk}/").content.decode()
    staff.post("/drills/reports/resolve/", {"drill": drill.pk})
    assert 'data-testid="no-reports"' in staff.get("/drills/reports/").content.decode()
    bad = staff.post("/drills/reports/resolve/", {"drill": "x"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and "No such drill." in bad.content.decode()

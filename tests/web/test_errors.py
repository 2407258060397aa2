"""Production error pages: 404, 500, 403 and 400 in the site's layout and language, each with a way back."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.utils import translation

from kwx_site import urls
from kwx_site.views import server_error

LINKS = ('href="/"', 'href="/drills/"', 'href="/learn/"', 'href="/settle/"')


def _is_site_page(html: str) -> bool:
    return 'class="site-header"' in html and 'class="site-footer"' in html and all(link in html for link in LINKS)


@pytest.mark.django_db
@pytest.mark.parametrize("lang, words", [("zh-hans", "这个页面不存在"), ("en", "This page does not exist")])
def test_a_missing_page_is_a_404_in_the_site_layout_and_language(settings, lang, words):
    assert settings.DEBUG is False
    for url in ("/no-such-page/", "/drills/999999/", "/learn/quiz/999999/", "/settle/sheets/999999/"):
        r = Client().get(url, HTTP_ACCEPT_LANGUAGE=lang)
        html = r.content.decode()
        assert r.status_code == 404 and words in html and _is_site_page(html), url
    assert "/no-such-page/" in Client().get("/no-such-page/").content.decode()


@pytest.mark.django_db
@pytest.mark.urls("tests.web.error_urls")
@pytest.mark.parametrize("lang, words", [("zh-hans", "服务器出了点问题"), ("en", "Something went wrong on our side")])
def test_a_failing_view_is_a_500_in_the_site_layout_and_language(settings, lang, words):
    assert settings.DEBUG is False  # production: the page, not the debug traceback
    r = Client(raise_request_exception=False).get("/boom/", HTTP_ACCEPT_LANGUAGE=lang)
    html = r.content.decode()
    assert r.status_code == 500 and words in html and _is_site_page(html)
    assert 'name="language"' not in html  # no CSRF token without a request, so no language switch that would fail


def test_the_500_page_needs_no_database_and_no_request_context():
    """No django_db mark: any query here raises. The request has no session and no user."""
    assert urls.handler500 == "kwx_site.views.server_error"
    request = RequestFactory().get("/anything/")
    with translation.override("zh-hans"):
        response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500 and "服务器出了点问题" in html and _is_site_page(html)
    assert not hasattr(request, "user") and not hasattr(request, "session")


def test_the_500_page_falls_back_to_plain_html_when_its_template_fails(monkeypatch):
    from django.template import loader

    def broken(name):
        raise RuntimeError("template loader down")

    monkeypatch.setattr(loader, "get_template", broken)
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500 and "Server error" in response.content.decode()


@pytest.mark.django_db
def test_an_expired_form_is_a_403_page_in_the_layout(settings):
    client = Client(enforce_csrf_checks=True)
    r = client.post("/settle/", {"base": "1"})
    html = r.content.decode()
    assert r.status_code == 403 and "表单已过期" in html and _is_site_page(html)

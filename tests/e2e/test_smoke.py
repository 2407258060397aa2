"""The browser can reach the site: the API docs page renders its Swagger UI from our own files."""


def test_api_docs_render_in_chromium(page):
    page.goto(page.base + "/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock")
    assert "analyze" in page.content()

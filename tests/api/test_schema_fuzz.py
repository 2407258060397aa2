"""Schemathesis against our own OpenAPI schema: generated requests for every operation.

No 5xx, and every answer conforms to the schema: its status code is documented, its content
type and headers are, its body matches the documented schema, and a request the schema
forbids is refused. Not checked: that every schema-valid request is accepted, since no schema
can say which texts are hands (``hand=""`` is a string, and a 400).

Against a running server (``make serve-prod``), the same checks with the settings in
``schemathesis.toml``: ``.venv/bin/schemathesis run http://127.0.0.1:8000/api/schema/ --checks all
-H "Accept-Encoding: identity"``.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis import checks

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())

pytestmark = pytest.mark.django_db(transaction=True)

CONFORMANCE = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
    checks.negative_data_rejection,
]


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_answers_conform_to_the_schema(case):
    # identity: the WSGI test transport does not undo the site's gzip
    response = case.call(headers={"Accept-Encoding": "identity"})
    case.validate_response(response, checks=CONFORMANCE)
    if response.status_code >= 400:
        assert response.headers.get("content-type", [""])[0].startswith("application/json"), response.text[:300]
        assert set(response.json()) == {"error"}, response.text[:300]

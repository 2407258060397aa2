"""Schemathesis against our own OpenAPI schema: generated requests for every operation, no 5xx."""
from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())

pytestmark = pytest.mark.django_db(transaction=True)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case):
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, response.status_code, response.text[:500])
    if response.status_code >= 400 and response.headers.get("Content-Type", "").startswith("application/json"):
        assert set(response.json()) == {"error"}, response.text[:300]

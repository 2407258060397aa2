"""The town settlement vectors (a copy of ../shared/vectors/towns.json), every case through ``POST /api/v1/settle/``."""

from __future__ import annotations

import pytest

from tests.towns import TOWNS, api_request, assert_settles

URL = "/api/v1/settle/"


@pytest.mark.parametrize("case", TOWNS["cases"], ids=[c["id"] for c in TOWNS["cases"]])
def test_case(client, case):
    response = client.post(URL, api_request(case["request"]), content_type="application/json")
    assert response.status_code == 200, response.content.decode()
    assert_settles(case, response.json())


def test_every_preset_and_result_kind_is_covered():
    cases = TOWNS["cases"]
    assert len(cases) >= 30
    assert {c["request"].get("rules", "standard") for c in cases} >= {"standard", "xiangyang", "shiyan", "xiaogan", "xiangyang_town", "shiyan_town", "suizhou", "yicheng", "yingcheng"}
    assert {c["request"]["result"] for c in cases} == {"self_draw", "discard", "rob_kong", "draw"}

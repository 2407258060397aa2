"""kwx_site.figures: one rounding for every figure of a page, no "−0.0"."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from kwx_site.figures import figure


@pytest.mark.parametrize(
    "value, places, signed, text",
    [
        (0.575, 2, False, "0.58"),  # f"{0.575:.2f}" is "0.57": the binary value is just below
        (2.675, 2, False, "2.68"),
        (-0.575, 2, True, "−0.58"),
        (1.8249, 2, True, "+1.82"),
        (-0.004, 2, True, "0.00"),  # rounds to nothing: no sign
        (-0.04, 1, False, "0.0"),
        (0.0, 2, True, "0.00"),
        (12.25, 1, False, "12.3"),
        (None, 2, False, ""),
    ],
)
def test_one_rounding_half_up_and_no_signed_zero(value, places, signed, text):
    assert figure(value, places, signed) == text


def test_the_template_filters_write_the_same():
    out = Template("{% load kwx %}{{ a|figure }} {{ b|figure:1 }} {{ c|signed_figure }}").render(Context({"a": 0.575, "b": -0.04, "c": -0.575}))
    assert out == "0.58 0.0 −0.58"

"""The one reader of yes-or-no words (kwx_site/flags.py): settings, the analysis API and the analyzer's query all read through it."""

from __future__ import annotations

import pytest

from kwx_site.flags import read_flag


@pytest.mark.parametrize("text", ["1", "true", "yes", "on", "TRUE", " On "])
def test_true_words(text):
    assert read_flag(text) is True


@pytest.mark.parametrize("text", ["0", "false", "no", "off", "Off", " NO"])
def test_false_words(text):
    assert read_flag(text) is False


@pytest.mark.parametrize("text", ["", "2", "maybe", "truee", "o n"])
def test_any_other_text_is_neither(text):
    assert read_flag(text) is None


def test_an_empty_setting_is_false_and_a_stray_word_refused(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from kwx_site.settings import env_bool

    monkeypatch.setenv("KWX_TEST_FLAG", "")
    assert env_bool("KWX_TEST_FLAG", True) is False
    monkeypatch.setenv("KWX_TEST_FLAG", "Yes")
    assert env_bool("KWX_TEST_FLAG", False) is True
    monkeypatch.setenv("KWX_TEST_FLAG", "sometimes")
    with pytest.raises(ImproperlyConfigured):
        env_bool("KWX_TEST_FLAG", False)

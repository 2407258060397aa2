from django.apps import AppConfig


class LearnConfig(AppConfig):
    """The learn pages: rules, fans, settlement, glossary, the 口诀 and its memorise mode."""

    name = "learn"
    verbose_name = "卡五星 learn"

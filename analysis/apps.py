from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """The engine, the analysis API and the analyzer, learn and settlement pages."""

    name = "analysis"
    verbose_name = "卡五星 analysis"

    def ready(self) -> None:
        """Connect signal receivers (the settlement sheets follow a visitor into their account)."""
        from . import settlement_signals  # noqa: F401

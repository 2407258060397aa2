from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """The engine, the analysis API and the analyzer page."""

    name = "analysis"
    verbose_name = "卡五星 analysis"

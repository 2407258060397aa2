from django.apps import AppConfig


class KwxSiteConfig(AppConfig):
    """Project-wide pieces: system checks, base templates, the home page."""

    name = "kwx_site"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the checks)

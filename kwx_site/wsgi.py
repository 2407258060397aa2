"""WSGI entry point (gunicorn kwx_site.wsgi).

With ``gunicorn --preload`` (scripts/serve-prod.sh) the master imports every view,
loads the translation catalogs and the engine's tables and runs one analysis before
forking, so workers start warm and share those pages of memory; ``gc.freeze()`` then
keeps the collector from walking (and copying) those long-lived objects in every worker,
and a higher first-generation threshold keeps it from running several times per request.
"""
import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kwx_site.settings")
application = get_wsgi_application()


def _warm() -> None:
    from django.urls import get_resolver
    from django.utils import translation

    from analysis.engine import analyze

    get_resolver().url_patterns  # noqa: B018  (imports every view module)
    for language in ("zh-hans", "en"):
        with translation.override(language):
            translation.gettext("Analyze")
    analyze("4556p123789sZZZF")
    analyze("1122334455566p")


_warm()
gc.freeze()
# An analysis allocates a few thousand short-lived objects; with the default threshold (700)
# the collector would run several times per request for nothing (no cycles are made).
gc.set_threshold(20_000, 20, 20)

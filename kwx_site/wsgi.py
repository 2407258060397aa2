"""WSGI entry point (gunicorn kwx_site.wsgi).

With ``gunicorn --preload`` (scripts/serve-prod.sh) the master imports every view,
loads the translation catalogs and the engine's tables and fills the engine's per-block
caches before forking, so workers (and the workers gunicorn starts in place of retired
ones) start warm and share those pages of memory; ``gc.freeze()`` then keeps the collector
from walking (and copying) those long-lived objects in every worker.
"""

import gc
import os
import random

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kwx_site.settings")
application = get_wsgi_application()
WARM_HANDS = 4000


def _warm() -> None:
    from django.urls import get_resolver
    from django.utils import translation

    from kwx import analyze
    from kwx.hand.deal import practice_hand, random_hand
    from kwx.hand.efficiency import improving_draws
    from kwx.hand.notation import format_counts
    from kwx.hand.scoring import score_win

    get_resolver().url_patterns  # noqa: B018  (imports every view module)
    for language in ("zh-hans", "en"):
        with translation.override(language):
            translation.gettext("Analyze")
    # Fill the per-block caches (which kinds of a block help, given the rest of the hand) as
    # a few thousand analyses would: a cold worker answers a 14-tile hand about 40 % slower.
    # Whole-hand results are dropped again (about 1 s at start-up in all).
    rng = random.Random(0)
    for i in range(WARM_HANDS):
        analyze(format_counts(random_hand(rng, 14) if i % 2 else practice_hand(rng, 13 + i % 4 // 2)))
    improving_draws.cache_clear()
    score_win.cache_clear()


_warm()
gc.freeze()

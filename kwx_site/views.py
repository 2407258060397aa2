"""Project-wide views: the health check and the 500 page."""

import logging
import os

from django.conf import settings
from django.http import HttpRequest, HttpResponseServerError, JsonResponse
from django.template import loader
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

BARE_500 = '<!doctype html><html lang="zh-Hans"><meta charset="utf-8"><title>500</title><h1>服务器出错 · Server error</h1><p><a href="/">kwx</a></p>'
"""The last resort when even the 500 template fails to render."""


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for load balancers (and the load test's trivial baseline): no database, no template.

    While the ``DRAIN_FILE`` exists it answers 503 ``draining``, so the balancer stops sending
    new requests before the server is restarted (docs/deploy.md, rolling restarts).
    """
    if settings.DRAIN_FILE and os.path.exists(settings.DRAIN_FILE):
        return JsonResponse({"status": "draining"}, status=503)
    return JsonResponse({"status": "ok"})


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponseServerError:
    """The 500 page in the site's layout and active language; no request context, so no database or session."""
    try:
        body = loader.get_template(template_name).render({})
    except Exception:  # the page that reports an error must never raise one
        logger.exception("The 500 page failed to render")
        body = BARE_500
    return HttpResponseServerError(body)

"""Project-wide views."""
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for load balancers (and the load test's trivial baseline): no database, no template."""
    return JsonResponse({"status": "ok"})

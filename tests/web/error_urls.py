"""The site's URLs plus one view that fails, for the 500 page tests."""

from django.urls import path

from kwx_site.urls import handler500
from kwx_site.urls import urlpatterns as site_urls


def boom(request):
    """A view with a bug."""
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", boom), *site_urls]
__all__ = ["handler500", "urlpatterns"]

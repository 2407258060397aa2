"""Pages of the analysis app: the analyzer (``analyzer.urlpatterns``, joined in ``analysis.urls``)."""

"""Pages of the analysis app: the analyzer, the learn pages and the settlement calculator.

Each module holds one area's views and its ``urlpatterns``; ``analysis.urls`` joins them.
"""

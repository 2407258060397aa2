"""Project-wide tables: the rate-limit counters."""

from __future__ import annotations

from django.db import models


class RateCounter(models.Model):
    """One limit's count in its current fixed window (``kwx_site.limits``).

    A table of its own, not the cache: nothing evicts a counter before its window ends,
    however many other entries are written.
    """

    key = models.CharField(max_length=200, primary_key=True)
    count = models.PositiveIntegerField(default=0)
    window_start = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"

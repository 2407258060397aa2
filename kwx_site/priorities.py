"""The priorities of the background tasks (Django's tasks API, run by ``manage.py db_worker``)."""

from __future__ import annotations

OFFLINE_PRIORITY = -10
"""Shards of offline work (tournaments, table drills) wait behind the reviews (priority 0), which a player is waiting for."""

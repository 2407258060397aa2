"""Migration tests' one helper: migrate the test database to a state and get that state's apps."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets=None):
    """Migrate to ``targets`` (every app's newest migration when None); the apps of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


@contextmanager
def migrated_back(targets) -> Iterator:
    """The apps as they were at ``targets``; the newest state is back afterwards, whatever the test did."""
    try:
        yield migrate(targets)
    finally:
        migrate()

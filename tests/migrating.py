"""Migration tests' one helper: migrate the test database to a state and get that state's apps."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.management import call_command
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
    """The apps as they were at ``targets``, from an empty database; the newest state is back afterwards, whatever the test did.

    The rows are flushed first (a transactional test flushes them at its end anyway): a row of today, such as a town bank's
    puzzle whose ``rules`` is longer than an old column, cannot go back into the old schema on PostgreSQL.
    """
    call_command("flush", verbosity=0, interactive=False)
    try:
        yield migrate(targets)
    finally:
        migrate()

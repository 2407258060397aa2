"""``manage.py db_worker``: django-tasks-db's worker with a lease, so that a task left by a dead worker runs again.

The library's worker marks a task RUNNING when it claims it and never looks at it again: a
worker killed mid-task (SIGKILL, an out-of-memory kill, a machine lost) leaves its task RUNNING
for ever. This worker, before each claim, returns to READY every task that has been RUNNING for
longer than the lease (``--lease``, default ``settings.TASK_LEASE`` seconds), so another worker —
or itself — runs it again. Tasks must therefore be idempotent (the review is: the same record
gives the same figures, and storing them twice changes nothing), and the lease far longer than
any task. A task interrupted by the worker's own forced stop (a second Ctrl+C or SIGTERM while
it runs) is put back at once rather than marked failed. kwx_site comes before django_tasks_db
in INSTALLED_APPS, so this command is the one ``db_worker`` names. It runs at nice ``TASK_NICE``
(its review processes too), below the web requests.
"""

from __future__ import annotations

import logging
import os
import random
import time
from argparse import ArgumentParser
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.db import OperationalError, close_old_connections
from django.utils import timezone
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from kwx.processes import lower_priority

logger = logging.getLogger("django_tasks_db")
STOPPED = frozenset({"builtins.SystemExit", "builtins.KeyboardInterrupt"})
"""What a task "fails" with when the worker itself is stopped under it: not the task's fault."""


class LeasedWorker(db_worker.Worker):
    """The library's worker, reclaiming tasks whose lease ran out before each claim."""

    def __init__(self, *, lease: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.lease = lease

    def reclaim(self) -> int:
        """Return to READY every task RUNNING for longer than the lease (its worker is taken to be dead); how many."""
        cutoff = timezone.now() - timedelta(seconds=self.lease)
        stale = DBTaskResult.objects.filter(backend_name=self.backend_name, status=TaskResultStatus.RUNNING, started_at__lt=cutoff)
        try:
            ids = [str(i) for i in stale.values_list("id", flat=True)]
            count = stale.filter(id__in=ids).update(status=TaskResultStatus.READY) if ids else 0
        except OperationalError as exc:
            if is_locked_database_exception(exc):
                return 0  # someone else is writing; try again before the next claim
            raise
        if count:
            logger.warning("%d task(s) ran past the lease of %ss (their worker is gone): back in the queue: %s", count, self.lease, ", ".join(ids))
        return count

    def claim_next(self) -> tuple[bool, DBTaskResult | None]:
        """Claim the next ready task as the library's loop does: (whether the queue could be read, the task or None)."""
        tasks = DBTaskResult.objects.ready().filter(backend_name=self.backend_name)
        if not self.process_all_queues:
            tasks = tasks.filter(queue_name__in=self.queue_names)
        if self.excluded_queue_names:
            tasks = tasks.exclude(queue_name__in=self.excluded_queue_names)
        with exclusive_transaction(tasks.db):
            try:
                task_result = tasks.get_locked()
                if task_result is not None:
                    task_result.claim(self.worker_id)
            except OperationalError as exc:
                if is_locked_database_exception(exc):
                    return False, None
                raise
        return True, task_result

    def run(self) -> None:
        """The library's loop (claim, run, sleep when idle; ``--batch`` and ``--max-tasks`` alike) with a reclaim before each claim."""
        logger.info("Starting worker worker_id=%s queues=%s lease=%ss", self.worker_id, ",".join(self.queue_names), self.lease)
        if self.startup_delay and self.interval:
            time.sleep(random.random())  # noqa: S311 — spread workers started together
        while self.running:
            close_old_connections()
            self.reclaim()
            read, task_result = self.claim_next()
            if task_result is not None:
                self.run_task(task_result)
            if self.batch and read and task_result is None:
                logger.info("No more tasks to run for worker_id=%s - exiting gracefully.", self.worker_id)
                return
            if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
                logger.info("Run maximum tasks (%d) on worker=%s - exiting gracefully.", self._run_tasks, self.worker_id)
                return
            close_old_connections()
            if self.running and task_result is None:
                time.sleep(self.interval)

    def run_task(self, db_task_result: DBTaskResult) -> None:
        """Run one task; if the worker's own forced stop interrupted it, put it back in the queue instead of failing it."""
        super().run_task(db_task_result)
        if db_task_result.status == TaskResultStatus.FAILED and db_task_result.exception_class_path in STOPPED:
            DBTaskResult.objects.filter(id=db_task_result.id, status=TaskResultStatus.FAILED).update(status=TaskResultStatus.READY, finished_at=None, exception_class_path="", traceback="")
            logger.warning("Task id=%s was stopped with its worker: back in the queue", db_task_result.id)


def valid_lease(value: str) -> float:
    """A lease in seconds: zero or more."""
    lease = float(value)
    if not lease >= 0:
        raise ValueError(value)
    return lease


class Command(db_worker.Command):
    help = "Run a database background worker; a task RUNNING past its lease (a dead worker's) runs again."

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--lease",
            type=valid_lease,
            default=float(settings.TASK_LEASE),
            help="Seconds after which a RUNNING task is taken to belong to a dead worker and put back in the queue (default: TASK_LEASE, %(default)s)",
        )

    def handle(self, *, verbosity: int, queue_name: str, exclude_queues: str, reload: bool, batch: bool, lease: float, **options: Any) -> None:
        self.configure_logging(verbosity)
        lower_priority(settings.TASK_NICE)  # background work after the requests people wait for; its pools inherit it
        if reload and batch:
            logger.warning("Warning: --reload and --batch cannot be specified together. Disabling autoreload.")
            reload = False
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = LeasedWorker(
            lease=lease,
            queue_names=queue_names,
            interval=options["interval"],
            batch=batch,
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
            excluded_queue_names=excluded,
        )
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # only the reloaded child handles the signals
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()

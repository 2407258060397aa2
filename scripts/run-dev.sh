#!/usr/bin/env bash
# `make run`: the development server in the foreground and one task worker beside it (reviews are
# background tasks), the worker stopped when the server stops. Usage: scripts/run-dev.sh HOST:PORT
#
# The worker runs in its own process group (setsid) so that Ctrl+C reaches the server alone and the
# whole worker (the autoreloader and its child) is stopped together on exit. With one worker a task
# still RUNNING when it looks for work is one its earlier self left (a code reload, a stop), so it
# runs with --lease 0 and such a task runs again at once. Several workers need a real lease
# (TASK_LEASE, docs/deploy.md).
set -euo pipefail
PY=${PY:-.venv/bin/python}
setsid "$PY" manage.py db_worker --lease 0 &
WORKER=$!
echo "task worker: pid $WORKER (it stops with the server)" >&2
stop() { kill -TERM -- -"$WORKER" 2>/dev/null || true; wait "$WORKER" 2>/dev/null || true; }
trap stop EXIT
"$PY" manage.py runserver "$@"

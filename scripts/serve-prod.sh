#!/usr/bin/env bash
# Serve the site as in production: gunicorn + whitenoise, DEBUG off, hashed static files.
# Environment: SECRET_KEY (generated for this run if unset), DATABASE_URL, ALLOWED_HOSTS,
# BIND (default 127.0.0.1:8000), WEB_CONCURRENCY (workers, default 2 per core),
# SECURE_PROXY=1 behind a TLS-terminating proxy (see docs/deploy.md); RUN_DIR (default
# $XDG_RUNTIME_DIR or /tmp) for the control socket, pid and drain files.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
if [ -z "${SECRET_KEY:-}" ]; then
  SECRET_KEY=$($PY -c 'import secrets; print(secrets.token_urlsafe(50))')
  echo "SECRET_KEY not set: using a random one for this run (sessions end when it stops)" >&2
fi
export SECRET_KEY DEBUG=0 STATIC_MANIFEST=1
# Each instance on a host gets its own control socket, pid file and drain file, named after its
# address: two instances (a rolling restart, or two ports) never share one control socket.
BIND=${BIND:-127.0.0.1:8000}
RUN_DIR=${RUN_DIR:-${XDG_RUNTIME_DIR:-/tmp}}
INSTANCE=kwx-$(printf '%s' "$BIND" | tr -c 'A-Za-z0-9' '_')
CONTROL_SOCKET=${CONTROL_SOCKET:-$RUN_DIR/$INSTANCE.ctl}
PIDFILE=${PIDFILE:-$RUN_DIR/$INSTANCE.pid}
export DRAIN_FILE=${DRAIN_FILE:-$RUN_DIR/$INSTANCE.drain}
GUNICORN=(.venv/bin/gunicorn kwx_site.wsgi --preload
  --bind "$BIND"
  --workers "${WEB_CONCURRENCY:-$(( $(nproc) * 2 ))}"
  --max-requests 100000 --max-requests-jitter 10000
  --graceful-timeout 30
  --control-socket "$CONTROL_SOCKET" --pid "$PIDFILE"
  --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}"
  --access-logfile "${ACCESS_LOG:--}")
if [ -n "${KWX_DRY_RUN:-}" ]; then  # print what would run (tests), start nothing
  printf '%s\n' "DRAIN_FILE=$DRAIN_FILE" "${GUNICORN[@]}"
  exit 0
fi
$PY manage.py collectstatic --noinput -v0
$PY manage.py migrate --noinput -v0
$PY manage.py load_banks  # the puzzle banks, upserted by key: changes nothing when they are there
$PY manage.py createcachetable
$PY manage.py enqueue_reviews -v0  # hands finished before reviews were tasks (docs/deploy.md, Task workers)
# --preload: workers fork from a master that has warmed the engine (kwx_site/wsgi.py); they are
# retired rarely, since the engine's caches are bounded (see docs/deploy.md). On SIGTERM gunicorn
# stops accepting and lets requests in flight finish (--graceful-timeout); drain first (docs/deploy.md).
exec "${GUNICORN[@]}"

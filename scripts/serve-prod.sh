#!/usr/bin/env bash
# Serve the site as in production: gunicorn + whitenoise, DEBUG off, hashed static files.
# Environment: SECRET_KEY (generated for this run if unset), DATABASE_URL, ALLOWED_HOSTS,
# BIND (default 127.0.0.1:8000), WEB_CONCURRENCY (workers, default 2 per core),
# SECURE_PROXY=1 behind a TLS-terminating proxy (see docs/deploy.md).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
if [ -z "${SECRET_KEY:-}" ]; then
  SECRET_KEY=$($PY -c 'import secrets; print(secrets.token_urlsafe(50))')
  echo "SECRET_KEY not set: using a random one for this run (sessions end when it stops)" >&2
fi
export SECRET_KEY DEBUG=0 STATIC_MANIFEST=1
$PY manage.py collectstatic --noinput -v0
$PY manage.py migrate --noinput -v0
$PY manage.py createcachetable
# --preload: workers fork from a master that has warmed the engine (kwx_site/wsgi.py); they are
# retired rarely, since the engine's caches are bounded (see docs/deploy.md).
exec .venv/bin/gunicorn kwx_site.wsgi --preload \
  --bind "${BIND:-127.0.0.1:8000}" \
  --workers "${WEB_CONCURRENCY:-$(( $(nproc) * 2 ))}" \
  --max-requests 100000 --max-requests-jitter 10000 \
  --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}" \
  --access-logfile "${ACCESS_LOG:--}"

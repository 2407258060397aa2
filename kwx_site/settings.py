"""The one settings module of the kwx site.

Everything that differs between a laptop and production comes from the
environment: ``DATABASE_URL``, ``SECRET_KEY``, ``DEBUG``, ``ALLOWED_HOSTS``
(comma-separated), the mail settings (``EMAIL_BACKEND``, ``EMAIL_HOST`` …) and, behind a
TLS proxy, ``SECURE_PROXY=1``. The defaults are
for development and safe: debug off, local hosts only, an SQLite file here.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from kwx_site.csp import static_headers
from kwx_site.flags import read_flag

BASE_DIR = Path(__file__).resolve().parent.parent
DEV_SECRET_KEY = "kwx-development-only-key-never-use-in-production-0123456789abcdef"


def env_bool(name: str, default: bool) -> bool:
    """A true/false setting from the environment (1/true/yes/on or 0/false/no/off); anything else is refused."""
    value = os.environ.get(name)
    if value is None:
        return default
    flag = read_flag(value) if value.strip() else False
    if flag is None:
        raise ImproperlyConfigured(f"{name}={value!r}: use 1/true/yes/on or 0/false/no/off")
    return flag


def env_list(name: str, default: str) -> list[str]:
    """A comma-separated list setting from the environment."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", DEV_SECRET_KEY)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# How many proxies in front of the app servers append the address they saw to X-Forwarded-For
# (nginx with $proxy_add_x_forwarded_for: 1). The client address is the one the outermost
# trusted proxy saw; 0 means REMOTE_ADDR (no proxy). Used by every limit (kwx_site/limits.py).
# While this file exists /healthz/ answers 503 "draining" (set per instance by scripts/serve-prod.sh).
DRAIN_FILE = os.environ.get("DRAIN_FILE", "")
TRUSTED_PROXY_HOPS = int(os.environ.get("TRUSTED_PROXY_HOPS", "0"))
# Expected-value work (the analyzer's ev=1, the API's depth=ev; analysis/ev_limits.py): requests
# per client and for the whole site ("count/s|min|hour|day"), and how many may compute at once on
# one host (the others are refused at once, so cheap requests always find a worker); the nice
# value of the thread that computes them (0: full priority); and how long a request waits for that
# thread, from its arrival, before it answers "busy, try again" (503): well below gunicorn's 30 s timeout.
EV_RATE_CLIENT = os.environ.get("EV_RATE_CLIENT", "30/min")
EV_RATE_SITE = os.environ.get("EV_RATE_SITE", "120/min")
EV_CONCURRENCY = int(os.environ.get("EV_CONCURRENCY", "1"))
EV_SLOT_DIR = os.environ.get("EV_SLOT_DIR", "")
EV_NICE = int(os.environ.get("EV_NICE", "19"))
EV_DEADLINE = float(os.environ.get("EV_DEADLINE", "10"))

# Background work: Django's tasks API (the django-tasks backport of Django 6's django.tasks) with
# the database backend of django-tasks-db, so the queue is a table of the one database and needs
# no new service. `manage.py db_worker` (kwx_site's: the library's worker plus a lease) runs the
# tasks; on PostgreSQL any number of workers on any number of machines share the queue. A task
# RUNNING for longer than TASK_LEASE seconds is taken to belong to a dead worker and runs again
# (docs/deploy.md): keep it far above the longest task (a review: under a minute).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
TASK_LEASE = int(os.environ.get("TASK_LEASE", "600"))
# The nice value a task worker (and the processes of its reviews) runs at: below the web requests on a shared machine.
TASK_NICE = int(os.environ.get("TASK_NICE", "10"))
# The review (复盘) of a hand: every decision's choices played out by REVIEW_POLICY (a bot name of
# kwx.bots.registry, or package.module:Class) for REVIEW_WORK rollout actions per choice
# (docs/play.md; docs/performance.md measures what it costs), its decisions worked out in
# REVIEW_JOBS processes at once (default: the cores this process may use).
REVIEW_POLICY = os.environ.get("REVIEW_POLICY", "boosted")
REVIEW_WORK = int(os.environ.get("REVIEW_WORK", "400"))
REVIEW_JOBS = int(os.environ.get("REVIEW_JOBS", str(len(os.sched_getaffinity(0)))))

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "kwx_site",
    "analysis",
    "tournaments",
    "learn",
    "settlement",
    "puzzles",
    "accounts",
    "play",
    "django_tasks",
    "django_tasks_db",  # after kwx_site, whose db_worker (the library's with a lease) takes the name
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, pre-compressed by collectstatic
    "django.middleware.gzip.GZipMiddleware",  # everything else; see docs/deploy.md on BREACH
    "kwx_site.middleware.ContentSecurityPolicyMiddleware",
    "kwx_site.middleware.RequestGuardMiddleware",  # TRACE 405, chunked 411, API 413 / too many parameters
    "kwx_site.middleware.ApiErrorMiddleware",  # everything under /api/ answers the API's JSON error shape
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "analysis.middleware.EarlyEVRefusalMiddleware",  # an EV request already known to be refused: 429 before the view
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "kwx_site.middleware.OutageTolerantAuthenticationMiddleware",  # Django's, but page reads survive an outage
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "kwx_site.urls"
WSGI_APPLICATION = "kwx_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "accounts.context.town",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# A database that hangs must not hold a worker past gunicorn's 30 s timeout (then every worker
# would hang and the proxy would mark the server down): give up connecting after
# DB_CONNECT_TIMEOUT seconds, on any statement (lock waits included) after DB_STATEMENT_TIMEOUT,
# and on SQLite's write lock after DB_BUSY_TIMEOUT. The API then answers 503 with Retry-After.
DB_CONNECT_TIMEOUT = int(os.environ.get("DB_CONNECT_TIMEOUT", "5"))
DB_STATEMENT_TIMEOUT = int(os.environ.get("DB_STATEMENT_TIMEOUT", "15"))
DB_BUSY_TIMEOUT = int(os.environ.get("DB_BUSY_TIMEOUT", "20"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "connect_timeout": DB_CONNECT_TIMEOUT,
            "options": f"-c statement_timeout={DB_STATEMENT_TIMEOUT * 1000}",
        }
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction starts (no upgrade deadlocks) and wait for it;
    # WAL lets readers go on while one writes. Tests get a file too (one per process), because
    # the shared in-memory database locks whole tables and ignores the timeout.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": DB_BUSY_TIMEOUT,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    DATABASES["default"]["TEST"] = {"NAME": f"/tmp/kwx-test-{os.getpid()}.sqlite3"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "kwx_site.passwords.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sessions live in the signed session cookie, not in the database: any app server reads them,
# pages that need no database work through an outage for a visitor with a session, and an
# answer sent with the cookie from before a log-in still names its (merged) player.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
LOGIN_URL = "login"
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(24 * 3600)))
"""How long a password-reset link works, in seconds (one day)."""

# Mail (password resets). The console backend prints each mail to the server's log; set
# EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and EMAIL_HOST etc. to send it.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "kwx <noreply@localhost>")
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Production (STATIC_MANIFEST=1, after collectstatic): hashed, compressed files served by
# whitenoise with far-future caching. Development and tests: files straight from the finders.
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage" if STATIC_MANIFEST else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
WHITENOISE_ADD_HEADERS_FUNCTION = static_headers  # the Content-Security-Policy on static files too

DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
API_MAX_BODY_BYTES = 10 * 1024

# The one cache is for state every app server must agree on (throttle counters), so it lives in
# the database (`manage.py createcachetable`); pure engine results are cached per process in memory.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "kwx_cache"}}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["analysis.renderers.ORJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["kwx_site.api_errors.LimitedJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "EXCEPTION_HANDLER": "kwx_site.api_errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "NUM_PROXIES": TRUSTED_PROXY_HOPS,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "kwx 卡五星 API",
    "DESCRIPTION": "Hand analysis, drills and settlement for 卡五星 (Ka Wu Xing).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The two "type" choice sets get names of their own (the settle and replay kongs share one).
    "ENUM_NAME_OVERRIDES": {
        "MeldTypeEnum": ["pong", "kong", "concealed_kong"],
        "KongTypeEnum": "kwx.table.settlement.KONG_TYPES",
    },
}

# Production hardening; all on when DEBUG is off (see docs/deploy.md).
SECURE_PROXY = env_bool("SECURE_PROXY", False)
if SECURE_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG and SECURE_PROXY)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]  # load balancers probe over plain HTTP
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"


def _not_a_refusal(record: object) -> bool:
    """False for Django's line about a 429: a refusal is the limit working, and a flood of them would flood the log."""
    return getattr(record, "status_code", None) != 429


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"not_refusals": {"()": "django.utils.log.CallbackFilter", "callback": _not_a_refusal}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {"django.request": {"filters": ["not_refusals"]}},
}

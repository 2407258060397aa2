"""Production settings: `check --deploy` passes with them, and the development defaults are safe."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "kwx.example.org",
    "SECURE_PROXY": "1",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
}
# The environment a server would start with: none of the above, nor the browser tests' async switch.
CLEAN = {k: v for k, v in os.environ.items() if k not in {*PRODUCTION, "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_check_deploy_passes_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=CLEAN | PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_development_key_is_refused_for_a_public_host():
    result = manage("check", "--deploy", env=CLEAN | {"DEBUG": "0", "ALLOWED_HOSTS": "kwx.example.org"})
    assert result.returncode != 0
    assert "kwx.E001" in result.stdout + result.stderr


def test_development_defaults_are_safe():
    code = "from django.conf import settings as s;print(s.DEBUG, sorted(s.ALLOWED_HOSTS), s.DATABASES['default']['ENGINE'], s.SESSION_COOKIE_HTTPONLY, s.X_FRAME_OPTIONS)"
    result = manage("shell", "--no-imports", "-c", code, env=CLEAN)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "['127.0.0.1',", "'[::1]',", "'localhost']", "django.db.backends.sqlite3", "True", "DENY"]


def test_production_cookies_are_secure_and_proxy_headers_trusted():
    code = "from django.conf import settings as s;print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_PROXY_SSL_HEADER, s.SECURE_HSTS_SECONDS)"
    result = manage("shell", "--no-imports", "-c", code, env=CLEAN | PRODUCTION)
    assert result.stdout.split() == ["True", "True", "('HTTP_X_FORWARDED_PROTO',", "'https')", "31536000"]


def test_the_server_entry_point_warms_the_engine_before_workers_fork():
    """kwx_site.wsgi (imported once by gunicorn --preload) fills the per-block caches and
    empties the whole-hand ones, so no answer a worker gives comes from the warm-up."""
    script = (
        "import kwx_site.wsgi\n"
        "from kwx.hand.efficiency import improving_in_block, improving_draws\n"
        "from kwx.hand.scoring import score_win\n"
        "print(improving_in_block.cache_info().currsize, improving_draws.cache_info().currsize,"
        " score_win.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT, env=CLEAN, timeout=120)
    per_block, whole_hands, scores = map(int, out.stdout.split())
    assert per_block > 10_000
    assert whole_hands == scores == 0


def test_mail_goes_to_the_console_unless_the_environment_names_a_backend():
    code = "from django.conf import settings as s; print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL)"
    default = manage("shell", "--no-imports", "-c", code, env=CLEAN)
    assert default.stdout.split()[0] == "django.core.mail.backends.console.EmailBackend", default.stderr
    smtp = {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "587", "EMAIL_USE_TLS": "1", "DEFAULT_FROM_EMAIL": "kwx@example.org"}
    configured = manage("shell", "--no-imports", "-c", code, env=CLEAN | smtp)
    assert configured.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend", "smtp.example.org", "587", "True", "kwx@example.org"]


def test_a_mistyped_switch_is_refused_not_read_as_false(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from kwx_site.settings import env_bool

    for word, value in (("1", True), ("yes", True), ("Off", False), ("0", False)):
        monkeypatch.setenv("KWX_TEST_SWITCH", word)
        assert env_bool("KWX_TEST_SWITCH", not value) is value
    monkeypatch.setenv("KWX_TEST_SWITCH", "ture")
    with pytest.raises(ImproperlyConfigured, match="KWX_TEST_SWITCH"):
        env_bool("KWX_TEST_SWITCH", True)
    monkeypatch.delenv("KWX_TEST_SWITCH")
    assert env_bool("KWX_TEST_SWITCH", True) is True


def _serve_prod_plan(bind: str) -> list[str]:
    env = CLEAN | {"KWX_DRY_RUN": "1", "BIND": bind, "SECRET_KEY": "x" * 50, "RUN_DIR": "/run/kwx"}
    out = subprocess.run(["bash", "scripts/serve-prod.sh"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True)
    return out.stdout.split("\n")


def test_two_instances_on_one_host_get_their_own_control_socket_pid_and_drain_file():
    plans = [_serve_prod_plan(bind) for bind in ("127.0.0.1:8000", "127.0.0.1:8001")]
    picked = [{flag: plan[plan.index(flag) + 1] for flag in ("--control-socket", "--pid")} | {"drain": plan[0]} for plan in plans]
    for name in ("--control-socket", "--pid", "drain"):
        assert picked[0][name] != picked[1][name] and "/run/kwx/" in picked[0][name]
    assert "--graceful-timeout" in plans[0]


def test_healthz_says_draining_while_the_drain_file_exists(tmp_path, settings, client):
    settings.DRAIN_FILE = str(tmp_path / "kwx.drain")
    assert client.get("/healthz/").json() == {"status": "ok"}
    (tmp_path / "kwx.drain").touch()
    r = client.get("/healthz/")
    assert r.status_code == 503 and r.json() == {"status": "draining"}

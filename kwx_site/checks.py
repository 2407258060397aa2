"""System checks that keep a production deployment from running on development defaults."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, register

LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "testserver"}


@register(Tags.security, deploy=True)
def secret_key_is_set(app_configs, **kwargs):
    """Refuse the development SECRET_KEY when the site is served beyond this machine."""
    from .settings import DEV_SECRET_KEY

    public = set(settings.ALLOWED_HOSTS) - LOCAL_HOSTS
    if settings.SECRET_KEY == DEV_SECRET_KEY and public and not settings.DEBUG:
        return [Error("SECRET_KEY is the development key while ALLOWED_HOSTS is public.", hint="Set SECRET_KEY in the environment.", id="kwx.E001")]
    return []


@register()
def review_settings(app_configs, **kwargs):
    """REVIEW_POLICY names a bot (a registry name or package.module:Class) and REVIEW_WORK is positive."""
    from kwx.bots.registry import UnknownBot, policy_factory

    errors = []
    try:
        policy_factory(settings.REVIEW_POLICY)
    except UnknownBot as exc:
        errors.append(Error(f"REVIEW_POLICY: {exc}", hint="Name a bot of kwx.bots.registry.BOTS or package.module:Class.", id="kwx.E002"))
    if settings.REVIEW_WORK < 1:
        errors.append(Error(f"REVIEW_WORK={settings.REVIEW_WORK}: the rollout actions per choice must be at least 1.", id="kwx.E003"))
    return errors

"""Who owns what a person makes here: the request's player, and the one merge of a visitor's player into an account's.

A visitor's session holds the pk of its player (``SESSION_KEY``); an account has one player
(``Player.user``). Everything a person makes (drills, games and hands, memorise cards, score
sheets) points at that player, so a log-in or sign-up moves it all with one merge
(``merge_players``): the areas with a rule of their own for what two players both have
(the drills' ratings and attempts, the memorise cards) do it in a ``player_merging`` receiver,
inside the merge's transaction; whatever still points at the visitor's player afterwards (games,
hands, score sheets, anything added later) is moved as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from datetime import timedelta
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models, transaction
from django.dispatch import Signal
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.request import Request

from kwx.rules import OptionValue, preset
from kwx_site.middleware import began

from .models import Player
from .selectors import SESSION_KEY, SHEET_SESSION_KEY, legacy_sheet_player, session_player

player_merging = Signal()
"""Sent inside ``merge_players``'s transaction, both rows locked, before what is left is moved (``source``, ``target``):
an area whose rows need a rule when both players have one (puzzles: attempts, ratings, review cards; learn: memorise
cards) moves them here."""


def on_merge(mover: Callable[..., None], *, uid: str) -> None:
    """Have ``mover(source=, target=)`` move an area's rows in every merge (connect it in the app's ``ready``)."""

    def receive(sender: Any, *, source: Player, target: Player, **kwargs: Any) -> None:
        mover(source=source, target=target)

    player_merging.connect(receive, sender=Player, dispatch_uid=uid, weak=False)


def player_for(request: HttpRequest | Request) -> Player:
    """The request's player for a write: the account's, or the visitor's session's, made on first need (legacy sheets claimed).

    A session whose player was merged into an account reaches the account only for a request
    that began before the merge (``kwx_site.middleware.began``: an answer in flight in another
    tab while the log-in happened). Anything the old cookie sends later gets a new visitor's
    player: a copy of the cookie kept from before the log-in (session fixation) never writes
    into the account nor reads it back. Pages that only read ask ``selectors.request_player``.
    """
    user: AbstractBaseUser | AnonymousUser | None = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        player, _made = Player.objects.get_or_create(user=user)
        return player
    session = request.session
    found = claim_legacy_sheets(session=session, player=session_player(session, began(request), follow_merge=True))
    if found is not None:
        return found
    made = Player.objects.create()
    session[SESSION_KEY] = made.pk
    return made


def claim_legacy_sheets(*, session: MutableMapping[str, Any], player: Player | None) -> Player | None:
    """The visitor's player once the score sheets its session's key from before names are theirs (the key is dropped: once)."""
    key = session.pop(SHEET_SESSION_KEY, None)
    sheets = legacy_sheet_player(key)
    if sheets is None:
        return player
    if player is None:  # the visitor's sheets from before: their player is the session's now
        session[SESSION_KEY] = sheets.pk
        return sheets
    if player.pk != sheets.pk and player.user_id is None:
        return merge_players(source=sheets, target=player)
    return player


def merge_players(*, source: Player, target: Player) -> Player:
    """Move everything ``source`` owns to ``target``, in one transaction; merging twice changes nothing.

    Both rows are locked (in pk order); each ``player_merging`` receiver moves what needs a
    rule, then every row still pointing at ``source`` moves to ``target``. ``source`` stays a
    day as a pointer to ``target`` (``merged_into``), for requests in flight with its cookie.
    """
    if source.pk == target.pk:
        return target
    with transaction.atomic():
        locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk]).order_by("pk")}
        src, dst = locked[source.pk], locked[target.pk]
        if src.merged_into_id is not None:  # merged already (two log-ins at once): nothing is left to move
            return dst
        player_merging.send(sender=Player, source=src, target=dst)
        for relation in _owned_relations():
            relation.related_model._default_manager.filter(**{relation.field.name: src}).update(**{relation.field.name: dst})
        dst.save()
        # Kept as a pointer, not deleted: a request still in flight with the session's old
        # cookie finds the account through it (``player_for``), instead of a missing row.
        src.merged_into, src.merged_at, src.sheet_key = dst, timezone.now(), ""
        src.save(update_fields=["merged_into", "merged_at", "sheet_key"])
        Player.objects.filter(merged_at__lt=timezone.now() - timedelta(days=1)).delete()
        return dst


def _owned_relations() -> list[models.ManyToOneRel]:
    """Every foreign key to ``Player`` from another model: what a player owns."""
    return [rel for rel in Player._meta.related_objects if isinstance(rel, models.ManyToOneRel) and not isinstance(rel, models.OneToOneRel) and rel.related_model is not Player]


def choose_rules(*, player: Player, rules: str, options: Mapping[str, OptionValue]) -> Player:
    """Store the player's town: a preset key and the room switches they changed (checked; raises EngineError naming ``rules`` or ``options``).

    Only switches that differ from the preset are kept; their couplings follow when the town is
    read (``accounts.selectors.player_town``).
    """
    chosen = preset(rules)
    chosen.switched(options)
    player.rules = chosen.key
    player.rule_options = {key: value for key, value in options.items() if value != chosen.values.value(key)}
    player.rules_chosen_at = timezone.now()
    player.save(update_fields=["rules", "rule_options", "rules_chosen_at"])
    return player


def merge_town(*, source: Player, target: Player) -> None:
    """A merge keeps the town chosen last: the visitor's, when they chose after the account did (saved with the merge's target)."""
    if source.rules_chosen_at is not None and (target.rules_chosen_at is None or source.rules_chosen_at > target.rules_chosen_at):
        target.rules, target.rule_options, target.rules_chosen_at = source.rules, source.rule_options, source.rules_chosen_at


def merge_session_into_account(*, session: MutableMapping[str, Any], user: AbstractBaseUser) -> Player | None:
    """On log-in or sign-up: fold the session's player (and its score sheets from before) into the account's; the account's player, or None if the session had nothing."""
    pk = session.pop(SESSION_KEY, None)
    mine = Player.objects.filter(pk=pk, user__isnull=True, merged_into__isnull=True).first() if isinstance(pk, int) else None
    visitors = [mine, legacy_sheet_player(session.pop(SHEET_SESSION_KEY, None))]
    account = None
    for visitor in visitors:
        if visitor is not None and visitor.user_id is None:
            account = account or Player.objects.get_or_create(user=user)[0]
            account = merge_players(source=visitor, target=account)
    return account

"""A player's town: ``choose_rules`` stores it, ``player_town`` / ``request_town`` read it, a merge keeps the later choice, ``TownForm`` reads the picker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.db import OperationalError, connection
from django.http import QueryDict
from django.test import RequestFactory
from django.utils import timezone

from accounts.forms import TownForm
from accounts.models import Player
from accounts.selectors import SESSION_KEY, Town, player_town, request_town, town_of
from accounts.services import choose_rules, merge_players
from kwx import EngineError
from kwx.rules import PRESETS, resolve

pytestmark = pytest.mark.django_db


def test_a_player_who_never_chose_plays_the_standard_rules():
    town = player_town(player=Player.objects.create())
    assert town == Town() and not town.chosen and town.values == PRESETS["standard"].values and town.label() == "通用"
    assert player_town(player=None) == Town()


def test_choose_rules_keeps_the_preset_and_only_the_switches_that_differ():
    player = choose_rules(player=Player.objects.create(), rules="xiaogan", options={"cap": 8, "shu_kan": True, "peng_peng_hu_fan": 2})
    player.refresh_from_db()
    assert player.rules == "xiaogan" and player.rule_options == {"cap": 8, "peng_peng_hu_fan": 2} and player.rules_chosen_at is not None
    town = player_town(player=player)
    assert town.chosen and town.values.cap == 8 and town.values.gang_shang_fan == 2  # 碰碰胡 ×2 takes 杠上开花 with it (§3.3)
    assert town.label() == "孝感（改）" and town.label(english=True) == "Xiaogan (changed)"
    assert resolve(town.rules, town.options) == town.values  # what a request or a link carries gives the same rules


@pytest.mark.parametrize(
    "rules, options, field",
    [("wuhan", {}, "rules"), ("xiaogan", {"hai_di": "lao"}, "options"), ("xiaogan", {"cap": 9}, "options"), ("standard", {"cap": 8}, "options")],
)
def test_choose_rules_refuses_what_is_not_a_preset_or_one_of_its_switches(rules, options, field):
    with pytest.raises(EngineError) as caught:
        choose_rules(player=Player.objects.create(), rules=rules, options=options)
    assert caught.value.field == field


def test_a_stored_town_the_presets_no_longer_allow_is_read_safely():
    assert town_of("gone_town", {}) == Town()
    assert town_of("xiaogan", {"hai_di": "lao", "cap": 8}).switches == {"cap": 8}  # not a room switch: dropped
    assert town_of("xiaogan", {"cap": "eight"}).switches == {}


def visitor(player: Player | None):
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    request.session = SessionStore()
    if player is not None:
        request.session[SESSION_KEY] = player.pk
    return request


def test_request_town_reads_the_sessions_player_and_never_makes_one():
    player = choose_rules(player=Player.objects.create(), rules="shiyan_town", options={})
    assert request_town(request=visitor(player)).rules == "shiyan_town"
    count = Player.objects.count()
    assert request_town(request=visitor(None)) == Town() and Player.objects.count() == count


def test_request_town_is_the_standard_rules_while_the_database_is_down():
    player = choose_rules(player=Player.objects.create(), rules="xiaogan", options={})
    request = visitor(player)

    def refuse(execute, sql, params, many, context):
        raise OperationalError("down")

    with connection.execute_wrapper(refuse):
        assert request_town(request=request) == Town()


def test_a_merge_keeps_the_town_chosen_last():
    account = Player.objects.create(user=User.objects.create_user("a", password="pw-12345678"))
    choose_rules(player=account, rules="yicheng", options={})
    visitor_player = choose_rules(player=Player.objects.create(), rules="xiaogan", options={"cap": 8})
    merged = merge_players(source=visitor_player, target=account)
    assert player_town(player=Player.objects.get(pk=merged.pk)).label() == "孝感（改）"
    older = Player.objects.create(rules="suizhou", rules_chosen_at=timezone.now() - timedelta(days=1))
    merge_players(source=older, target=merged)
    assert Player.objects.get(pk=merged.pk).rules == "xiaogan"
    never = Player.objects.create()
    merge_players(source=never, target=merged)
    assert Player.objects.get(pk=merged.pk).rules == "xiaogan"


def test_the_form_reads_the_switches_and_drops_an_old_presets():
    form = TownForm(QueryDict("rules=xiaogan&shown=xiaogan&cap=8&shu_kan=0&shu_kan=1&dui_liang_dui_fan=0&dui_liang_dui_fan=1"))
    assert form.is_valid() and form.cleaned_data["switches"] == {"cap": 8, "dui_liang_dui_fan": True}
    changed = TownForm(QueryDict("rules=xiangyang_town&shown=xiaogan&cap=16&shu_kan=1"))
    assert changed.is_valid() and changed.cleaned_data["switches"] == {}  # the switches belonged to 孝感
    bad = TownForm(QueryDict("rules=xiaogan&shown=xiaogan&cap=9"))
    assert not bad.is_valid() and "cap" in str(bad.errors)
    assert not TownForm(QueryDict("rules=wuhan")).is_valid()

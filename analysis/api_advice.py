"""``/api/v1/advice/``: the table-aware estimate of each choice in a position (碰/过, 杠, 亮倒, discards)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kwx import EngineError
from kwx.bots.strong import StrongBot
from kwx.hand.analysis import parse_melds
from kwx.hand.ev import Budget
from kwx.hand.notation import parse_hand, parse_sequence, parse_tile, parse_tiles
from kwx.hand.rules import make_rules
from kwx.hand.tiles import TILE_IDS, Hand
from kwx.table.advice import CLEAR, PASS, advise, deal_in_chances
from kwx.table.position import Opponent, Position
from kwx.table.settlement import MAX_BASE, PIAO_CHOICES
from kwx.table.table import WALL_AFTER_DEAL, Action
from kwx.table.view import SeatView
from kwx_site.api_errors import ErrorSerializer, refuse_nulls
from kwx_site.api_rules import OptionsField, rules_field

from .api import EV_REFUSALS, MeldSerializer, ev_refusal
from .ev_limits import EVRefused, ev_slot, request_budget

WORK_BUDGET = 1500
"""Actions played in all the rollouts of one request (about 0.15–0.3 s of CPU): the same seed gives the same answer.
The request's CPU budget (``ev_limits.request_budget``, looked at before every rollout) is the ceiling on a slow
or busy machine."""
DEAL_IN_WORLDS = 100
MAX_TEXT = 200
FIELDS = frozenset({"hand", "melds", "river", "opponents", "wall_left", "offered", "drawn", "rules", "options", "base", "piao", "seed"})
MODEL = (
    "Each choice is played out to the end of the hand on worlds dealt from the tiles you have not seen "
    "(the opponents' hidden hands and the wall), every seat then played by the strong bot; the figure is your "
    "net money for the hand in base stakes (wins, deal-ins, 包胡, kong money, 漂, 荒庄 with 亮倒)."
)


class OpponentSerializer(serializers.Serializer):
    river = serializers.CharField(required=False, allow_blank=True, help_text="Its discards nobody claimed, in order: 5p3sZ1p.")
    melds = serializers.CharField(required=False, allow_blank=True, help_text="Its melds in brackets: [555p][7777s].")
    revealed = serializers.CharField(required=False, help_text="After 亮倒: its concealed tiles, all shown.")


class OfferedSerializer(serializers.Serializer):
    tile = serializers.CharField()
    by = serializers.ChoiceField(choices=[1, 2], help_text="1 the next seat (下家), 2 the one before (上家).")
    kind = serializers.ChoiceField(choices=["discard", "kong"], required=False, default="discard", help_text="discard: its last discard; kong: the tile it adds to its pong (抢杠).")


class AdviceRequestSerializer(serializers.Serializer):
    hand = serializers.CharField(help_text="Your concealed tiles, melds in brackets: 14 tiles on your turn, 13 with an offered tile.")
    melds = MeldSerializer(many=True, required=False)
    river = serializers.CharField(required=False, allow_blank=True, help_text="Your own discards, in order.")
    opponents = OpponentSerializer(many=True, help_text="Exactly two: the next seat (下家), then the one before (上家).")
    wall_left = serializers.IntegerField(min_value=0, max_value=WALL_AFTER_DEAL, help_text="Tiles left to draw; must fit the tiles given.")
    offered = OfferedSerializer(required=False)
    drawn = serializers.CharField(required=False, help_text="Your turn: the tile you just drew (for 自摸 and 蓄杠).")
    rules = rules_field(required=False, default="standard")
    options = OptionsField()
    base = serializers.IntegerField(min_value=1, max_value=MAX_BASE, required=False, default=1)
    piao = serializers.ListField(child=serializers.ChoiceField(choices=list(PIAO_CHOICES)), min_length=3, max_length=3, required=False)
    seed = serializers.IntegerField(min_value=0, max_value=2**32 - 1, required=False, default=0, help_text="Seeds the sampled worlds: the same seed, the same answer.")


class ChoiceActionSerializer(serializers.Serializer):
    verb = serializers.ChoiceField(choices=["discard", "pong", "kong", "win", "pass"])
    tile = serializers.CharField(required=False)
    liang_dao = serializers.BooleanField(required=False)


class ChoiceSerializer(serializers.Serializer):
    action = ChoiceActionSerializer()
    mean = serializers.FloatField(help_text="Expected net money of the hand, in base stakes.")
    stderr = serializers.FloatField()
    rollouts = serializers.IntegerField()
    gap = serializers.FloatField(help_text="The best choice's mean minus this one's, world by world (0 for the best).")
    gap_se = serializers.FloatField(help_text="The standard error of that paired difference.")


class DealInSerializer(serializers.Serializer):
    tile = serializers.CharField()
    probability = serializers.FloatField(help_text="Share of sampled worlds in which throwing it now lets an opponent win on it.")
    revealed = serializers.BooleanField(help_text="A revealed (亮倒) hand wins on it: 包胡, certain.")


class AdviceResponseSerializer(serializers.Serializer):
    phase = serializers.ChoiceField(choices=["act", "claim", "rob"])
    choices = ChoiceSerializer(many=True, help_text="Best first.")
    best = ChoiceActionSerializer()
    worlds = serializers.IntegerField()
    clear = serializers.BooleanField(help_text="The best is ahead of every other choice by more than three standard errors of the paired difference, over at least 8 worlds.")
    cpu_seconds = serializers.FloatField()
    deal_in = DealInSerializer(many=True, help_text="Your turn: each tile you hold.")
    model = serializers.CharField()


def _text(value: Any, field: str, required: bool = False) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or len(value) > MAX_TEXT or (required and not value.strip()):
        raise EngineError(gettext_noop("Must be tile text such as 4556p123s789sZZZ (at most %(limit)d characters)."), field, limit=MAX_TEXT)
    return value


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EngineError(gettext_noop("Must be a whole number from %(low)d to %(high)d."), field, low=low, high=high)
    return value


def _opponent(raw: Any, number: int) -> Opponent:
    field = "opponents"
    if not isinstance(raw, Mapping) or set(raw) - {"river", "melds", "revealed"}:
        raise EngineError(gettext_noop("Opponent %(number)d must be an object with river, melds and (after 亮倒) revealed."), field, number=number)
    melds = parse_hand(_text(raw.get("melds"), field), field) if raw.get("melds") not in (None, "") else None
    if melds is not None and any(melds.concealed):
        raise EngineError(gettext_noop("Opponent %(number)d's melds go in brackets: [555p][7777s]."), field, number=number)
    revealed = raw.get("revealed")
    return Opponent(
        parse_sequence(_text(raw.get("river"), field), field),
        melds.melds if melds is not None else (),
        parse_tiles(_text(revealed, field, True), field) if revealed is not None else None,
    )


def read_position(body: Any) -> tuple[Position, dict[str, Any]]:
    """Check an advice request; the position and the money settings (raises EngineError naming the field)."""
    if not isinstance(body, Mapping):
        raise EngineError(gettext_noop("The request body must be a JSON object."), "body")
    unknown = sorted(set(body) - FIELDS)
    if unknown:
        raise EngineError(gettext_noop('Unknown field "%(name)s".'), unknown[0][:40], name=unknown[0][:40])
    refuse_nulls(body)
    hand = parse_hand(_text(body.get("hand"), "hand", True), "hand")
    hand = Hand(hand.concealed, hand.melds + parse_melds(body.get("melds", ())))
    opponents = body.get("opponents")
    if not isinstance(opponents, list) or len(opponents) != 2:
        raise EngineError(gettext_noop("Give exactly two opponents: the next seat (下家), then the one before (上家)."), "opponents")
    if "wall_left" not in body:
        raise EngineError(gettext_noop("This field is required."), "wall_left")
    offered = body.get("offered")
    offer: tuple[int, int] | None = None
    offered_as = "discard"
    if offered is not None:
        if not isinstance(offered, Mapping) or set(offered) - {"tile", "by", "kind"}:
            raise EngineError(gettext_noop("The offered tile is an object with tile, by (1 or 2) and kind (discard or kong)."), "offered")
        offered_as = offered.get("kind", "discard")
        if offered_as not in ("discard", "kong"):
            raise EngineError(gettext_noop("The offered tile is an object with tile, by (1 or 2) and kind (discard or kong)."), "offered")
        offer = (_whole(offered.get("by"), "offered", 1, 2), parse_tile(_text(offered.get("tile"), "offered", True), "offered"))
    drawn = parse_tile(_text(body["drawn"], "drawn", True), "drawn") if body.get("drawn") is not None else None
    position = Position(
        hand,
        parse_sequence(_text(body.get("river"), "river"), "river"),
        (_opponent(opponents[0], 1), _opponent(opponents[1], 2)),
        _whole(body["wall_left"], "wall_left", 0, WALL_AFTER_DEAL),
        offer,
        offered_as,
        drawn,  # type: ignore[arg-type]
    )
    piao = body.get("piao", [0, 0, 0])
    if not isinstance(piao, list) or len(piao) != 3 or any(isinstance(p, bool) or p not in PIAO_CHOICES for p in piao):
        raise EngineError(gettext_noop("漂 must be three numbers (0, 1, 2 or 5), one per seat."), "piao")
    money = {
        "rules": make_rules(body.get("rules", "standard"), (), body.get("options")),
        "base": _whole(body.get("base", 1), "base", 1, MAX_BASE),
        "piao": (piao[0], piao[1], piao[2]),
        "seed": _whole(body.get("seed", 0), "seed", 0, 2**32 - 1),
    }
    return position, money


def _action_json(action: Action | None) -> dict[str, Any]:
    if action is PASS or action is None:
        return {"verb": "pass"}
    out: dict[str, Any] = {"verb": action.verb, "tile": TILE_IDS[action.kind]}
    if action.verb == "discard":
        out["liang_dao"] = action.liang_dao
    return out


def run_advice(request: Request, body: Any) -> dict[str, Any]:
    """The answer of one advice request: checked first, then the rollouts inside an expected-value slot (``ev_limits``)."""
    position, money = read_position(body)
    view = position.view(money["rules"])
    try:
        with ev_slot(request) as run:
            return run(advice_json, view, money, request_budget(request))
    except EVRefused as exc:
        raise ev_refusal(exc) from exc


def advice_json(view: SeatView, money: dict[str, Any], budget: Budget, work: int = WORK_BUDGET) -> dict[str, Any]:
    """The advice answer of a checked position (``money``: seed, base, piao); the analyzer shows the same.

    The work budget ``work`` (actions played in all the rollouts) decides how many rollouts are played
    whenever the request's CPU ``budget`` (shared with whatever else the request computed first) does
    not run out; if it ran out before one world was played, EVRefused (``time``). The rollouts stop early
    once the best is ahead of every other by the margin rule's ``CLEAR``, and ``clear`` says
    whether it is at the end (each choice's ``gap`` to the best and its ``gap_se`` are given).
    """
    strong = StrongBot()
    advice = advise(
        view,
        lambda: [strong, strong, strong],
        seed=money["seed"],
        cpu_budget=math.inf,
        max_actions=work,
        base=money["base"],
        piao=money["piao"],
        budget=budget,
        margin=CLEAR,
    )
    if advice.worlds == 0 and len(advice.estimates) > 1:
        raise EVRefused("time", 1)
    deal_in: list[dict[str, Any]] = []
    if view.phase == "act":
        chances = deal_in_chances(view, DEAL_IN_WORLDS, money["seed"])
        revealed = {k for o in view.others() if view.seats[o].liang_dao for k in view.seats[o].waits}
        deal_in = [{"tile": TILE_IDS[k], "probability": round(chances[k], 4), "revealed": k in revealed} for k in range(len(TILE_IDS)) if view.concealed[k]]
    choices = [
        {"action": _action_json(e.action), "mean": round(e.mean, 4), "stderr": round(e.stderr, 4), "rollouts": e.rollouts, "gap": round(gap, 4), "gap_se": round(se, 4)}
        for e, (gap, se) in zip(advice.estimates, advice.gaps())
    ]
    return {
        "phase": view.phase,
        "choices": choices,
        "best": choices[0]["action"] if choices else None,
        "worlds": advice.worlds,
        "clear": advice.ahead(CLEAR),
        "cpu_seconds": round(advice.cpu_seconds, 3),
        "deal_in": deal_in,
        "model": MODEL,
    }


_EXAMPLE = OpenApiExample(
    "碰 or 过",
    value={
        "hand": "5566p123456789s",
        "river": "ZB",
        "opponents": [{"river": "F9p1s5p"}, {"river": "BF"}],
        "wall_left": 37,
        "offered": {"tile": "5p", "by": 1},
    },
)


class AdviceView(APIView):
    """Estimate each choice of a position by playing the hand out at the table."""

    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(
        request=AdviceRequestSerializer,
        responses={200: AdviceResponseSerializer, 400: ErrorSerializer, 413: ErrorSerializer, **EV_REFUSALS},
        examples=[_EXAMPLE],
        summary="Table-aware advice (碰/过, 杠, 亮倒, discards)",
    )
    def post(self, request: Request) -> Response:
        return Response(run_advice(request, request.data))

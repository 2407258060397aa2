"""``/api/v1/analyze/``: the engine's analysis over HTTP (POST JSON or GET query)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext_noop
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.views import APIView

from kwx import EngineError, analyze
from kwx.hand.analysis import MAX_TEXT
from kwx.hand.ev import MAX_DRAWS, Budget
from kwx.hand.ev_analysis import DEPTHS
from kwx.hand.ev_analysis import FIELDS as EV_FIELDS
from kwx.hand.fans import SITUATION_KEYS
from kwx.numbers import read_whole
from kwx.rules import OPTIONS
from kwx_site.api_errors import ErrorSerializer, refuse_nulls
from kwx_site.api_rules import OptionsField, query_options, rules_field
from kwx_site.flags import read_flag

from .ev_limits import EVRefused, ev_slot, request_budget
from .renderers import ORJSONRenderer


class MeldSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["pong", "kong", "concealed_kong"])
    tile = serializers.CharField(help_text="One tile, e.g. 5p, Z, 五筒.")


class AnalyzeRequestSerializer(serializers.Serializer):
    hand = serializers.CharField(max_length=MAX_TEXT, help_text="Concealed tiles, e.g. 4556p123s789sZZZ; melds may follow in brackets: [555p] {5555s}.")
    melds = MeldSerializer(many=True, required=False, max_length=4)
    visible = serializers.CharField(max_length=MAX_TEXT, required=False, allow_blank=True, help_text="Tiles seen elsewhere (discards, others' melds).")
    rules = rules_field(required=False, default="standard")
    situation = serializers.ListField(child=serializers.ChoiceField(choices=sorted(SITUATION_KEYS)), required=False)
    options = OptionsField()
    depth = serializers.ChoiceField(choices=DEPTHS, required=False, default="plain", help_text="ev: add the chance to be ready, the chance to win and the expected score of each discard.")
    draws_left = serializers.IntegerField(min_value=1, max_value=MAX_DRAWS, required=False, help_text="Own draws still to come; required with depth ev.")
    liang_dao_when_ready = serializers.BooleanField(required=False, help_text="With depth ev: declare 亮倒 as soon as ready.")
    revealed = serializers.ListField(child=serializers.CharField(max_length=MAX_TEXT), max_length=2, required=False, help_text="Opponents' revealed (亮倒) hands, e.g. 46p456s789sFFF11s.")


AnalyzeQuerySerializer = type(
    "AnalyzeQuerySerializer",
    (serializers.Serializer,),
    {
        "__doc__": "The GET form of the request: what the query string may hold, with the server's own bounds.",
        "hand": serializers.CharField(max_length=MAX_TEXT, help_text="Hand, melds in brackets."),
        "visible": serializers.CharField(max_length=MAX_TEXT, required=False, allow_blank=True),
        "rules": rules_field(required=False),
        "situation": serializers.CharField(required=False, help_text="Comma-separated situational fan keys: " + ", ".join(sorted(SITUATION_KEYS))),
        **{o.key: serializers.CharField(required=False, help_text=f"Rule option {o.key}: " + ", ".join("none" if v is None else str(v).lower() for v in o.values)) for o in OPTIONS},
        "depth": serializers.ChoiceField(choices=DEPTHS, required=False),
        "draws_left": serializers.IntegerField(min_value=1, max_value=MAX_DRAWS, required=False, help_text="Own draws still to come (depth ev)."),
        "liang_dao_when_ready": serializers.BooleanField(required=False),
        "revealed": serializers.ListField(child=serializers.CharField(max_length=MAX_TEXT), max_length=2, required=False, help_text="A revealed opponent hand; repeat for two."),
    },
)


class FanSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    name_en = serializers.CharField()
    multiplier = serializers.IntegerField()
    tile = serializers.CharField(required=False, help_text="For 四归一: the kind it counts.")


class BaoHuSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="The multiplier the discarder pays on 包胡: both shares (each capped under bao_hu on, the sum capped under capped_sum).")
    amount = serializers.FloatField(help_text="What the discarder pays per base stake on 包胡, 漂 0: total + 坎 (twice under bao_hu_kan double) + 跑恰摸八.")


class SideSerializer(serializers.Serializer):
    allowed = serializers.BooleanField()
    total = serializers.IntegerField(help_text="The capped multiplier a payer who did not declare 亮倒 pays (the winner's own 亮倒 included), before flat extras; 0 when not allowed.")
    fans = FanSerializer(many=True)
    reason = serializers.CharField(allow_null=True, help_text="Why not allowed: pinghu, rob_kong_off or min_2.")
    fan_product = serializers.IntegerField(help_text="F of town-rules.md §2.1: every fan's product but 亮倒.")
    amount = serializers.FloatField(
        help_text="What one payer who did not declare pays per base stake with 漂 0: total + 坎 + 跑恰摸八, + the expected 马 on a self-draw that buys horses (town-rules.md §4); 0 when not allowed."
    )
    declared_payer_total = serializers.IntegerField(
        required=False, help_text="Where it differs from total (liang_dao_double winner_or_payer): the capped multiplier a payer who declared 亮倒 pays; 0 when not allowed from one."
    )
    declared_payer_amount = serializers.FloatField(required=False, help_text="With declared_payer_total: what that payer pays per base stake, 漂 0.")
    kan = serializers.IntegerField(required=False, help_text="Under shu_kan: the 坎 count, added per payment.")
    pao_qia_mo_ba = serializers.IntegerField(required=False, help_text="Under pao_qia_mo_ba: 跑 + 恰 + 摸 + 八, added per payment.")
    expected_ma = serializers.FloatField(
        required=False, help_text="A self-draw that buys horses (mai_ma): the expected horse score, the mean over the unseen tiles (an expected value, not a drawn one)."
    )
    bao_hu = BaoHuSerializer(required=False, help_text="Discard side with liang_dao in the situation, where the rules have 包胡: what the discarder pays.")


class WaitSerializer(serializers.Serializer):
    tile = serializers.CharField()
    remaining = serializers.IntegerField()
    self_draw = SideSerializer()
    discard = SideSerializer()


class RemainingSerializer(serializers.Serializer):
    tile = serializers.CharField()
    remaining = serializers.IntegerField()


class UkeireSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    tiles = RemainingSerializer(many=True)


class StderrSerializer(serializers.Serializer):
    ready_probability = serializers.FloatField()
    win_probability = serializers.FloatField()
    expected_score = serializers.FloatField()


class EVFieldsMixin(serializers.Serializer):
    ready_probability = serializers.FloatField(required=False, help_text="depth ev: chance to be ready within the draws left.")
    win_probability = serializers.FloatField(required=False, help_text="depth ev: chance to win within the draws left, if nobody else wins first.")
    expected_score = serializers.FloatField(
        required=False,
        help_text="depth ev: expected points received, in base stakes, if nobody else wins (若无人先和): the opponents never win first and dealing in costs nothing, so it is not a net result.",
    )
    method = serializers.ChoiceField(choices=["exact", "monte_carlo"], required=False, help_text="depth ev: how this figure was found.")
    samples = serializers.IntegerField(required=False, help_text="monte_carlo only.")
    stderr = StderrSerializer(required=False, help_text="monte_carlo only: standard errors.")


class OptionSerializer(EVFieldsMixin):
    discard = serializers.CharField()
    shanten = serializers.IntegerField()
    ukeire = UkeireSerializer()
    waits = WaitSerializer(many=True)
    value = serializers.FloatField(
        allow_null=True, help_text="Ready: Σ over the waits of tiles left × (self-draw amount + discard amount) (town-rules.md §4; the totals under rules without flat extras)."
    )
    deals_in = serializers.BooleanField(required=False, help_text="With revealed: discarding it completes a revealed hand (包胡).")


class DangerSerializer(serializers.Serializer):
    opponent = serializers.IntegerField()
    tiles = serializers.ListField(child=serializers.CharField())


class AnalyzeResponseSerializer(EVFieldsMixin):
    hand = serializers.CharField()
    melds = MeldSerializer(many=True)
    notation = serializers.CharField(help_text="Canonical hand with melds in brackets, for links.")
    visible = serializers.CharField()
    rules = serializers.CharField()
    situation = serializers.ListField(child=serializers.CharField())
    rule_options = OptionsField(help_text="Every rule option's resolved value (town-rules.md §3.1).")
    tile_count = serializers.IntegerField()
    shanten = serializers.IntegerField()
    waits = WaitSerializer(many=True, required=False, help_text="13 tiles only.")
    ukeire = UkeireSerializer(required=False, help_text="13 tiles only.")
    options = OptionSerializer(many=True, required=False, help_text="14 tiles only: discards, best first.")
    draws_left = serializers.IntegerField(required=False, help_text="depth ev only.")
    ev_complete = serializers.BooleanField(
        required=False,
        help_text="depth ev only: false when the request's work budget cut the figures short (an exact figure sampled "
        "instead, or fewer samples than planned); each figure's method, samples and stderr give its precision.",
    )
    danger = DangerSerializer(many=True, required=False, help_text="With revealed: the tiles each revealed hand wins on.")
    deals_in = serializers.ListField(child=serializers.CharField(), required=False, help_text="13 tiles with revealed: held tiles that deal in.")


def query_flag(query: Any, key: str) -> bool:
    """A true/false query parameter: 1/true/on/yes or 0/false/off/no, anything else a 400 naming it."""
    raw = query.get(key)
    flag = read_flag(raw)
    if flag is not None:
        return flag
    raise EngineError(gettext_noop('%(name)s must be true or false, not "%(value)s".'), key, name=key, value=raw[:20])


def query_to_request(query: Any) -> dict[str, Any]:
    """The POST body equivalent of a GET query string (``situation`` comma-separated or repeated)."""
    body: dict[str, Any] = {}
    for key in ("hand", "visible", "rules"):
        if key in query:
            body[key] = query.get(key)
    situation = [s for item in query.getlist("situation") for s in item.split(",") if s]
    if situation:
        body["situation"] = situation
    options = query_options(query)
    if options:
        body["options"] = options
    if "depth" in query:
        body["depth"] = query.get("depth")
    if "draws_left" in query:
        raw = query.get("draws_left")
        number = read_whole(raw)
        body["draws_left"] = raw if number is None else number
    if "liang_dao_when_ready" in query:
        body["liang_dao_when_ready"] = query_flag(query, "liang_dao_when_ready")
    revealed = [r for r in query.getlist("revealed") if r]
    if revealed:
        body["revealed"] = revealed
    return body


def run_analysis(body: Any, budget: Budget | None = None) -> dict[str, Any]:
    """Check the shape of a request body and hand it to the engine (``budget``: the request's, for depth ev)."""
    if not isinstance(body, dict):
        raise EngineError(gettext_noop("The request body must be a JSON object."), "body")
    unknown = set(body) - {"hand", "melds", "visible", "rules", "situation", "options", *EV_FIELDS}
    if unknown:
        name = sorted(unknown)[0][:40]
        raise EngineError(gettext_noop('Unknown field "%(name)s".'), name, name=name)
    refuse_nulls(body)
    if "hand" not in body:
        raise EngineError(gettext_noop("This field is required."), "hand")
    return analyze(
        body["hand"],
        melds=body.get("melds", ()),
        visible=body.get("visible", ""),
        rules=body.get("rules", "standard"),
        situation=body.get("situation", ()),
        options=body.get("options"),
        budget=budget,
        **{key: body.get(key) for key in EV_FIELDS},
    )


class EVThrottled(exceptions.Throttled):
    """429 with ``Retry-After``: an expected-value request over a limit, or the host's slots busy (``ev_limits``)."""

    def __init__(self, refused: EVRefused) -> None:
        exceptions.APIException.__init__(self, refused.message)
        self.wait = refused.wait


class EVUnavailable(exceptions.APIException):
    """503 with ``Retry-After``: the host is too loaded to finish an expected-value request before its deadline (``EV_DEADLINE``)."""

    status_code = 503
    default_code = "busy"

    def __init__(self, refused: EVRefused) -> None:
        super().__init__(refused.message)
        self.wait = refused.wait


def ev_refusal(refused: EVRefused) -> exceptions.APIException:
    """The API's answer to a refused expected-value request: 503 when it ran past its deadline, else 429; both with ``Retry-After``."""
    return EVUnavailable(refused) if refused.reason == "late" else EVThrottled(refused)


EV_REFUSALS = {
    429: OpenApiResponse(
        ErrorSerializer, description="Too many expected-value requests (from the client or on the site), or every expected-value slot of the server is busy; `Retry-After` says when to try again."
    ),
    503: OpenApiResponse(
        ErrorSerializer, description="The server is too busy to finish the expected values before its deadline (`EV_DEADLINE`), or the database is not answering; `Retry-After` says when to try again."
    ),
}
"""The refusals an expected-value request may get, for the schema."""


def limited_analysis(request: Request, body: Any) -> dict[str, Any]:
    """``run_analysis``, inside an EV slot when the body asks for depth ev (refused: ``ev_refusal``)."""
    if not (isinstance(body, dict) and body.get("depth") == "ev"):
        return run_analysis(body)
    try:
        with ev_slot(request) as run:
            return run(run_analysis, body, request_budget(request))
    except EVRefused as exc:
        raise ev_refusal(exc) from exc


class JSONOnly(DefaultContentNegotiation):
    """The API answers JSON only: no Accept-header parsing on every request."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


def json_response(body: dict[str, Any]) -> HttpResponse:
    """A 200 answer rendered to bytes at once.

    A DRF ``Response`` keeps the body (hundreds of dicts for a 14-tile hand) alive in the
    request's reference cycles until the garbage collector runs; bytes free it right away.
    """
    return HttpResponse(ORJSONRenderer().render(body), content_type=ORJSONRenderer.media_type)


URI_TOO_LONG = OpenApiResponse(
    OpenApiTypes.STR,
    description=(
        "The request line (method, path and query string) is over 4,094 bytes: refused by the server (gunicorn) before the "
        "application sees it, so the body is plain text, not the API's error shape. Send a long hand by POST."
    ),
)
"""The 414 of a GET whose query string is too long (docs/deploy.md, the reverse proxy)."""

_EXAMPLE = OpenApiExample("卡五星 wait", value={"hand": "4556p123789sZZZ", "rules": "standard"}, request_only=True)


class AnalyzeView(APIView):
    """Analyse a 13-tile hand (waits, fans, effective tiles) or a 14-tile hand (discard options).

    With depth ev the figures are worked out within a work budget (``ev_complete`` says
    whether it cut them short) and the requests are limited per client, for the site and
    at once per server: over a limit the answer is 429 with ``Retry-After``.
    """

    authentication_classes: list = []
    permission_classes: list = []
    content_negotiation_class = JSONOnly

    def perform_authentication(self, request: Request) -> None:
        """Nobody needs to be identified to analyse a hand: skip DRF's eager ``request.user``."""

    @extend_schema(
        request=AnalyzeRequestSerializer,
        responses={200: AnalyzeResponseSerializer, 400: ErrorSerializer, 413: ErrorSerializer, **EV_REFUSALS},
        examples=[_EXAMPLE],
        summary="Analyse a hand",
    )
    def post(self, request: Request) -> HttpResponse:
        return json_response(limited_analysis(request, request.data))

    @extend_schema(
        parameters=[AnalyzeQuerySerializer],
        responses={200: AnalyzeResponseSerializer, 400: ErrorSerializer, 414: URI_TOO_LONG, **EV_REFUSALS},
        summary="Analyse a hand given in the query string",
    )
    def get(self, request: Request) -> HttpResponse:
        return json_response(limited_analysis(request, query_to_request(request.query_params)))

"""``/api/v1/settle/``: one hand's payments and nets (kwx-rules §6) over HTTP."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kwx import EngineError
from kwx.table.record import DEFAULT_PLAYERS
from kwx.table.settlement import KONG_TYPES, PIAO_CHOICES, RESULTS, USER_SITUATION_KEYS, Kong, next_dealer, parse_input, settle
from kwx_site.api_errors import ErrorSerializer, refuse_nulls
from kwx_site.api_rules import OptionsField, rules_field

from .text import settlement_json


@extend_schema_field({"oneOf": [{"type": "string", "maxLength": 40}, {"type": "integer", "minimum": 0, "maximum": 2}]})
class PlayerField(serializers.Field):
    """A player: a name from ``players``, or a seat index 0–2 (as the score sheets store them)."""


class SettleKongSerializer(serializers.Serializer):
    who = PlayerField(help_text="The player who made the kong: a name from players, or its index 0-2.")
    type = serializers.ChoiceField(choices=list(KONG_TYPES), help_text="an_gang 暗杠, ming_gang 明杠 (蓄杠), zhi_gang 直杠.")
    tile = serializers.CharField(help_text="The konged kind, e.g. 5p, F.")
    fed_by = PlayerField(required=False, help_text="直杠 only: who discarded the fourth tile.")
    chain = serializers.IntegerField(
        required=False,
        default=1,
        help_text="Place in a 杠上杠 chain: " + ", ".join(f"{n} ×{Kong(0, 'an_gang', 0, chain=n).multiplier}" for n in (1, 2, 3)) + " …, 1 being first or alone; kongs are listed in play order.",
    )
    drawn = serializers.BooleanField(required=False, default=True, help_text="an_gang only: false when the konged tile was not the tile just drawn (read by an_gang_chain_drawn_only).")


class SettleWinnerSerializer(serializers.Serializer):
    player = PlayerField()
    hand = serializers.CharField(help_text="The 13 tiles before the winning tile, melds in brackets: 4556p123s{7777s}ZZZ.")
    tile = serializers.CharField(help_text="The winning tile.")
    melds = serializers.ListField(child=serializers.DictField(), required=False, help_text='Melds as objects, instead of brackets in the hand: [{"type": "pong", "tile": "Z"}].')
    situation = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(USER_SITUATION_KEYS)),
        required=False,
        help_text="gang_shang_kai_hua or hai_di_lao (self-draw), gang_shang_pao or hai_di_pao (discard). 亮倒 and 抢杠胡 follow from the input.",
    )


class SettleRequestSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField(), min_length=3, max_length=3, help_text="Three different names.")
    base = serializers.IntegerField(required=False, default=1, help_text="底金, the base stake.")
    piao = serializers.ListField(child=serializers.ChoiceField(choices=list(PIAO_CHOICES)), required=False, help_text="漂 of each player, in the order of players.")
    rules = rules_field(required=False, default="standard")
    options = OptionsField()
    kongs = SettleKongSerializer(many=True, required=False)
    liang_dao = serializers.ListField(child=PlayerField(), required=False, help_text="Who declared 亮倒, in the order they declared (the first is the first declarer).")
    result = serializers.ChoiceField(choices=list(RESULTS), help_text="draw 荒庄, self_draw 自摸, discard 点炮 (two winners: 一炮双响), rob_kong 抢杠胡.")
    discarder = PlayerField(required=False, help_text="discard: who discarded; rob_kong: whose kong was robbed.")
    winners = SettleWinnerSerializer(many=True, required=False)
    dealer = serializers.CharField(required=False, allow_blank=True, max_length=40, help_text="This hand's dealer; with it the answer names the next dealer after a drawn hand too.")
    horses = serializers.ListField(
        child=serializers.CharField(), max_length=6, required=False, help_text="买马: the horse tiles turned after a qualifying self-draw (one or six, or what the wall still held)."
    )
    wall_left = serializers.IntegerField(min_value=0, max_value=45, required=False, help_text="Tiles not drawn when the hand ended (how many horses the wall could give).")
    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6), min_length=2, max_length=2, required=False, help_text="上楼: the deal's two dice (required when shang_lou is on)."
    )
    hands = serializers.ListField(
        child=serializers.CharField(),
        min_length=3,
        max_length=3,
        required=False,
        help_text="A drawn hand under 查大叫: each player's 13 tiles when the wall ran out, melds in brackets (or objects {hand, melds}), in the order of players.",
    )


class ReasonSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="self_draw, discard, bao_hu, qiang_gang_hu, piao, an_gang, ming_gang, zhi_gang, huang_zhuang.")
    amount = serializers.IntegerField()
    numbers = serializers.DictField(child=serializers.IntegerField(), help_text="The figures behind the amount (multiplier, base, chain …).")
    text = serializers.CharField(help_text="The reason in words, with the steps of its multiplier (the payer's 亮倒, 对亮对番, 上楼, the cap).")


class PaymentSerializer(serializers.Serializer):
    payer = serializers.CharField()
    payee = serializers.CharField()
    amount = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["win", "kong", "liang_dao", "cha_da_jiao"])
    kind_text = serializers.CharField(help_text="The kind in words: win, kong money, 亮倒 on a drawn hand, 查大叫.")
    parts = serializers.DictField(child=serializers.IntegerField(), help_text="The amount by part, each × base: fan, piao, kan, ma, pao_qia_mo_ba, kong, flat.")
    reasons = ReasonSerializer(many=True)
    text = serializers.CharField()


class SettleFanSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    name_en = serializers.CharField()
    multiplier = serializers.IntegerField()
    tile = serializers.CharField(required=False)


class WinSerializer(serializers.Serializer):
    player = serializers.CharField()
    side = serializers.ChoiceField(choices=["self_draw", "discard"])
    tile = serializers.CharField()
    multiplier = serializers.IntegerField(help_text="Capped total multiplier towards a payer who did not declare (亮倒 of the winner included, no 上楼).")
    product = serializers.IntegerField(help_text="Product of the fans before the cap, 亮倒 included.")
    fan_product = serializers.IntegerField(help_text="F: the product of every fan but 亮倒 (town-rules.md §2.1 step 1).")
    fans = SettleFanSerializer(many=True)
    value = serializers.IntegerField(help_text="V = base × multiplier.")
    kan = serializers.IntegerField(help_text="坎 under 数坎 (0 when 数坎 is off).")
    bao_hu = serializers.BooleanField(help_text="Whether the discarder pays 包胡.")
    ma = serializers.IntegerField(required=False, help_text="马: the horses' score, when horses were bought.")
    pao_qia_mo_ba = serializers.IntegerField(required=False, help_text="跑恰摸八 points, when the rules count them.")


class ReadySerializer(serializers.Serializer):
    player = serializers.CharField()
    ready = serializers.BooleanField()
    rank = serializers.IntegerField(help_text="查大叫 rank: 1 declared (2: a later declarer when all are ready, 随州), 10 ready, 0 not ready.")
    tile = serializers.CharField(required=False, help_text="The best wait.")
    fans = SettleFanSerializer(many=True, required=False)
    fan_product = serializers.IntegerField(required=False)
    kan = serializers.IntegerField(required=False)


class NetSerializer(serializers.Serializer):
    player = serializers.CharField()
    net = serializers.IntegerField()


class SettleResponseSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField())
    base = serializers.IntegerField()
    rules = serializers.CharField()
    options = serializers.DictField(child=serializers.JSONField(), help_text="Every rule option's resolved value.")
    result = serializers.CharField()
    result_text = serializers.CharField()
    rules_text = serializers.CharField(help_text='The rules by name, "孝感（改）" when an option differs from the preset.')
    wins = WinSerializer(many=True)
    ready = ReadySerializer(many=True, help_text="A drawn hand under 查大叫: every seat's best wait and rank.")
    payments = PaymentSerializer(many=True)
    nets = NetSerializer(many=True, help_text="Each player's net for the hand; they sum to zero.")
    next_dealer = serializers.CharField(allow_null=True, help_text="Null after a drawn hand when no dealer was given.")


def run_settlement(body: Any) -> dict[str, Any]:
    """Settle a request body (the engine's JSON form plus an optional ``dealer``)."""
    if not isinstance(body, dict):
        raise EngineError(gettext_noop("The request body must be a JSON object."), "body")
    refuse_nulls(body)
    data = dict(body)
    dealer_name = data.pop("dealer", None)
    inp = parse_input(data)
    dealer = None
    if dealer_name not in (None, ""):
        if dealer_name not in inp.players:
            raise EngineError(
                gettext_noop('Unknown player "%(value)s": the players are %(names)s.'),
                "dealer",
                value=str(dealer_name)[:40],
                names=", ".join(inp.players),
            )
        dealer = inp.players.index(dealer_name)
    result = settle(inp)
    following = None
    if dealer is not None or result.next_dealer_rule != "draw":
        following = next_dealer(result, dealer if dealer is not None else 0)
    return settlement_json(result, following)


_EXAMPLE = OpenApiExample(
    "自摸 with 漂 and a 暗杠",
    value={
        "players": list(DEFAULT_PLAYERS),
        "base": 1,
        "piao": [1, 2, 0],
        "rules": "standard",
        "kongs": [{"who": "乙", "type": "an_gang", "tile": "F"}],
        "liang_dao": [],
        "result": "self_draw",
        "winners": [{"player": "甲", "hand": "4556p123s789sZZZ", "tile": "5p"}],
    },
    request_only=True,
)


class SettleView(APIView):
    """Settle one hand: every payment with its reasons, and each player's net."""

    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(
        request=SettleRequestSerializer,
        responses={200: SettleResponseSerializer, 400: ErrorSerializer, 413: ErrorSerializer},
        examples=[_EXAMPLE],
        summary="Settle a hand (结算)",
    )
    def post(self, request: Request) -> Response:
        return Response(run_settlement(request.data))

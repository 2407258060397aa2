"""``/api/v1/hands/replay/``: check a whole-hand record (kwx-hand/1) and give its facts and money.

The body is read by ``analysis.records.read_record``, the reader of ``/play/upload/`` too.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kwx.hand.fans import SITUATIONAL_FANS
from kwx.hand.money import capped
from kwx.hand.serial import fans_json
from kwx.hand.tiles import TILE_IDS
from kwx.table.record import FORMAT, Replay
from kwx.table.settlement import KONG_TYPES, PIAO_CHOICES, Ready
from kwx.table.table import VERBS
from kwx_site.api_errors import RawJSONParser
from kwx_site.api_rules import OptionsField, rules_field
from settlement.api import PaymentSerializer
from settlement.text import payment_json

from .api import FanSerializer
from .records import RecordRefused, read_record

RESULT_CHOICES = ["self_draw", "discard", "rob_kong", "draw"]


class RecordActionSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=2)
    draw = serializers.CharField(required=False, help_text="The tile taken from the wall (turn draw or replacement after a kong).")
    discard = serializers.CharField(required=False)
    liang_dao = serializers.BooleanField(required=False, help_text="Beside a discard: declares 亮倒 with it.")
    pong = serializers.CharField(required=False)
    kong = serializers.CharField(required=False, help_text="直杠 on a discard, 暗杠 or 蓄杠 on the seat's own turn.")
    win = serializers.CharField(required=False, help_text="自摸, 点炮 or 抢杠胡 on the tile named.")
    kou = serializers.ListField(child=serializers.CharField(), required=False, max_length=4, help_text="Beside a declaring discard under 半亮 (ban_liang): the triplets kept face down.")
    horses = serializers.ListField(
        child=serializers.CharField(), required=False, min_length=1, max_length=6, help_text="Right after a self-draw that buys horses (买马): the horse tiles turned from the wall."
    )


class RecordSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=[FORMAT], required=False)
    rules = rules_field(required=False, default="standard")
    options = OptionsField()
    base = serializers.IntegerField(min_value=1, max_value=10_000, required=False, default=1)
    piao = serializers.ListField(child=serializers.ChoiceField(choices=list(PIAO_CHOICES)), min_length=3, max_length=3, required=False)
    players = serializers.ListField(child=serializers.CharField(max_length=20), min_length=3, max_length=3, required=False)
    dealer = serializers.IntegerField(min_value=0, max_value=2)
    hands = serializers.ListField(child=serializers.CharField(), min_length=3, max_length=3, help_text="Each seat's 13 dealt tiles.")
    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6), min_length=2, max_length=2, required=False, help_text="The deal's two dice; required when shang_lou (上楼) is on."
    )
    actions = RecordActionSerializer(many=True, help_text="One verb per action: " + ", ".join(VERBS) + ".")


class ReplayWinnerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    tile = serializers.CharField()
    total = serializers.IntegerField(help_text="Capped multiplier, situational fans included (base not applied).")
    fans = FanSerializer(many=True)
    situation = serializers.ListField(child=serializers.CharField(), help_text="Situational fans that follow from the actions.")


class ReplayKongSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    type = serializers.ChoiceField(choices=list(KONG_TYPES))
    tile = serializers.CharField()
    fed_by = serializers.IntegerField(allow_null=True, help_text="直杠: the seat that discarded the fourth tile.")
    chain = serializers.IntegerField(help_text="Place in a 杠上杠 chain: 1 first or alone, n + 1 after kong n.")
    drawn = serializers.BooleanField(required=False, help_text="Under an_gang_chain_drawn_only, an 暗杠 of four tiles held before the latest draw carries false; absent otherwise.")


class ReplayReadySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    ready = serializers.BooleanField()
    rank = serializers.IntegerField(help_text="查大叫 rank: 1 declared (2: a later declarer when all three are ready, 随州), 10 ready, 0 not ready.")
    tile = serializers.CharField(required=False, help_text="The best wait.")
    total = serializers.IntegerField(required=False, help_text="The best value's capped multiplier, the seat's own 亮倒 included.")
    fan_product = serializers.IntegerField(required=False, help_text="F of the best value (every fan but 亮倒).")
    fans = FanSerializer(many=True, required=False)


class ReplaySerializer(serializers.Serializer):
    result = serializers.ChoiceField(choices=RESULT_CHOICES, allow_null=True, help_text="Null for a record that stops before the hand is over.")
    winners = ReplayWinnerSerializer(many=True)
    discarder = serializers.IntegerField(allow_null=True, help_text="The discarder, or the robbed kong's maker.")
    kongs = ReplayKongSerializer(many=True, help_text="In the order they were made; a robbed kong is not made.")
    liang_dao = serializers.ListField(child=serializers.IntegerField(), help_text="Seats that declared 亮倒, in seat order.")
    liang_dao_order = serializers.ListField(child=serializers.IntegerField(), help_text="Seats that declared 亮倒, in the order they declared (the first is the first declarer).")
    options = OptionsField(help_text="Every rule option the record was settled under.")
    dice = serializers.ListField(child=serializers.IntegerField(), required=False, help_text="The deal's dice (上楼), when the rules roll them.")
    horses = serializers.ListField(child=serializers.CharField(), required=False, help_text="The horse tiles turned (买马), when a self-draw bought them.")
    ready = ReplayReadySerializer(many=True, help_text="A drawn hand under 查大叫: every seat's best value and rank.")
    payments = PaymentSerializer(many=True, help_text="As POST /api/v1/settle/ (kong money alone for an unfinished record).")
    nets = serializers.ListField(child=serializers.IntegerField(), help_text="Each seat's net; they sum to zero.")
    next_dealer = serializers.IntegerField(allow_null=True)


class ReplayErrorDetailSerializer(serializers.Serializer):
    field = serializers.CharField()
    action = serializers.IntegerField(required=False, help_text="0-based index of the first illegal action.")
    message = serializers.CharField()


class ReplayErrorSerializer(serializers.Serializer):
    error = ReplayErrorDetailSerializer()


def replay_json(done: Replay) -> dict[str, Any]:
    """The answer for a legal record."""
    s = done.settlement
    names = done.header.players
    return {
        "result": done.result,
        "winners": [
            {
                "seat": w.seat,
                "tile": TILE_IDS[w.kind],
                "total": w.value.total,
                "fans": fans_json(w.value),
                "situation": [f.key for f in SITUATIONAL_FANS if f.key in w.situation],
            }
            for w in done.final.wins
        ],
        "discarder": s.input.discarder,
        "kongs": [
            {"seat": k.seat, "type": k.type, "tile": TILE_IDS[k.kind], "fed_by": k.fed_by, "chain": k.chain, **({"drawn": False} if not k.drawn and s.rules.an_gang_chain_drawn_only else {})}
            for k in done.final.kongs
        ],
        "liang_dao": list(done.final.liang_dao),
        "liang_dao_order": list(done.final.declaration_order),
        "options": s.rules.as_dict(),
        **({"dice": list(done.final.dice)} if done.final.dice is not None else {}),
        **({"horses": [TILE_IDS[k] for k in done.final.horses]} if done.final.horses else {}),
        "ready": [_ready_json(r) for r in s.ready],
        "payments": [payment_json(p, names) for p in s.payments],
        "nets": list(s.nets),
        "next_dealer": done.next_dealer,
    }


def _ready_json(ready: Ready) -> dict[str, Any]:
    """One seat at a drawn hand under 查大叫: its best wait and value, and its rank."""
    out: dict[str, Any] = {"seat": ready.seat, "ready": ready.value is not None, "rank": ready.rank}
    if ready.value is not None and ready.kind is not None:
        out.update(tile=TILE_IDS[ready.kind], total=capped(ready.value.product, ready.value.cap), fan_product=ready.value.fan_product, fans=fans_json(ready.value))
    return out


class ReplayView(APIView):
    """Replay a whole-hand record: legality, the hand's facts and its settlement."""

    authentication_classes: list = []
    permission_classes: list = []
    parser_classes = [RawJSONParser]  # the body is read by read_record, as an upload is

    @extend_schema(
        request=RecordSerializer,
        responses={200: ReplaySerializer, 400: ReplayErrorSerializer, 413: ReplayErrorSerializer},
        summary="Replay a hand record (kwx-hand/1)",
    )
    def post(self, request: Request) -> Response:
        raw = request.data if isinstance(request.data, bytes) else b""  # DRF gives {} for an empty body
        try:
            _data, done = read_record(raw, whole="body")
        except RecordRefused as exc:
            return Response(exc.as_json(), status=exc.status)
        return Response(replay_json(done))

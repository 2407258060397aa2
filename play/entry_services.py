"""What changes state when a hand played elsewhere is entered: it is stored as the player's hand and its review queued."""

from __future__ import annotations

from django.db import transaction

from accounts.models import Player
from kwx.table.seat_record import SeatRecord, SeatReplay

from . import services
from .models import Hand


def enter_hand(*, player: Player, record: SeatRecord, done: SeatReplay, client: str = "") -> Hand:
    """Store a hand entered from one seat (``record``, ``done`` its replay) as the player's hand, reviewed from that seat like an upload.

    A finished hand keeps its result and next dealer; its nets and the seat's figures only when its money is known (a win whose tiles
    were not shown leaves them out). ``client``: as ``services.start_game``."""
    hand = Hand(player=player, source=Hand.UPLOAD, seat=record.seat, record=record.to_json())
    with transaction.atomic():
        if done.result is not None:
            hand.over, hand.result, hand.next_dealer = True, done.result, done.next_dealer
            if done.money_known:
                hand.nets = list(done.settlement.nets)
                hand.outcome = services.outcome(done, hand.seat)
        services.queue_review(hand, client)  # the task reads the hand's id once this transaction commits
        hand.save()
    return hand

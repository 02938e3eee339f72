"""Writes to the card inventory above the purchases (961 CMR 3.04(4)(e)): cards of a purchase
used or voided, at an occasion or out of any, and taken back when the act that used them is
undone. The purchases themselves are ``organizations.equipment_services``'.

Each write runs in ``rules.atomic()``: it locks the purchase, builds the facts, has the rules
judge them before anything is saved, saves, and appends its audit event."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError

from beano import locking, rules
from beano.actors import Actor
from beano.rules.equipment import CARD_USE, CardUseFacts
from equipment.models import CardUsage
from equipment.paper_stock import movements_of
from occasions.models import Occasion
from organizations.audit import acting_user, record_event, snapshot
from organizations.models import CardPurchase

USAGE_FIELDS = ("purchase", "used_on", "quantity_used", "quantity_voided", "note", "occasion")


def on_hand(purchase: CardPurchase) -> int:
    """Cards of one purchase on hand (3.04(4)(e)): bought − used − voided − issued + returned
    − destroyed ± a stock-take's difference (``equipment.paper_stock``)."""
    return movements_of([purchase.pk])[purchase.pk].on_hand


@rules.atomic()
def record_card_usage(
    *,
    purchase: CardPurchase,
    by: Actor,
    used_on: dt.date,
    quantity_used: int = 0,
    quantity_voided: int = 0,
    note: str = "",
    occasion: Occasion | None = None,
) -> CardUsage:
    """Record cards of a purchase used or voided, at ``occasion`` (an occasion of the
    organization, or None); never more than are on hand (3.04(4)(e)). The purchase row is
    locked, so two usages recorded at once cannot overdraw it."""
    purchase = locking.lock(CardPurchase.objects).get(pk=purchase.pk)
    if occasion is not None and occasion.organization_id != purchase.organization_id:
        raise ValidationError({"occasion": "That occasion is another organization's."})
    usage = CardUsage(
        purchase=purchase,
        used_on=used_on,
        quantity_used=quantity_used,
        quantity_voided=quantity_voided,
        note=note.strip(),
        occasion=occasion,
        recorded_by=acting_user(by),
    )
    usage.full_clean(validate_constraints=False)
    available = on_hand(purchase)
    rules.enforce(
        CARD_USE,
        CardUseFacts(
            description=str(purchase),
            on_hand=available,
            used=quantity_used,
            voided=quantity_voided,
        ),
        on=used_on,
        actor=by,
        organization=purchase.organization,
    )
    usage.validate_constraints()
    usage.save()
    record_event(
        organization=purchase.organization,
        actor=by,
        action="organizations.card_usage.recorded",
        target=usage,
        new=snapshot(usage, USAGE_FIELDS)
        | {"on_hand_after": available - quantity_used - quantity_voided},
    )
    return usage


@rules.atomic()
def take_back_card_usage(*, usage: CardUsage, by: Actor, reason: str) -> None:
    """Put cards recorded as used back on hand, because the act that recorded them was undone
    (an amendment of a filed report withdrawn). The row goes; its audit events, and this one
    saying why, stay. Putting cards back can never overdraw the purchase, so no rule judges it."""
    locking.lock(CardPurchase.objects).get(pk=usage.purchase_id)
    usage = locking.lock(CardUsage.objects).get(pk=usage.pk)
    record_event(
        organization=usage.purchase.organization,
        actor=by,
        action="organizations.card_usage.taken_back",
        target=usage,
        old=snapshot(usage, USAGE_FIELDS),
        new={"reason": reason},
    )
    usage.delete()

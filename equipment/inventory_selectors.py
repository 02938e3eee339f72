"""Reads for the card inventory page (961 CMR 3.04(4)(e)), always given the organization."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from equipment.paper_stock import with_movements
from organizations.models import CardPurchase, Organization


def card_purchases(organization: Organization) -> QuerySet[CardPurchase]:
    """Purchases with their movements and ``on_hand`` (``equipment.paper_stock``)."""
    return with_movements(CardPurchase.objects.filter(organization=organization)).order_by(
        "card_type", "invoice_date", "pk"
    )


@dataclass
class CardTypeTotals:
    card_type: str
    label: str
    bought: int = 0
    used: int = 0
    voided: int = 0
    issued: int = 0
    returned: int = 0
    destroyed: int = 0
    adjusted: int = 0
    on_hand: int = 0
    purchases: list[CardPurchase] = field(default_factory=list)


def inventory_by_card_type(organization: Organization) -> list[CardTypeTotals]:
    """The purchases grouped by card type, with the type's totals (3.04(4)(e))."""
    groups: dict[str, CardTypeTotals] = {}
    for p in card_purchases(organization):
        group = groups.setdefault(
            p.card_type, CardTypeTotals(p.card_type, p.get_card_type_display())
        )
        group.purchases.append(p)
        group.bought += p.quantity
        group.used += p.used
        group.voided += p.voided
        group.issued += p.issued
        group.returned += p.returned
        group.destroyed += p.destroyed
        group.adjusted += p.adjusted
        group.on_hand += p.on_hand
    return list(groups.values())

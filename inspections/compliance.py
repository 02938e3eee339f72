"""The compliance views' reads over a scope of organizations: prizes against the limits in force
on each occasion's date (961 CMR 3.04(8)), equipment without proof of ownership or an approved
lease (3.04(4)(a), (e)) and the card inventory reconciled (3.04(4)(e)). Each is a fixed number of
queries, whatever the number of occasions."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, QuerySet

from beano import rules
from beano.rules import Violation
from beano.rules.equipment import USE
from beano.rules.limits import limits_in_force
from equipment.paper_stock import with_movements
from inspections.filters import OccasionFilter
from occasions.models import Occasion
from organizations.equipment_services import equipment_facts, lease_authorizations
from organizations.models import CardPurchase, Equipment, Organization

ZERO = Decimal("0.00")


def occasions_in(organizations: QuerySet[Organization], flt: OccasionFilter) -> QuerySet[Occasion]:
    return flt.occasions(Occasion.objects.filter(organization__in=organizations))


@dataclass(frozen=True)
class EquipmentProblem:
    equipment: Equipment
    violations: list[Violation]


def equipment_problems(
    organizations: QuerySet[Organization], today: dt.date
) -> tuple[int, list[EquipmentProblem]]:
    """The equipment in service that could not be used today: without proof of ownership, or
    leased without a lease the Director approved and valid today, or otherwise refused by the
    rules of 3.04(4) (judged as an occasion opening today would judge it). Two queries."""
    limits = limits_in_force(today)
    items = list(
        Equipment.objects.filter(organization__in=organizations)
        .filter(Q(retired_on__isnull=True) | Q(retired_on__gt=today))
        .select_related("organization", "lease_authorization")
        .order_by("organization__name", "kind", "description", "pk")
    )
    problems = []
    for item in items:
        decision = rules.judge(
            USE,
            equipment_facts(item),
            on=today,
            authorizations=lease_authorizations(item),
            limits=limits,
        )
        if not decision.allowed:
            problems.append(EquipmentProblem(item, list(decision.violations)))
    return len(items), problems


def card_inventory(organizations: QuerySet[Organization]) -> list[CardPurchase]:
    """Every card purchase of the scope, reconciled: bought − used − voided − issued to the
    door + counted back − destroyed ± stock-takes = on hand, with its proof (3.04(4)(e)). One
    query."""
    return list(
        with_movements(CardPurchase.objects.filter(organization__in=organizations))
        .select_related("organization")
        .order_by("organization__name", "card_type", "invoice_date", "pk")
    )


@dataclass
class InventoryTotals:
    organization: Organization
    card_type: str
    bought: int = 0
    used: int = 0
    voided: int = 0
    issued: int = 0
    returned: int = 0
    destroyed: int = 0
    adjusted: int = 0
    on_hand: int = 0


def inventory_totals(purchases: list[CardPurchase]) -> list[InventoryTotals]:
    """The purchases added up by organization and card type, in the purchases' order."""
    totals: dict[tuple[int, str], InventoryTotals] = {}
    for p in purchases:
        key = (p.organization_id, p.card_type)
        if key not in totals:
            totals[key] = InventoryTotals(p.organization, p.get_card_type_display())
        row = totals[key]
        row.bought += p.quantity
        row.used += p.used
        row.voided += p.voided
        row.issued += p.issued
        row.returned += p.returned
        row.destroyed += p.destroyed
        row.adjusted += p.adjusted
        row.on_hand += p.on_hand
    return list(totals.values())

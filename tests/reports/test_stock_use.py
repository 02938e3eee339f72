"""Cards from the stock (961 CMR 3.04(4)(e)): the close-out takes the cards used out of the
inventory, refuses more than are on hand, and refuses another organization's cards."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from beano import rules
from reports import services
from tests.reports.test_services import D

# --- Cards from the stock: 3.04(4)(e) ------------------------------------------------------------


def test_cards_used_are_taken_out_of_the_inventory(counted, tenant, card_purchase):
    from equipment.inventory_services import on_hand
    from reports.figures import compute_figures

    before = on_hand(card_purchase)
    services.record_stock_used(
        occasion=counted,
        purchase=card_purchase,
        quantity_used=90,
        quantity_voided=2,
        by=tenant.bookkeeper,
    )
    assert on_hand(card_purchase) == before - 92
    [row] = compute_figures(counted)["stock"]
    assert (row["used"], row["voided"]) == (90, 2)


def test_more_cards_than_on_hand_are_refused_by_4e(counted, tenant, card_purchase):
    from equipment.inventory_services import on_hand

    with pytest.raises(rules.RuleViolation) as error:
        services.record_stock_used(
            occasion=counted,
            purchase=card_purchase,
            quantity_used=on_hand(card_purchase) + 1,
            quantity_voided=0,
            by=tenant.bookkeeper,
        )
    assert error.value.citations == ["961 CMR 3.04(4)(e)"]


def test_another_organizations_cards_are_refused(counted, other_tenant, tenant):
    from organizations.models import CardPurchase

    theirs = CardPurchase.objects.create(
        organization=other_tenant.organization,
        supplier="X",
        invoice_date=dt.date(2026, 1, 5),
        card_type="admission",
        quantity=10,
        unit_cost=D("0.10"),
    )
    with pytest.raises(ValidationError, match="another organization"):
        services.record_stock_used(
            occasion=counted,
            purchase=theirs,
            quantity_used=1,
            quantity_voided=0,
            by=tenant.bookkeeper,
        )

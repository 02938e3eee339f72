"""A closed occasion's records may still change until its report is filed: an act of the night
entered afterwards, at the time written on its sheet (a sale, a void), or what is only recorded
after the night (a police detail's bill). Each such write keeps the
occasion's figures again in its own transaction (``occasions.services.kept_again_with_the_write``),
so the pages reading them (the inspector's list and exports, the occasion's pages, the charts)
show what the records say; a refused one keeps nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from beano.rules import RuleViolation
from occasions import floor_services as floor
from occasions.extras_selectors import extras_totals
from occasions.sales_selectors import door_counts, door_figures
from occasions.sales_services import record_sale, void_sale
from reports.kept_models import KeptOccasionFigures
from tests.conftest import PASSWORD, login
from tests.fixtures.floor import on_floor
from tests.occasions.conftest import at as floor_at
from tests.occasions.test_extras_police import fairhaven_rate, police  # noqa: F401
from tests.reports.test_kept import assert_kept_as_recomputed


@pytest.fixture
def closed(tenant, ready):
    """Ready's night opened at 6:45 PM, one admission sold at 7, closed at 10:15 PM."""
    floor.open_occasion(occasion=ready, by=tenant.member_in_charge, at=floor_at(18, 45))
    record_sale(
        occasion=ready,
        lines=[(ready.price_items.get(), 1)],
        admission_receipt=None,
        by=tenant.member_in_charge,
        at=floor_at(19, 0),
    )
    return floor.close_occasion(occasion=ready, by=tenant.member_in_charge, at=floor_at(22, 15))


def test_a_sale_entered_after_the_close_is_kept_with_it(tenant, closed):
    record_sale(
        occasion=closed,
        lines=[(closed.price_items.get(), 1)],
        admission_receipt=None,
        by=tenant.member_in_charge,
        at=floor_at(20, 0),  # written on the sheet: during the night
    )
    figures = KeptOccasionFigures.objects.get(occasion=closed)
    assert (figures.admissions, figures.gross_receipts) == (2, Decimal("4.00"))
    assert door_figures(closed) == door_counts(closed)
    assert door_figures(closed).receipts == 2
    assert_kept_as_recomputed(closed)


def test_a_void_entered_after_the_close_is_kept_with_it(tenant, closed):
    sale = closed.sales.get()
    void_sale(
        sale=sale,
        reason="Sold twice",
        witness=on_floor(tenant.head, closed),
        witness_secret=PASSWORD,
        by=tenant.member_in_charge,
        at=floor_at(19, 5),
    )
    figures = KeptOccasionFigures.objects.get(occasion=closed)
    assert (figures.admissions, figures.gross_receipts) == (0, Decimal("0.00"))
    assert door_figures(closed) == door_counts(closed)
    assert (door_figures(closed).receipts, door_figures(closed).voided) == (0, 1)
    assert_kept_as_recomputed(closed)


def test_a_refused_write_after_the_close_keeps_nothing_again(tenant, closed):
    before = KeptOccasionFigures.objects.get(occasion=closed).kept_at
    with pytest.raises(RuleViolation):  # after the night's end
        record_sale(
            occasion=closed,
            lines=[(closed.price_items.get(), 1)],
            admission_receipt=None,
            by=tenant.member_in_charge,
            at=floor_at(23, 0),
        )
    assert KeptOccasionFigures.objects.get(occasion=closed).kept_at == before
    assert_kept_as_recomputed(closed)


def test_a_police_detail_recorded_after_the_close_is_kept_with_it(
    tenant,
    closed,
    fairhaven_rate,  # noqa: F811
    client,
):
    before = KeptOccasionFigures.objects.get(occasion=closed).extras
    assert before["police_total"] == "0.00"
    police(closed, tenant.member_in_charge)  # the town's bill, after the night
    kept = KeptOccasionFigures.objects.get(occasion=closed).extras
    assert kept["police_total"] == "319.00"
    assert_kept_as_recomputed(closed)
    # The occasion page shows the kept totals, read with the door's counts in one query.
    login(client, tenant.head)
    url = reverse("occasion_detail", kwargs={"org_id": closed.organization_id, "pk": closed.pk})
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url)
    assert page.context["extras"].police_total == Decimal("319.00")
    assert page.context["extras"] == extras_totals(closed)  # as totalled now
    kept_reads = [q for q in queries.captured_queries if "reports_keptoccasionfigures" in q["sql"]]
    assert len(kept_reads) == 1
    assert not [q for q in queries.captured_queries if "occasions_policedetail" in q["sql"]]


def test_a_police_detail_refused_after_the_close_keeps_nothing_again(
    tenant,
    closed,
    fairhaven_rate,  # noqa: F811
):
    before = KeptOccasionFigures.objects.get(occasion=closed).kept_at
    with pytest.raises(RuleViolation):  # over the town's prevailing rate
        police(closed, tenant.member_in_charge, rate="99.00")
    assert KeptOccasionFigures.objects.get(occasion=closed).kept_at == before

"""The door page's refresh of its counts, and the occasion page's door card, read the copy kept
for every door screen of the night: a fixed and small number of queries after ten sales as after
a hundred, none of them over the sales, and the new counts as soon as a sale, a void or the
attendance changes them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from occasions import sales_services as services
from occasions.models import PriceListItem, Sale
from tests.conftest import PASSWORD, login, totp_device
from tests.fixtures.floor import on_floor
from tests.occasions.test_sale_queries import _sold_before

POLL = {"HTTP_HX_REQUEST": "true", "HTTP_X_BEANO_POLL": "1"}


def _url(occasion) -> str:
    return reverse("sale_counts", args=[occasion.organization_id, occasion.pk])


@pytest.fixture
def seller(client, tenant):
    totp_device(tenant.worker)
    login(client, tenant.worker)
    return client


def _poll(client, occasion) -> tuple[str, list[str]]:
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(_url(occasion), **POLL)
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in queries.captured_queries]


def _sell(occasion, tenant) -> Sale:
    admission = occasion.price_items.get(category=PriceListItem.Category.ADMISSION)
    return services.record_sale(
        occasion=occasion, lines=[(admission, 1)], admission_receipt=None, by=tenant.worker
    )


def _void(sale: Sale, tenant) -> None:
    services.void_sale(
        sale=sale,
        reason="Rang twice",
        witness=on_floor(tenant.head, sale.occasion),
        witness_secret=PASSWORD,
        by=tenant.member_in_charge,
    )


@pytest.mark.parametrize("sold", [10, 100])
def test_the_kept_counts_cost_no_query_over_the_sales(seller, open_occasion, tenant, sold):
    _sold_before(open_occasion, tenant.worker, sold)
    _poll(seller, open_occasion)  # the first screen after a change reads and keeps them
    page, queries = _poll(seller, open_occasion)
    assert f'data-count="admission">{sold}<' in page
    # The user with their roles here, and the occasion: nothing of the sales.
    assert len(queries) == 2, queries
    assert not any("occasions_sale" in q for q in queries)


def test_a_sale_a_void_and_the_attendance_show_at_the_next_refresh(seller, open_occasion, tenant):
    _sold_before(open_occasion, tenant.worker, 10)
    assert 'data-count="admission">10<' in _poll(seller, open_occasion)[0]
    sale = _sell(open_occasion, tenant)
    assert 'data-count="admission">11<' in _poll(seller, open_occasion)[0]
    _void(sale, tenant)
    assert 'data-count="admission">10<' in _poll(seller, open_occasion)[0]
    services.announce_attendance(occasion=open_occasion, players=10, by=tenant.member_in_charge)
    assert "attendance announced <strong" in _poll(seller, open_occasion)[0]


def test_the_occasion_page_reads_the_door_as_the_screens_keep_it_and_follows_each_change(
    seller, open_occasion, tenant, sale
):
    """The occasion page's door card comes from the same kept counts: no door query while
    nothing changed, and a sale, a void and the attendance each show at the next view."""
    url = reverse("occasion_detail", args=[open_occasion.organization_id, open_occasion.pk])
    page = seller.get(url).content.decode()
    assert "1 receipt, 0 voided" in page and "attendance not yet announced" in page
    with CaptureQueriesContext(connection) as seen:
        seller.get(url)
    assert not [q for q in seen.captured_queries if "occasions_saleline" in q["sql"]]
    second = _sell(open_occasion, tenant)
    assert "2 receipts, 0 voided" in seller.get(url).content.decode()
    _void(second, tenant)
    assert "1 receipt, 1 voided" in seller.get(url).content.decode()
    services.announce_attendance(occasion=open_occasion, players=1, by=tenant.member_in_charge)
    assert "attendance announced: 1 players" in seller.get(url).content.decode()


def test_another_organizations_counts_are_a_404(client, other_tenant, open_occasion):
    login(client, other_tenant.worker)
    assert client.get(_url(open_occasion), **POLL).status_code == 404

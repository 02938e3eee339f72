"""The door-sales pages: plain and htmx posts, refusals shown with their citation and nothing
saved, bad input never a 500, and a constant number of queries as the door grows."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from beano.rules.models import RefusedAction
from occasions import live
from occasions import sales_services as services
from occasions import services as occasion_services
from occasions.models import AttendanceAnnouncement, FloorSubmission, Occasion, Sale, SaleLine
from organizations.models import AuditEvent
from tests.conftest import PASSWORD, login, refusal_shown
from tests.fixtures.floor import on_floor
from tests.fixtures.night import open_for_tests

HTMX = {"HTTP_HX_REQUEST": "true"}
KEY = "6f1c2a0e-8b7d-4c55-9a3e-2d4b6f8a1c90"


def _url(name, occasion):
    return reverse(name, args=[occasion.organization_id, occasion.pk])


def _items(occasion):
    return {i.category: i for i in occasion.price_items.all()}


def _qty(occasion, **quantities):
    items = _items(occasion)
    return {f"qty_{items[c].pk}": str(n) for c, n in quantities.items()}


def _state():
    return (
        Sale.objects.filter(voided_at__isnull=True).count(),
        SaleLine.objects.count(),
        AttendanceAnnouncement.objects.count(),
        AuditEvent.objects.count(),
    )


@pytest.fixture
def seller(client, tenant):
    login(client, tenant.worker)
    return client


@pytest.fixture
def in_charge(client, tenant):
    login(client, tenant.member_in_charge)
    return client


def test_the_door_page_offers_one_box_per_posted_item_and_no_card_numbers(seller, open_occasion):
    page = seller.get(_url("door_sales", open_occasion)).content.decode()
    for item in open_occasion.price_items.all():
        assert f'name="qty_{item.pk}"' in page and item.label in page
    assert "autofocus" in page and 'name="admission_receipt"' in page
    assert "card_number" not in page and "chosen" not in page
    assert "Start play" not in page  # the halves are the member in charge's


def test_a_plain_post_records_the_sale_and_redirects_with_the_receipt(seller, open_occasion):
    data = _qty(open_occasion, admission=1, extra_regular=2, bonus=1)
    response = seller.post(_url("sale_record", open_occasion), data, follow=True)
    assert response.redirect_chain[-1][1] == 302
    assert "Receipt 1 recorded — $5.00" in response.content.decode()
    assert Sale.objects.get().number == 1


def test_an_htmx_post_answers_the_receipt_counts_and_recent_sales_but_never_the_boxes(
    seller, open_occasion, sale
):
    """The boxes stay in the browser: what was typed while the sale saved is the next
    player's. The receipt, the counts and the recent sales come out of band."""
    data = {**_qty(open_occasion, special=2), "admission_receipt": str(sale.number)}
    response = seller.post(_url("sale_record", open_occasion), data, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Receipt 2 recorded — $4.00" in page
    assert '<div id="sale-result" hx-swap-oob="true">' in page and "<html" not in page
    assert 'id="sale-panel"' not in page and 'name="qty_' not in page and "<input" not in page
    assert 'id="door-counts" ' in page and 'data-count="special">2<' in page
    # Only the new receipt's line, put at the top of the recent sales.
    assert 'hx-swap-oob="afterbegin:#recent-sales-body"' in page
    assert page.count('<td class="fw-bold">') == 1
    assert json.loads(response["HX-Trigger-After-Swap"]) == {"doorSaleRecorded": {"receipt": 2}}
    assert Sale.objects.get(number=2).admission_sale == sale


def test_an_htmx_refusal_shows_its_citation_names_the_boxes_and_saves_nothing(
    seller, open_occasion, sale
):
    before = _state()
    data = _qty(open_occasion, extra_regular=4)
    response = seller.post(_url("sale_record", open_occasion), data, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert refusal_shown(page, "961 CMR 3.04(5)(b): Extras are sold only with a paid admission")
    assert 'name="qty_' not in page and "HX-Trigger-After-Swap" not in response
    assert _state() == before
    assert RefusedAction.objects.get().action == "sale.record"
    extra = _items(open_occasion)["extra_regular"]
    response = seller.post(_url("sale_record", open_occasion), {f"qty_{extra.pk}": "100"}, **HTMX)
    page = response.content.decode()
    assert f'data-invalid="qty_{extra.pk}"' in page
    assert "Extra regular card (3-on): At most 99 of one item in a sale." in page


def test_the_door_page_sends_each_sale_with_a_key_made_in_the_browser(seller, open_occasion):
    page = seller.get(_url("door_sales", open_occasion)).content.decode()
    assert '<input type="hidden" name="request_key" value="">' in page
    assert 'data-floor-entry="sale"' in page and 'data-floor-unsent="sale"' in page
    assert "js/floor.js" in page and 'hx-swap="none"' in page


@pytest.mark.parametrize("htmx", [False, True])
def test_a_doubled_post_with_one_key_records_one_sale_and_answers_alike(
    seller, open_occasion, htmx
):
    data = {**_qty(open_occasion, admission=1, extra_regular=2, bonus=1), "request_key": KEY}
    answers = []
    for _ in range(2):
        response = seller.post(
            _url("sale_record", open_occasion), data, follow=not htmx, **(HTMX if htmx else {})
        )
        assert response.status_code == 200
        answers.append(response.content.decode())
    for page in answers:
        assert (
            "Receipt 1 recorded — $5.00: 1 × Admission, 2 × Extra regular card, 1 × Bonus" in page
        )
    assert (
        Sale.objects.count() == 1
        and FloorSubmission.objects.get().target_id == Sale.objects.get().pk
    )
    assert AuditEvent.objects.filter(action="occasions.sale.recorded").count() == 1


def test_another_persons_key_is_refused_plainly_and_records_nothing(client, tenant, open_occasion):
    data = {**_qty(open_occasion, admission=1), "request_key": KEY}
    login(client, tenant.worker)
    client.post(_url("sale_record", open_occasion), data, **HTMX)
    login(client, tenant.member_in_charge)
    before = _state()
    response = client.post(_url("sale_record", open_occasion), data, **HTMX)
    assert "the key of another person&#x27;s entry, so nothing was recorded" in (
        response.content.decode()
    )
    assert _state() == before


def test_a_key_that_is_no_key_is_refused_and_records_nothing(seller, open_occasion):
    data = {**_qty(open_occasion, admission=1), "request_key": "not-a-key"}
    response = seller.post(_url("sale_record", open_occasion), data, **HTMX)
    assert "Not a key this page made: reload the page" in response.content.decode()
    assert not Sale.objects.exists()


def test_another_organization_gets_404_and_an_inspector_403_with_a_key(
    client, other_tenant, inspector, open_occasion
):
    data = {**_qty(open_occasion, admission=1), "request_key": KEY}
    login(client, other_tenant.head)
    assert client.post(_url("sale_record", open_occasion), data, **HTMX).status_code == 404
    login(client, inspector)
    assert client.post(_url("sale_record", open_occasion), data, **HTMX).status_code == 403
    assert client.post(_url("sale_record", open_occasion), data).status_code == 403
    assert not Sale.objects.exists() and not FloorSubmission.objects.exists()


def test_a_plain_refusal_renders_the_page_with_its_citation(seller, open_occasion):
    Occasion.objects.filter(pk=open_occasion.pk).update(status="closed")
    response = seller.post(_url("sale_record", open_occasion), _qty(open_occasion, admission=1))
    assert response.status_code == 200
    assert refusal_shown(response.content.decode(), "961 CMR 3.04(4)(c): The occasion is not open")
    assert not Sale.objects.exists()


@pytest.mark.parametrize(
    "data,message",
    [
        ({}, "Enter a quantity for at least one item"),
        ({"admission": "-1"}, "cannot be negative"),
        ({"admission": "1", "extra_regular": "100"}, "At most 99"),
        ({"admission": "1", "extra_regular": "9" * 30}, "At most 99"),
        ({"admission": "two"}, "whole number"),
        ({"admission": "1.5"}, "whole number"),
        ({"admission": "1", "admission_receipt": "abc"}, "receipt number is a whole number"),
        ({"admission": "1", "admission_receipt": "9" * 30}, "No receipt has that number"),
        ({"admission": "1", "admission_receipt": "0"}, "start at 1"),
        ({"special": "1", "admission_receipt": "77"}, "961 CMR 3.04(5)(b): Receipt 77"),
        ({"admission": "2"}, "961 CMR 3.04(5)(b)"),
        ({"admission": "1", "qty_987654": "1"}, "961 CMR 3.04(4)(c): Item #987654"),
        ({"admission": "1", "qty_987654": "-3"}, "cannot be negative"),
        ({"admission": "1", "qty_987654": "lots"}, "whole number"),
        ({"admission": "1", "qty_abc": "1"}, "Receipt 1 recorded"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_input_gets_a_message_never_a_500_and_saves_nothing(
    seller, open_occasion, data, message, htmx
):
    items = _items(open_occasion)
    posted = {}
    for key, value in data.items():
        field = f"qty_{items[key].pk}" if key in items else key
        posted[field] = value
    before = _state()
    response = seller.post(_url("sale_record", open_occasion), posted, **(HTMX if htmx else {}))
    if not htmx and message.startswith("Receipt 1 recorded"):
        response = seller.get(response["Location"])
    assert response.status_code == 200
    assert refusal_shown(response.content.decode(), message)
    if not message.startswith("Receipt 1 recorded"):
        assert _state() == before


def test_another_organizations_price_id_is_refused_and_not_named(
    seller, tenant, other_tenant, open_occasion
):
    theirs = open_for_tests(
        occasion_services.occasion_for_day(
            organization=other_tenant.organization, day=dt.date(2026, 12, 4), by=None
        )
    )
    foreign = _items(theirs)["special"]
    data = {**_qty(open_occasion, admission=1), f"qty_{foreign.pk}": "1"}
    response = seller.post(_url("sale_record", open_occasion), data)
    page = response.content.decode()
    assert refusal_shown(page, f"961 CMR 3.04(4)(c): Item #{foreign.pk} is not on this occasion")
    assert not Sale.objects.exists()


def test_a_bookkeeper_reads_the_door_but_does_not_sell(client, tenant, open_occasion):
    login(client, tenant.bookkeeper)
    page = client.get(_url("door_sales", open_occasion)).content.decode()
    assert "sale-form" not in page and "only the organization's sellers" in page
    assert client.post(_url("sale_record", open_occasion), {}).status_code == 403


def test_a_worker_sells_but_neither_voids_nor_announces(seller, open_occasion, sale):
    assert seller.post(_url("sale_void", open_occasion), {"receipt": "1"}).status_code == 403
    for name in ("attendance_announce", "occasion_start_play", "occasion_start_second_half"):
        assert seller.post(_url(name, open_occasion), {"players": "1"}).status_code == 403
    assert not Sale.objects.get().is_voided


def test_the_member_in_charge_voids_before_a_witness_by_htmx(
    in_charge, tenant, open_occasion, sale
):
    page = in_charge.get(_url("door_sales", open_occasion)).content.decode()
    assert "Void receipt 1" in page
    on_floor(tenant.head, open_occasion)
    data = {
        "receipt": "1",
        "reason": "rang up wrong",
        "witness": str(tenant.head.pk),
        "witness_secret": PASSWORD,  # the witness types their own password
    }
    response = in_charge.post(_url("sale_void", open_occasion), data, **HTMX)
    page = response.content.decode()
    assert "Receipt 1 is voided." in page and 'id="recent-sales"' in page
    assert 'data-count="admission">0<' in page
    assert Sale.objects.get().void_witness == tenant.head


@pytest.mark.parametrize(
    "data,message",
    [
        ({}, "Give the receipt number"),
        ({"receipt": "x"}, "Not a receipt number"),
        ({"receipt": "55", "reason": "r", "witness": "HEAD"}, "No receipt 55"),
        ({"receipt": "1", "reason": "", "witness": "HEAD"}, "961 CMR 3.04(4)(d): Say why"),
        ({"receipt": "1", "reason": "r"}, "961 CMR 3.04(4)(d): A second person"),
        ({"receipt": "1", "reason": "r", "witness": "ME"}, "961 CMR 3.04(4)(d): The witness"),
        ({"receipt": "1", "reason": "r", "witness": "OTHER"}, "a person of this organization"),
        ({"receipt": "1", "reason": "r", "witness": "99999"}, "a person of this organization"),
        ({"receipt": "1", "reason": "r", "witness": "abc"}, "a person of this organization"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_bad_void_gets_a_message_and_voids_nothing(
    in_charge, tenant, other_tenant, open_occasion, sale, data, message, htmx
):
    people = {
        "HEAD": tenant.head.pk,
        "ME": tenant.member_in_charge.pk,
        "OTHER": other_tenant.head.pk,
    }
    data = {k: str(people.get(v, v)) for k, v in data.items()}
    before = _state()
    response = in_charge.post(_url("sale_void", open_occasion), data, **(HTMX if htmx else {}))
    assert response.status_code == 200
    assert refusal_shown(response.content.decode(), message)
    assert _state() == before


def test_attendance_then_the_halves_from_the_page(in_charge, tenant, open_occasion, sale):
    second_half = _url("occasion_start_second_half", open_occasion)
    response = in_charge.post(_url("occasion_start_play", open_occasion))
    assert response.status_code == 302
    response = in_charge.post(second_half)
    assert response.status_code == 200
    assert refusal_shown(
        response.content.decode(), "961 CMR 3.04(5)(c): Announce the number of players"
    )
    response = in_charge.post(_url("attendance_announce", open_occasion), {"players": "5"})
    assert response.status_code == 200
    assert refusal_shown(
        response.content.decode(), "961 CMR 3.04(5)(c): 5 players announced, but only 1"
    )
    for bad in ("", "-2", "many", "9" * 30):
        response = in_charge.post(_url("attendance_announce", open_occasion), {"players": bad})
        assert response.status_code == 200 and "alert-danger" in response.content.decode()
    assert not AttendanceAnnouncement.objects.exists()
    response = in_charge.post(_url("attendance_announce", open_occasion), {"players": "1"})
    assert response.status_code == 302
    assert in_charge.post(second_half).status_code == 302
    page = in_charge.get(_url("door_sales", open_occasion)).content.decode()
    assert "players, announced" in page and "Start the second half" not in page
    response = in_charge.post(second_half)
    assert response.status_code == 200 and "The second half started at" in response.content.decode()


def test_a_sellers_next_sale_brings_the_halves_as_they_now_stand(seller, open_occasion, sale):
    """The halves' card has no poll of its own: a sale's answer is how the seller's card learns
    that play or the second half began."""
    moment = timezone.now()
    Occasion.objects.filter(pk=open_occasion.pk).update(
        play_started_at=moment, second_half_started_at=moment
    )
    data = _qty(open_occasion, admission=1)
    page = seller.post(_url("sale_record", open_occasion), data, **HTMX).content.decode()
    halves = page[page.index('<div id="door-halves" class="card" hx-swap-oob="true">') :]
    assert halves.count("<span>started ") == 2 and "not started" not in halves


def test_the_occasion_page_shows_the_door_card(in_charge, open_occasion, sale):
    page = in_charge.get(_url("occasion_detail", open_occasion)).content.decode()
    assert "Door sales" in page and _url("door_sales", open_occasion) in page
    assert "$4.00" in page


def _bulk_sales(occasion, seller, count):
    """``count`` sales straight into the tables, an admission and two extras each, so the pages
    are measured against a full door without a night of service calls."""
    items = _items(occasion)
    start = Sale.objects.filter(occasion=occasion).count() + 1
    now = timezone.now()
    sales = Sale.objects.bulk_create(
        Sale(occasion=occasion, number=n, sold_by=seller, sold_at=now)
        for n in range(start, start + count)
    )
    lines = []
    for sale in sales:
        lines.append(
            SaleLine(
                sale=sale,
                price_item=items["admission"],
                category="admission",
                quantity=1,
                unit_price=Decimal("2.00"),
                amount=Decimal("2.00"),
            )
        )
        lines.append(
            SaleLine(
                sale=sale,
                price_item=items["extra_regular"],
                category="extra_regular",
                quantity=2,
                unit_price=Decimal("1.00"),
                amount=Decimal("2.00"),
            )
        )
    SaleLine.objects.bulk_create(lines)


def _queries(client, url, **extra):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **extra)
    assert response.status_code == 200
    return len(captured)


def test_the_door_page_and_counts_run_a_constant_number_of_queries(
    in_charge, tenant, open_occasion
):
    _bulk_sales(open_occasion, tenant.worker, 10)
    services.void_sale(
        sale=Sale.objects.get(number=3),
        reason="rang up wrong",
        witness=on_floor(tenant.head, open_occasion),
        witness_secret=PASSWORD,
        by=tenant.member_in_charge,
    )
    page, counts = _url("door_sales", open_occasion), _url("sale_counts", open_occasion)
    in_charge.get(page)  # warm the session and caches alike for both sizes
    small = _queries(in_charge, page), _queries(in_charge, counts, **HTMX)
    _bulk_sales(open_occasion, tenant.worker, 990)
    live.changed(open_occasion.pk, live.DOOR)  # written directly: say so, as the services do
    large = _queries(in_charge, page), _queries(in_charge, counts, **HTMX)
    assert large == small, (small, large)
    response = in_charge.get(counts, **HTMX)
    assert 'data-count="admission">999<' in response.content.decode()

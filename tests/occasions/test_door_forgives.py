"""The door forgives the hand, on the server's side: a press the door marks as Enter again with
nothing new typed sells nothing and says so; a quantity that is not a whole number (as typed:
"e5", "٤", "1.5", "-1", or nothing where a number is needed) is refused with its message,
what was typed kept, nothing saved; and any receipt of the night, not only the latest, is found
by its number and voided, in a fixed number of queries."""

from __future__ import annotations

import pytest
from django.urls import reverse

from beano.rules.models import RefusedAction
from occasions.models import AttendanceAnnouncement, FloorSubmission, Sale
from occasions.sales_forms import ALREADY_SOLD, REPEAT_MOMENT_MS
from tests.conftest import PASSWORD, login, refusal_shown
from tests.fixtures.floor import on_floor
from tests.occasions.test_sales_views import HTMX, KEY, _bulk_sales, _qty, _queries, _state, _url


@pytest.fixture
def seller(client, tenant):
    login(client, tenant.worker)
    return client


@pytest.fixture
def in_charge(client, tenant):
    login(client, tenant.member_in_charge)
    return client


# A second press of Enter


def test_the_door_form_carries_the_repeat_mark_the_moment_and_the_words(seller, open_occasion):
    page = seller.get(_url("door_sales", open_occasion)).content.decode()
    assert '<input type="hidden" name="repeat_of" value="">' in page
    assert f'data-door-moment="{REPEAT_MOMENT_MS}"' in page
    assert 'data-door-already-sold="Already sold: receipt #{receipt}. Nothing new' in page


@pytest.mark.parametrize("htmx", [False, True])
def test_a_press_marked_as_enter_again_sells_nothing_and_says_so(seller, open_occasion, sale, htmx):
    before = _state()
    data = {**_qty(open_occasion, admission=1), "repeat_of": "1", "request_key": KEY}
    response = seller.post(_url("sale_record", open_occasion), data, **(HTMX if htmx else {}))
    assert response.status_code == 200
    assert refusal_shown(response.content.decode(), ALREADY_SOLD.format(receipt=1))
    assert _state() == before
    assert not FloorSubmission.objects.filter(key=KEY).exists()
    assert not RefusedAction.objects.exists()  # a slip of the hand, not an act the rules refused
    assert "HX-Trigger-After-Swap" not in response


def test_the_same_sale_typed_again_right_after_is_sold(seller, open_occasion, sale):
    """Two players in a row buying the same: without the mark, it is a sale like any other."""
    data = _qty(open_occasion, admission=1, extra_regular=2)
    response = seller.post(_url("sale_record", open_occasion), data, **HTMX)
    assert "Receipt 2 recorded — $4.00" in response.content.decode()
    assert Sale.objects.count() == 2


# A quantity that is not a whole number

NOT_NUMBERS = [
    ("e5", "whole number, typed with the digits 0–9"),
    ("٤", "whole number, typed with the digits 0–9"),
    ("1.5", "whole number, typed with the digits 0–9"),
    ("-1", "A quantity cannot be negative."),
]


@pytest.mark.parametrize("typed,message", NOT_NUMBERS)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_quantity_not_a_whole_number_is_refused_and_kept(
    seller, open_occasion, typed, message, htmx
):
    before = _state()
    data = {**_qty(open_occasion, admission=1), **_qty(open_occasion, extra_regular=typed)}
    response = seller.post(_url("sale_record", open_occasion), data, **(HTMX if htmx else {}))
    page = response.content.decode()
    assert response.status_code == 200
    assert refusal_shown(page, message) and _state() == before
    box = next(k for k, v in data.items() if v == typed)
    if htmx:  # the boxes stay as typed in the browser; the one at fault is named
        assert f'data-invalid="{box}"' in page and 'name="qty_' not in page
    else:  # the page again, the box holding what was typed, a box the browser keeps as typed
        assert f'type="text" inputmode="numeric" id="id_{box}" name="{box}" value="{typed}"' in (
            page
        )


def test_no_quantity_at_all_is_refused(seller, open_occasion):
    items = open_occasion.price_items.all()
    data = {f"qty_{i.pk}": "" for i in items}
    response = seller.post(_url("sale_record", open_occasion), data, **HTMX)
    assert refusal_shown(response.content.decode(), "Enter a quantity for at least one item.")
    assert not Sale.objects.exists()


@pytest.mark.parametrize(
    "typed,message",
    [
        ("e5", "A receipt number is a whole number"),
        ("٤", "A receipt number is a whole number"),
        ("1.5", "A receipt number is a whole number"),
        ("-1", "Receipt numbers start at 1."),
    ],
)
def test_a_receipt_number_not_a_whole_number_is_refused_and_kept(
    seller, open_occasion, sale, typed, message
):
    before = _state()
    data = {**_qty(open_occasion, special=1), "admission_receipt": typed}
    page = seller.post(_url("sale_record", open_occasion), data).content.decode()
    assert refusal_shown(page, message) and _state() == before
    assert f'name="admission_receipt" value="{typed}"' in page


@pytest.mark.parametrize(
    "typed,message",
    [
        ("e5", "The number of players is a whole number"),
        ("٤", "The number of players is a whole number"),
        ("1.5", "The number of players is a whole number"),
        ("-1", "The number of players cannot be negative."),
        ("", "Give the number of players announced."),
    ],
)
def test_the_attendance_not_a_whole_number_is_refused_and_kept(
    in_charge, open_occasion, sale, typed, message
):
    data = {"players": typed}
    page = in_charge.post(_url("attendance_announce", open_occasion), data).content.decode()
    assert refusal_shown(page, message)
    assert f'type="text" inputmode="numeric" id="id_players" name="players" value="{typed}"' in (
        page
    )
    assert not AttendanceAnnouncement.objects.exists()


@pytest.mark.parametrize(
    "typed,message",
    [
        ("e5", "Not a receipt number"),
        ("٤", "Not a receipt number"),
        ("1.5", "Not a receipt number"),
        ("-1", "Receipt numbers start at 1."),
        ("", "Give the receipt number."),
    ],
)
def test_a_void_of_no_receipt_number_is_refused(in_charge, open_occasion, sale, typed, message):
    data = {"receipt": typed, "reason": "rang up wrong"}
    page = in_charge.post(_url("sale_void", open_occasion), data, **HTMX).content.decode()
    assert refusal_shown(page, message)
    assert not Sale.objects.get().is_voided


# Any receipt of the night


def _receipts(client, occasion, **params):
    return client.get(_url("sale_receipts", occasion), params, **HTMX)


def test_the_thirtieth_last_receipt_is_found_and_voided(in_charge, tenant, open_occasion):
    _bulk_sales(open_occasion, tenant.worker, 40)
    door = in_charge.get(_url("door_sales", open_occasion)).content.decode()
    assert "Void receipt 40" in door and "Void receipt 11" not in door  # only the latest
    page = _receipts(in_charge, open_occasion, receipt="11").content.decode()
    assert "Void receipt 11" in page and "Void receipt 40" not in page
    assert 'id="recent-sales"' in page and "<html" not in page
    on_floor(tenant.head, open_occasion)
    data = {
        "receipt": "11",
        "reason": "sold to the wrong player",
        "witness": str(tenant.head.pk),
        "witness_secret": PASSWORD,
    }
    page = in_charge.post(_url("sale_void", open_occasion), data, **HTMX).content.decode()
    assert "Receipt 11 is voided." in page
    assert page.count('class="door-voided"') == 1  # it stays in sight, struck out
    assert "sold to the wrong player" in page
    assert Sale.objects.get(number=11).is_voided
    assert list(Sale.objects.filter(voided_at__isnull=False).values_list("number", flat=True)) == [
        11
    ]


def test_the_found_receipt_page_works_without_javascript(in_charge, tenant, open_occasion):
    _bulk_sales(open_occasion, tenant.worker, 20)
    url = reverse("door_sales", args=[open_occasion.organization_id, open_occasion.pk])
    page = in_charge.get(url, {"receipt": "3"}).content.decode()
    assert "<html" in page and 'id="sale-form"' in page
    assert "Void receipt 3" in page and "Void receipt 20" not in page


def test_older_receipts_come_a_page_at_a_time(in_charge, tenant, open_occasion):
    _bulk_sales(open_occasion, tenant.worker, 30)
    door = in_charge.get(_url("door_sales", open_occasion)).content.decode()
    assert "before=19" in door  # the latest are 30 to 19
    page = _receipts(in_charge, open_occasion, before="19").content.decode()
    numbers = [n for n in range(1, 31) if f"Void receipt {n}<" in page]
    assert numbers == list(range(7, 19))
    assert "before=7" in page and "Latest receipts" in page
    last = _receipts(in_charge, open_occasion, before="7").content.decode()
    assert [n for n in range(1, 31) if f"Void receipt {n}<" in last] == list(range(1, 7))
    assert "before=" not in last.replace('name="before"', "")


@pytest.mark.parametrize(
    "params,message",
    [
        ({"receipt": "99"}, "No receipt 99 at this occasion."),
        ({"receipt": "e5"}, "A receipt number is a whole number"),
        ({"receipt": "٤"}, "A receipt number is a whole number"),
        ({"before": "-1"}, "Receipt numbers start at 1."),
    ],
)
def test_a_receipt_not_found_or_not_a_number_is_said_plainly(
    in_charge, open_occasion, sale, params, message
):
    response = _receipts(in_charge, open_occasion, **params)
    assert response.status_code == 200
    assert refusal_shown(response.content.decode(), message)


def test_another_organization_finds_nothing(client, other_tenant, tenant, open_occasion, sale):
    login(client, other_tenant.head)
    assert _receipts(client, open_occasion, receipt="1").status_code == 404
    assert client.get(_url("sale_receipts", open_occasion), {"receipt": "1"}).status_code == 404
    data = {"receipt": "1", "reason": "r", "witness": str(other_tenant.head.pk)}
    assert client.post(_url("sale_void", open_occasion), data, **HTMX).status_code == 404
    assert not Sale.objects.get().is_voided


def test_an_inspector_sees_any_receipt_but_cannot_void(client, inspector, tenant, open_occasion):
    _bulk_sales(open_occasion, tenant.worker, 30)
    login(client, inspector)
    page = _receipts(client, open_occasion, receipt="1").content.decode()
    assert '<td class="fw-bold">1</td>' in page
    assert "Void receipt" not in page and "+ extras" not in page
    data = {"receipt": "1", "reason": "r", "witness": str(tenant.head.pk)}
    assert client.post(_url("sale_void", open_occasion), data, **HTMX).status_code == 403
    assert client.post(_url("sale_receipts", open_occasion), data).status_code == 403
    assert not Sale.objects.filter(voided_at__isnull=False).exists()


def test_finding_and_paging_run_a_constant_number_of_queries(in_charge, tenant, open_occasion):
    _bulk_sales(open_occasion, tenant.worker, 30)
    url = _url("sale_receipts", open_occasion)
    in_charge.get(url, **HTMX)  # warm the session

    def measured():
        return (
            _queries(in_charge, f"{url}?receipt=5", **HTMX),
            _queries(in_charge, f"{url}?before=20", **HTMX),
            _queries(in_charge, url, **HTMX),
        )

    small = measured()
    _bulk_sales(open_occasion, tenant.worker, 300)
    assert measured() == small

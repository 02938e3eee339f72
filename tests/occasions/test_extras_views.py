"""The "Prizes and other sales" page and the raffle permits page: recorded from the hall, refused
with the citation and nothing saved, bad input answered with a message (never a 500), read-only
for inspectors. (Services are tested in test_extras.py; every URL is in ORG_PAGES.)"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from occasions.extras_forms import EXTRAS_FORMS
from occasions.models import (
    CharityTicketSale,
    DoorPrize,
    Occasion,
    OtherSale,
    PoliceDetail,
    PrevailingPoliceRate,
    RafflePermit,
)
from organizations.models import AuditEvent
from tests.conftest import login, refusal_shown
from tests.fixtures.night import pdf_upload


def url(name: str, tenant, occasion=None) -> str:
    args = [tenant.organization.pk] + ([occasion.pk] if occasion is not None else [])
    return reverse(name, args=args)


def test_the_member_in_charge_sees_every_form_and_the_running_totals(
    client, tenant, open_occasion, door_prize
):
    login(client, tenant.member_in_charge)
    page = client.get(url("occasion_extras", tenant, open_occasion)).content.decode()
    assert "$45.00" in page and "of $200.00" in page and "$155.00 left" in page
    for kind in EXTRAS_FORMS:
        # Shown once a raffle, its tickets or an announcement exist.
        if kind not in ("raffle-tickets", "raffle-drawing", "refund"):
            assert f'id="form-{kind}"' in page, kind


def test_the_occasion_page_shows_the_prizes_and_other_sales_card(
    client, tenant, open_occasion, door_prize
):
    login(client, tenant.worker)
    page = client.get(url("occasion_detail", tenant, open_occasion)).content.decode()
    assert "Prizes and other sales" in page and "$45.00" in page


def test_a_door_prize_is_recorded_from_the_page(client, tenant, open_occasion):
    login(client, tenant.member_in_charge)
    response = client.post(
        url("extras_door_prize", tenant, open_occasion),
        {"description": "Fruit basket", "value": "45.00", "winner_name": "Mary Costa"},
    )
    assert response.status_code == 302
    assert DoorPrize.objects.get().winner_name == "Mary Costa"


def test_a_refused_door_prize_shows_its_citation_and_saves_nothing(
    client, tenant, open_occasion, door_prize
):
    login(client, tenant.member_in_charge)
    response = client.post(
        url("extras_door_prize", tenant, open_occasion),
        {"description": "Television", "value": "155.01"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert refusal_shown(
        page, "961 CMR 3.04(8)(e): Television ($155.01) would bring door prizes to $200.01"
    )
    assert DoorPrize.objects.count() == 1


@pytest.mark.parametrize(
    "value,message",
    [
        ("10.005", "at most two decimals"),
        ("12345678901234", "too large"),
        ("-1", "cannot be negative"),
        ("ten dollars", "with the digits 0 to 9"),
        ("NaN", "with the digits 0 to 9"),
        ("1e400", "with the digits 0 to 9"),
        ("", "This field is required"),
    ],
)
def test_bad_money_gets_a_message_and_saves_nothing(client, tenant, open_occasion, value, message):
    login(client, tenant.member_in_charge)
    events = AuditEvent.objects.count()
    response = client.post(
        url("extras_door_prize", tenant, open_occasion), {"description": "Quilt", "value": value}
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not DoorPrize.objects.exists() and AuditEvent.objects.count() == events


@pytest.mark.parametrize("kind", list(EXTRAS_FORMS))
def test_every_form_answers_empty_or_junk_input_with_a_message(client, tenant, open_occasion, kind):
    login(client, tenant.member_in_charge)
    events = AuditEvent.objects.count()
    target = reverse(
        "extras_" + kind.replace("-", "_"), args=[tenant.organization.pk, open_occasion.pk]
    )
    for data in ({}, dict.fromkeys(EXTRAS_FORMS[kind].base_fields, "x" * 5000) | {"time": "25:99"}):
        response = client.post(target, data)
        assert response.status_code == 200
        assert (
            "invalid-feedback" in response.content.decode()
            or "alert-danger" in response.content.decode()
        )
    assert AuditEvent.objects.count() == events


def test_food_at_a_given_time_is_recorded_and_other_goods_are_refused(
    client, tenant, open_occasion
):
    login(client, tenant.member_in_charge)
    target = url("extras_other_sale", tenant, open_occasion)
    food = {"kind": "food", "description": "Coffee", "amount": "30.00", "on_beano_portion": "on"}
    assert client.post(target, food | {"time": "16:30"}).status_code == 302
    assert timezone.localtime(OtherSale.objects.get().sold_at).time() == dt.time(16, 30)
    shirts = food | {"kind": "other", "description": "T-shirts", "time": "16:30"}
    response = client.post(target, shirts)
    assert refusal_shown(response.content.decode(), "961 CMR 3.04(9)(e): T-shirts")
    early = client.post(target, food | {"time": "15:59"}).content.decode()
    assert "from an hour before it opens" in early
    assert OtherSale.objects.count() == 1


def test_charity_tickets_are_refused_with_the_law_cited(client, tenant, open_occasion):
    login(client, tenant.member_in_charge)
    response = client.post(
        url("extras_charity_sale", tenant, open_occasion),
        {
            "game_name": "Lucky 7s",
            "serial_number": "ZZ-1",
            "quantity": "10",
            "price": "1.00",
            "time": "18:00",
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert refusal_shown(page, "961 CMR 3.04(8)(f): Serial ZZ-1 is not assigned")
    assert "M.G.L. c. 10 § 37" in page  # not ticked "sold on our premises"
    assert not CharityTicketSale.objects.exists()


def test_a_police_detail_is_recorded_at_the_prevailing_rate(client, tenant, open_occasion):
    PrevailingPoliceRate.objects.create(
        town="Fairhaven",
        hourly_rate=Decimal("58.00"),
        effective_from=dt.date(2026, 1, 1),
        source="x",
    )
    login(client, tenant.head)
    target = url("extras_police", tenant, open_occasion)
    detail = {"officer_name": "Officer Dana Medeiros", "department_town": "Fairhaven", "hours": "5"}
    assert client.post(target, detail | {"hourly_rate": "58.00"}).status_code == 302
    over = client.post(target, detail | {"hourly_rate": "75.00"}).content.decode()
    assert refusal_shown(
        over, "961 CMR 3.04(3)(e): $75.00 an hour is more than the prevailing rate"
    )
    assert PoliceDetail.objects.get().amount == Decimal("290.00")


def test_a_scheduled_occasion_shows_no_forms_and_refuses_posts(client, tenant, occasion):
    login(client, tenant.member_in_charge)
    page = client.get(url("occasion_extras", tenant, occasion)).content.decode()
    assert "recorded once the occasion opens" in page and "form-door-prize" not in page
    response = client.post(
        url("extras_door_prize", tenant, occasion), {"description": "Quilt", "value": "5"}
    )
    assert response.status_code == 200
    assert "has not opened" in response.content.decode()
    assert not DoorPrize.objects.exists()


def test_an_inspector_reads_the_page_without_forms(client, tenant, inspector, door_prize):
    login(client, inspector)
    page = client.get(url("occasion_extras", tenant, door_prize.occasion)).content.decode()
    assert "Fruit basket" in page and "Read-only review" in page
    assert "form-door-prize" not in page


def test_a_bookkeeper_or_worker_cannot_record(client, tenant, open_occasion):
    for user in (tenant.bookkeeper, tenant.worker):
        login(client, user)
        target = url("extras_door_prize", tenant, open_occasion)
        assert client.post(target, {"description": "Q", "value": "1"}).status_code == 403
    assert not DoorPrize.objects.exists()


def test_the_member_in_charge_records_a_raffle_permit_with_its_scan(client, tenant, media_root):
    login(client, tenant.member_in_charge)
    target = url("raffle_permits", tenant)
    response = client.post(
        target,
        {
            "permit_number": "FH-R-2026-0042",
            "issued_by": "Town Clerk",
            "town": "Fairhaven",
            "valid_from": "2026-01-01",
            "valid_to": "2026-12-31",
            "document": pdf_upload("permit.pdf"),
        },
    )
    assert response.status_code == 302
    permit = RafflePermit.objects.get()
    page = client.get(target).content.decode()
    assert "FH-R-2026-0042" in page
    document = client.get(
        reverse("raffle_permit_document", args=[tenant.organization.pk, permit.pk])
    )
    assert document.status_code == 200 and document["Cache-Control"] == "private, no-store"


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"valid_to": "2025-12-31"}, "cannot end before it starts"),
        ({"valid_from": "not a date"}, "Enter a valid date"),
        ({"permit_number": ""}, "This field is required"),
        ({"permit_number": "P" * 61}, "at most 60 characters"),
    ],
)
def test_bad_permits_get_a_message_and_save_nothing(client, tenant, changes, message):
    login(client, tenant.member_in_charge)
    data = {
        "permit_number": "FH-R-2026-0042",
        "issued_by": "Town Clerk",
        "town": "Fairhaven",
        "valid_from": "2026-01-01",
        "valid_to": "2026-12-31",
    }
    response = client.post(url("raffle_permits", tenant), data | changes)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not RafflePermit.objects.exists()


def test_a_permit_without_a_scan_has_no_document(client, tenant, media_root):
    from occasions.raffle_services import record_raffle_permit

    permit = record_raffle_permit(
        organization=tenant.organization,
        permit_number="P-1",
        issued_by="Town Clerk",
        town="Fairhaven",
        valid_from=dt.date(2026, 1, 1),
        valid_to=dt.date(2026, 12, 31),
        by=tenant.head,
    )
    login(client, tenant.head)
    assert (
        client.get(
            reverse("raffle_permit_document", args=[tenant.organization.pk, permit.pk])
        ).status_code
        == 404
    )


def test_a_closed_occasion_awards_and_sells_nothing_but_takes_the_police_bill(
    client, tenant, open_occasion
):
    PrevailingPoliceRate.objects.create(
        town="Fairhaven",
        hourly_rate=Decimal("58.00"),
        effective_from=dt.date(2026, 1, 1),
        source="x",
    )
    Occasion.objects.filter(pk=open_occasion.pk).update(status="closed")
    login(client, tenant.member_in_charge)
    response = client.post(
        url("extras_door_prize", tenant, open_occasion), {"description": "Quilt", "value": "20"}
    )
    assert response.status_code == 200
    assert "closed: nothing more is awarded or sold" in response.content.decode()
    assert not DoorPrize.objects.exists()
    login(client, tenant.head)
    police = client.post(
        url("extras_police", tenant, open_occasion),
        {
            "officer_name": "Officer Dana Medeiros",
            "department_town": "Fairhaven",
            "hours": "5",
            "hourly_rate": "58.00",
        },
    )
    assert police.status_code == 302
    assert PoliceDetail.objects.get().amount == Decimal("290.00")

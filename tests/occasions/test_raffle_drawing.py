"""A raffle's drawing (issue 39, item 5: nothing of the extras is left open at the close): the
winning ticket and who holds it, recorded once, after its tickets are sold; no ticket after it.
A raffle whose tickets were sold and whose drawing is not recorded is listed before the close
with the page that records it. From the page: another organization's 404, an inspector's 403,
bad input a message with nothing saved."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from occasions import raffle_services
from occasions.final_acts import close_summary
from occasions.models import Occasion, Raffle
from organizations.models import AuditEvent
from tests.conftest import login


def at(occasion: Occasion, hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(hour, minute)))


@pytest.fixture
def raffle(tenant, open_occasion, raffle_permit, sale):
    """A quilt raffled at $1 a ticket; five tickets sold at 7:30 PM to receipt 1's player."""
    held = raffle_services.hold_raffle(
        occasion=open_occasion,
        permit=raffle_permit,
        prize_description="Hand-made quilt",
        prize_kind="merchandise",
        ticket_price="1.00",
        by=tenant.member_in_charge,
    )
    raffle_services.sell_raffle_tickets(
        raffle=held,
        admission_receipt_number=sale.number,
        quantity=5,
        by=tenant.member_in_charge,
        at=at(open_occasion, 19, 30),
    )
    return held


def _draw(raffle: Raffle, by, **changes) -> Raffle:
    values = {"winning_ticket": "A-0042", "winner_name": "Rose Medeiros"} | changes
    return raffle_services.draw_raffle(raffle=raffle, by=by, **values)


def test_the_drawing_is_recorded_once_with_its_winner(tenant, raffle):
    drawn = _draw(raffle, tenant.member_in_charge, at=at(raffle.occasion, 21, 50))
    assert (drawn.winning_ticket, drawn.winner_name) == ("A-0042", "Rose Medeiros")
    assert drawn.drawn_at == at(raffle.occasion, 21, 50)
    event = AuditEvent.objects.get(action="occasions.raffle.drawn")
    assert event.new_values["winning_ticket"] == "A-0042"
    with pytest.raises(ValidationError, match="This raffle was drawn at 9:50 PM"):
        _draw(raffle, tenant.member_in_charge, winning_ticket="B-7")
    assert Raffle.objects.get(pk=raffle.pk).winning_ticket == "A-0042"


def test_no_ticket_is_sold_after_the_drawing(tenant, raffle, sale):
    _draw(raffle, tenant.member_in_charge, at=at(raffle.occasion, 21, 50))
    with pytest.raises(ValidationError, match="no ticket after it"):
        raffle_services.sell_raffle_tickets(
            raffle=raffle,
            admission_receipt_number=sale.number,
            quantity=1,
            by=tenant.member_in_charge,
            at=at(raffle.occasion, 22, 0),
        )


def test_a_raffle_is_drawn_after_its_tickets_and_only_with_some_sold(
    tenant, open_occasion, raffle_permit, raffle
):
    with pytest.raises(ValidationError, match="sold until 7:30 PM"):
        _draw(raffle, tenant.member_in_charge, at=at(open_occasion, 19, 0))
    empty = raffle_services.hold_raffle(
        occasion=open_occasion,
        permit=raffle_permit,
        prize_description="Gift basket",
        prize_kind="merchandise",
        ticket_price="1.00",
        by=tenant.member_in_charge,
    )
    with pytest.raises(ValidationError, match="No ticket of this raffle is sold"):
        _draw(empty, tenant.member_in_charge)
    with pytest.raises(ValidationError):
        _draw(raffle, tenant.member_in_charge, winning_ticket="  ")
    assert not Raffle.objects.filter(drawn_at__isnull=False).exists()


def test_a_raffle_not_drawn_is_listed_before_the_close_with_its_page(tenant, raffle):
    occasion = raffle.occasion
    extras = reverse("occasion_extras", args=[occasion.organization_id, occasion.pk])
    lines = {str(line): line for line in close_summary(occasion).unfinished}
    text = "The raffle for Hand-made quilt (5 tickets sold) has no drawing recorded."
    assert lines[text].links == (("Prizes and other sales", f"{extras}#raffle-drawing"),)
    _draw(raffle, tenant.member_in_charge)
    assert not any("raffle" in str(line) for line in close_summary(occasion).unfinished)


def _page_url(occasion: Occasion) -> str:
    return reverse("extras_raffle_drawing", args=[occasion.organization_id, occasion.pk])


def test_the_member_in_charge_records_the_drawing_on_the_extras_page(client, tenant, raffle):
    login(client, tenant.member_in_charge)
    occasion = raffle.occasion
    extras = reverse("occasion_extras", args=[occasion.organization_id, occasion.pk])
    page = client.get(extras).content.decode()
    assert 'id="raffle-drawing"' in page and "Not drawn yet" in page
    data = {"raffle": raffle.pk, "winning_ticket": "A-0042", "winner_name": "Rose", "time": "21:50"}
    response = client.post(_page_url(occasion), data)
    assert response.status_code == 302
    page = client.get(extras).content.decode()
    assert "Drawn at 9:50 PM: ticket A-0042, Rose" in page
    assert 'id="raffle-drawing"' not in page  # nothing left to draw


def test_bad_input_is_a_message_and_nothing_is_saved(client, tenant, raffle):
    login(client, tenant.member_in_charge)
    response = client.post(_page_url(raffle.occasion), {"raffle": raffle.pk, "time": "21:50"})
    assert response.status_code == 200 and "This field is required." in response.content.decode()
    response = client.post(
        _page_url(raffle.occasion), {"raffle": raffle.pk, "winning_ticket": "A-1", "time": "19:00"}
    )
    assert "sold until 7:30 PM" in response.content.decode()
    assert Raffle.objects.get(pk=raffle.pk).drawn_at is None


def test_another_organization_gets_404_and_an_inspector_403(
    client, other_tenant, inspector, raffle
):
    data = {"raffle": raffle.pk, "winning_ticket": "A-0042", "time": "21:50"}
    login(client, other_tenant.member_in_charge)
    assert client.post(_page_url(raffle.occasion), data).status_code == 404
    login(client, inspector)
    assert client.post(_page_url(raffle.occasion), data).status_code == 403
    assert Raffle.objects.get(pk=raffle.pk).drawn_at is None


def test_the_inspector_reads_the_drawing_in_the_full_record(client, tenant, inspector, raffle):
    occasion = raffle.occasion
    record = reverse("occasion_record", args=[occasion.organization_id, occasion.pk])
    login(client, inspector)
    assert "no drawing recorded" in client.get(record).content.decode()
    _draw(raffle, tenant.member_in_charge, at=at(occasion, 21, 50))
    page = " ".join(client.get(record).content.decode().split())
    assert "drawn at 9:50 PM, ticket A-0042 (Rose Medeiros)" in page

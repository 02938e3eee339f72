"""Writes for raffles (961 CMR 3.04(9)(a), (5)(b)) and charity game tickets (3.04(8)(f),
M.G.L. c. 10 § 37) at an occasion, and the organization's raffle permits.

Each write runs in ``rules.atomic()``: it locks the occasion, builds the facts, has the rules
judge them before anything is saved, saves, and appends its audit event."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.files import File
from django.db.models import Max
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules.facilities import CHARITY_SELL, CharityTicketSaleFacts
from beano.rules.money import PRIZE, TICKET_PRICE, money
from beano.rules.prizes import CHARITY_REDEEM, CharityRedemptionFacts
from beano.rules.prohibited import (
    CREATE_RAFFLE,
    SELL_RAFFLE_TICKET,
    RaffleFacts,
    RaffleTicketFacts,
)
from occasions import extras_selectors as selectors
from occasions import moments, on_floor
from occasions.extras_services import (
    audit,
    enforce,
    lock_occasion,
    lock_occasion_at,
    text,
)
from occasions.models import (
    CharityRedemption,
    CharityTicketSale,
    Occasion,
    Raffle,
    RafflePermit,
    RaffleTicketSale,
)
from organizations.audit import acting_user, record_event, snapshot
from organizations.models import Organization

PERMIT_FIELDS = ("permit_number", "issued_by", "town", "valid_from", "valid_to", "document")


@rules.atomic()
def record_raffle_permit(
    *,
    organization: Organization,
    permit_number: str,
    issued_by: str,
    town: str,
    valid_from: dt.date,
    valid_to: dt.date,
    by: Actor,
    document: File | None = None,
) -> RafflePermit:
    """The raffle permit the city or town clerk issued (3.04(9)(a)). Its validity is judged
    each time a raffle is held or a ticket sold under it, on that day."""
    # The organization's row is the lock: a permit recorded twice at once (a double click) is
    # found by the second, refused as already recorded, rather than crashing on the constraint.
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    permit_number = text(permit_number, "permit_number", limit=60)
    if valid_to < valid_from:
        raise ValidationError({"valid_to": "A permit cannot end before it starts."})
    if RafflePermit.objects.filter(
        organization=organization, permit_number__iexact=permit_number
    ).exists():
        raise ValidationError({"permit_number": "This permit is already recorded."})
    permit = RafflePermit(
        organization=organization,
        permit_number=permit_number,
        issued_by=text(issued_by, "issued_by"),
        town=text(town, "town", limit=100),
        valid_from=valid_from,
        valid_to=valid_to,
        recorded_by=acting_user(by),
    )
    if document is not None:
        permit.document = document
    permit.full_clean()
    permit.save()
    values = snapshot(permit, PERMIT_FIELDS)
    values["document"] = permit.document.name if permit.document else ""
    record_event(
        organization=organization,
        actor=by,
        action="occasions.raffle_permit.recorded",
        target=permit,
        new=values,
    )
    return permit


def raffle_facts(raffle: Raffle, permit: RafflePermit, on: dt.date) -> RaffleFacts:
    return RaffleFacts(
        permit_number=permit.permit_number,
        permit_valid_from=permit.valid_from,
        permit_valid_to=permit.valid_to,
        on=on,
        prize_kind=raffle.prize_kind,
        prize_description=raffle.prize_description,
    )


@rules.atomic()
def hold_raffle(
    *,
    occasion: Occasion,
    permit: RafflePermit,
    prize_description: str,
    prize_kind: str,
    ticket_price: Decimal,
    by: Actor,
) -> Raffle:
    """A raffle at the occasion, under a permit valid on its date, with no cash or cash
    equivalent prize and no break-open tickets but charity game tickets as prizes (3.04(9)(a))."""
    occasion = lock_occasion(occasion)
    permit = locking.lock(RafflePermit.objects).get(pk=permit.pk)
    if permit.organization_id != occasion.organization_id:
        raise ValidationError({"permit": "That permit is not this organization's."})
    raffle = Raffle(
        occasion=occasion,
        permit=permit,
        prize_description=text(prize_description, "prize_description"),
        prize_kind=prize_kind,
        ticket_price=money(ticket_price, TICKET_PRICE, "ticket_price"),
        recorded_by=acting_user(by),
    )
    raffle.full_clean()
    enforce(CREATE_RAFFLE, raffle_facts(raffle, permit, occasion.date), occasion, by)
    raffle.save()
    audit(
        occasion,
        by,
        "occasions.raffle.held",
        raffle,
        ("permit", "prize_description", "prize_kind", "ticket_price"),
    )
    return raffle


@rules.atomic()
def sell_raffle_tickets(
    *,
    raffle: Raffle,
    admission_receipt_number: int,
    quantity: int,
    by: Actor,
    at: moments.At = None,
) -> RaffleTicketSale:
    """Raffle tickets sold at the raffle's price, during the hours of Beano (3.04(9)(a)), only
    to a player holding a paid admission receipt of the occasion (3.04(5)(b))."""
    occasion, moment = lock_occasion_at(
        raffle.occasion, at, by=by, act="selling raffle tickets", own_window=True
    )
    raffle = Raffle.objects.select_related("permit").get(pk=raffle.pk)
    if raffle.drawn_at is not None and moment >= raffle.drawn_at:
        raise ValidationError(
            {"raffle": f"This raffle was drawn at {_clock(raffle.drawn_at)}: no ticket after it."}
        )
    if quantity < 1:
        raise ValidationError({"quantity": "At least one ticket."})
    if admission_receipt_number < 1:
        raise ValidationError({"admission_receipt_number": "Give the admission receipt number."})
    sold_at = moment
    enforce(
        SELL_RAFFLE_TICKET,
        [
            raffle_facts(raffle, raffle.permit, timezone.localdate(sold_at)),
            RaffleTicketFacts(
                admission_receipt_number=admission_receipt_number,
                admission_receipt_valid=selectors.admission_receipt_exists(
                    occasion, admission_receipt_number
                ),
                sold_at=sold_at,
                opened_at=occasion.opened_at,
                closed_at=occasion.closed_at,
            ),
        ],
        occasion,
        by,
    )
    on_floor.require(occasion, by, moment, doing="selling raffle tickets")
    sale = RaffleTicketSale.objects.create(
        raffle=raffle,
        admission_receipt_number=admission_receipt_number,
        quantity=quantity,
        amount=raffle.ticket_price * quantity,
        sold_at=sold_at,
        sold_by=acting_user(by),
    )
    audit(
        occasion,
        by,
        "occasions.raffle_tickets.sold",
        sale,
        ("raffle", "admission_receipt_number", "quantity", "amount", "sold_at"),
    )
    return sale


def _clock(moment: dt.datetime) -> str:
    return f"{timezone.localtime(moment):%-I:%M %p}"


@rules.atomic()
def draw_raffle(
    *,
    raffle: Raffle,
    winning_ticket: str,
    winner_name: str,
    by: Actor,
    at: moments.At = None,
) -> Raffle:
    """The raffle's drawing, once, while the occasion is open (or at the time written for it):
    the winning ticket and who holds it, after its tickets are sold and never before the last
    sale; no ticket is sold after it. The prize itself was judged when the raffle was held (no
    cash or cash equivalent, 3.04(9)(a))."""
    occasion, moment = lock_occasion_at(raffle.occasion, at, by=by, act="drawing a raffle")
    raffle = locking.lock(Raffle.objects).get(pk=raffle.pk, occasion=occasion)
    if raffle.drawn_at is not None:
        raise ValidationError(
            {"raffle": f"This raffle was drawn at {_clock(raffle.drawn_at)}: it is drawn once."}
        )
    last = raffle.ticket_sales.aggregate(last=Max("sold_at"))["last"]
    if last is None:
        raise ValidationError({"raffle": "No ticket of this raffle is sold: nothing to draw."})
    if moment < last:
        raise ValidationError(f"Its tickets were sold until {_clock(last)}: it is drawn after.")
    raffle.winning_ticket = text(winning_ticket, "winning_ticket", limit=40)
    raffle.winner_name = text(winner_name, "winner_name", required=False)
    raffle.drawn_at = moment
    raffle.drawn_by = acting_user(by)
    drawn = ("winning_ticket", "winner_name", "drawn_at")
    raffle.save(update_fields=[*drawn, "drawn_by"])
    audit(occasion, by, "occasions.raffle.drawn", raffle, drawn)
    return raffle


@rules.atomic()
def sell_charity_tickets(
    *,
    occasion: Occasion,
    game_name: str,
    serial_number: str,
    quantity: int,
    price: Decimal,
    sold_on_premises: bool,
    by: Actor,
    at: moments.At = None,
) -> CharityTicketSale:
    """Charity game tickets sold at the occasion, on the premises (M.G.L. c. 10 § 37), from a
    deal whose serial the Commission assigned to the organization (3.04(8)(f))."""
    occasion, moment = lock_occasion_at(
        occasion, at, by=by, act="selling charity game tickets", own_window=True
    )
    game_name = text(game_name, "game_name", limit=100)
    serial_number = text(serial_number, "serial_number", limit=40).upper()
    price = money(price, TICKET_PRICE, "price")
    if quantity < 1:
        raise ValidationError({"quantity": "At least one ticket."})
    sold_at = moment
    enforce(
        CHARITY_SELL,
        CharityTicketSaleFacts(
            game_name=game_name,
            serial_number=serial_number,
            on_premises=sold_on_premises,
            sold_at=sold_at,
            opened_at=occasion.opened_at,
            closed_at=occasion.closed_at,
            serial_assigned=selectors.serial_assigned(
                occasion.organization, serial_number, timezone.localdate(sold_at)
            ),
        ),
        occasion,
        by,
    )
    sale = CharityTicketSale.objects.create(
        occasion=occasion,
        game_name=game_name,
        serial_number=serial_number,
        quantity=quantity,
        price=price,
        sold_on_premises=sold_on_premises,
        sold_at=sold_at,
        sold_by=acting_user(by),
    )
    audit(
        occasion,
        by,
        "occasions.charity_tickets.sold",
        sale,
        ("game_name", "serial_number", "quantity", "price", "sold_on_premises", "sold_at"),
    )
    return sale


@rules.atomic()
def redeem_charity_ticket(
    *,
    occasion: Occasion,
    serial_number: str,
    prize_amount: Decimal,
    redeemed_on: dt.date,
    by: Actor,
) -> CharityRedemption:
    """A winning charity game ticket redeemed: only the organization's own serial, sold by it,
    up to one year from the sale and no later than today, each ticket once (3.04(8)(f)). It is
    matched to the latest sale of the serial."""
    occasion = lock_occasion(occasion, during_night=False)
    organization = occasion.organization
    serial_number = text(serial_number, "serial_number", limit=40).upper()
    prize_amount = money(prize_amount, PRIZE, "prize_amount")
    sale = selectors.latest_charity_sale(organization, serial_number, redeemed_on)
    sale_date = timezone.localdate(sale.sold_at) if sale else None
    enforce(
        CHARITY_REDEEM,
        CharityRedemptionFacts(
            serial_number=serial_number,
            sold_by_organization=sale is not None,
            serial_assigned_at_sale=sale_date is not None
            and selectors.serial_assigned(organization, serial_number, sale_date),
            sale_date=sale_date,
            redeemed_on=redeemed_on,
            today=timezone.localdate(),
            tickets_sold=selectors.charity_tickets_sold(organization, serial_number, redeemed_on),
            redeemed_before=selectors.charity_redemptions(organization, serial_number),
        ),
        occasion,
        by,
    )
    redemption = CharityRedemption.objects.create(
        organization=organization,
        serial_number=serial_number,
        sale=sale,
        occasion=occasion,
        prize_amount=prize_amount,
        redeemed_on=redeemed_on,
        recorded_by=acting_user(by),
    )
    audit(
        occasion,
        by,
        "occasions.charity_ticket.redeemed",
        redemption,
        ("serial_number", "sale", "prize_amount", "redeemed_on"),
    )
    return redemption

"""Demo data for an occasion's prizes and other sales: two merchandise
door prizes, a raffle under the post's permit, charity game tickets, food, and a police detail at
the prevailing Fairhaven rate. Idempotent: each part is recorded once per occasion."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from occasions import extras_services, raffle_services
from occasions.extras_selectors import prevailing_police_rate
from occasions.models import (
    CharityTicketSerialAssignment,
    Occasion,
    PrevailingPoliceRate,
    RafflePermit,
)

#: Prevailing police detail rates (illustrative figures the Commission would keep current).
POLICE_RATES = [
    (
        "Fairhaven",
        Decimal("58.00"),
        dt.date(2026, 1, 1),
        "Fairhaven Police Department, detail rate",
    ),
    (
        "Fall River",
        Decimal("62.00"),
        dt.date(2026, 1, 1),
        "Fall River Police Department, detail rate",
    ),
]
SERIAL_PREFIX = "MA"


def seed_police_rates() -> None:
    for town, rate, since, source in POLICE_RATES:
        PrevailingPoliceRate.objects.get_or_create(
            town=town, effective_from=since, defaults={"hourly_rate": rate, "source": source}
        )


def _serial_prefix(occasion: Occasion) -> str:
    return f"{SERIAL_PREFIX}{occasion.organization_id:04d}-"


def _permit(occasion: Occasion) -> RafflePermit:
    organization = occasion.organization
    number = f"R-{occasion.date.year}-{organization.pk:04d}"
    permit = RafflePermit.objects.filter(organization=organization, permit_number=number).first()
    if permit is not None:
        return permit
    return raffle_services.record_raffle_permit(
        organization=organization,
        permit_number=number,
        issued_by="Town Clerk",
        town=organization.town,
        valid_from=dt.date(occasion.date.year, 1, 1),
        valid_to=dt.date(occasion.date.year, 12, 31),
        by=None,
    )


def seed_extras(occasion: Occasion) -> None:
    """Record the night's extras on an open or closed occasion; each part only once."""
    if occasion.opened_at is None:
        raise ValueError("seed_extras needs an occasion that has opened")
    seed_police_rates()
    organization = occasion.organization
    at = occasion.opened_at
    CharityTicketSerialAssignment.objects.get_or_create(
        organization=organization,
        serial_prefix=_serial_prefix(occasion),
        defaults={
            "serial_from": 1000,
            "serial_to": 1999,
            "assigned_on": dt.date(occasion.date.year, 1, 1),
            "reference": "MSLC-CG-DEMO",
        },
    )
    if not occasion.door_prizes.exists():
        for minutes, description, value, donated, winner in (
            (30, "Fruit basket", Decimal("45.00"), False, "Mary Costa"),
            (150, "Handmade quilt", Decimal("120.00"), True, "Robert Pimental"),
        ):
            extras_services.award_door_prize(
                occasion=occasion,
                description=description,
                value=value,
                donated=donated,
                winner_name=winner,
                by=None,
                at=at + dt.timedelta(minutes=minutes),
            )
    if not occasion.raffles.exists():
        raffle_services.hold_raffle(
            occasion=occasion,
            permit=_permit(occasion),
            prize_description="Patriots throw blanket and mug set",
            prize_kind="merchandise",
            ticket_price=Decimal("1.00"),
            by=None,
        )
    if not occasion.charity_ticket_sales.exists():
        for minutes, game, serial, quantity in (
            (20, "Lucky 7s", "1004", 40),
            (95, "Cherry Bells", "1011", 25),
        ):
            raffle_services.sell_charity_tickets(
                occasion=occasion,
                game_name=game,
                serial_number=_serial_prefix(occasion) + serial,
                quantity=quantity,
                price=Decimal("1.00"),
                sold_on_premises=True,
                by=None,
                at=at + dt.timedelta(minutes=minutes),
            )
    if not occasion.other_sales.exists():
        for minutes, description, amount in (
            (-30, "Coffee and pastries", Decimal("64.50")),
            (105, "Hot dogs and soda at the intermission", Decimal("118.00")),
        ):
            extras_services.record_other_sale(
                occasion=occasion,
                kind="food",
                description=description,
                amount=amount,
                on_beano_portion=True,
                by=None,
                at=at + dt.timedelta(minutes=minutes),
            )
    if not occasion.police_details.exists():
        rate = prevailing_police_rate(organization.town, occasion.date)
        if rate is not None:
            extras_services.record_police_detail(
                occasion=occasion,
                officer_name="Officer Dana Medeiros",
                department_town=organization.town,
                hours=Decimal("5.5"),
                hourly_rate=rate.hourly_rate,
                by=None,
            )

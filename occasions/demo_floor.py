"""The floor's demo data, recorded through the services at the times of the night: Post 171's
most recent past Friday is a closed occasion, St. Anne's most recent past Tuesday is still open
(shared/SAMPLE-NIGHT.md). Workers without an ID on the list cannot sign in and are left out.
Idempotent: each step is skipped once done."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from beano.rules.opening import CHECKLIST
from occasions import floor_selectors, floor_services, raffle_services, selectors, services
from occasions.demo_extras import seed_extras
from occasions.demo_sales import seed_sales
from occasions.models import Occasion
from organizations.models import Organization


@dataclass(frozen=True)
class Night:
    organization: str
    signed_in: dt.time
    confirmed: dt.time
    opened: dt.time
    closed: dt.time | None  # None: the occasion is left open


NIGHTS = (
    Night(
        "American Legion Post 171",
        dt.time(18, 30),
        dt.time(18, 40),
        dt.time(18, 45),
        dt.time(22, 15),
    ),
    Night("St. Anne's Parish", dt.time(18, 15), dt.time(18, 25), dt.time(18, 30), None),
)


def last_past_day(organization: Organization, today: dt.date) -> dt.date | None:
    """The most recent authorized day before ``today``, in this year (whose worker list the
    demo has)."""
    days = selectors.previous_authorized_days(organization, today, 1)
    return days[0] if days and days[0].year == today.year else None


def seed_floor(today: dt.date) -> None:
    for night in NIGHTS:
        organization = Organization.objects.filter(name=night.organization).first()
        day = last_past_day(organization, today) if organization else None
        if organization is None or day is None:
            continue
        occasion = services.occasion_for_day(organization=organization, day=day, by=None)
        if occasion.status == Occasion.Status.SCHEDULED:
            _prepare_and_open(occasion, night)
        if occasion.status == Occasion.Status.OPEN:
            seed_sales(occasion, today)
            seed_extras(occasion)
            _sell_raffle_tickets(occasion)
        if night.closed is not None and occasion.status == Occasion.Status.OPEN:
            floor_services.close_occasion(occasion=occasion, by=None, at=_at(day, night.closed))


def _sell_raffle_tickets(occasion: Occasion) -> None:
    """A few players buy raffle tickets on their admission receipt (3.04(5)(b), (9)(a))."""
    raffle = occasion.raffles.first()
    if raffle is None or raffle.ticket_sales.exists():
        return
    for n, receipt in enumerate((3, 17, 42, 64, 90)):
        raffle_services.sell_raffle_tickets(
            raffle=raffle,
            admission_receipt_number=receipt,
            quantity=1 + n % 3,
            by=None,
            at=occasion.opened_at + dt.timedelta(minutes=40 + n),
        )


def _at(day: dt.date, time: dt.time) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, time))


def _prepare_and_open(occasion: Occasion, night: Night) -> None:
    if not occasion.price_items.exists():
        services.set_price_list(
            occasion=occasion, items=selectors.proposed_prices(occasion), by=None
        )
    present = set(occasion.presences.values_list("entry_id", flat=True))
    for entry in floor_selectors.list_entries(occasion):
        if entry.pk in present or not entry.identification:
            continue
        floor_services.sign_in_worker(
            occasion=occasion,
            entry=entry,
            role=entry.roles[0],
            identification=entry.identification,
            by=None,
            at=_at(occasion.date, night.signed_in),
        )
    for item in CHECKLIST:
        floor_services.confirm_check(
            occasion=occasion, item=item.code, by=None, at=_at(occasion.date, night.confirmed)
        )
    floor_services.open_occasion(occasion=occasion, by=None, at=_at(occasion.date, night.opened))
    occasion.refresh_from_db()

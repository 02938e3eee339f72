"""Reads for occasions, always given the organization."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from beano.rules.reporting import ResumptionFacts
from occasions.models import Occasion, ResumptionNotice
from organizations.models import License, Organization
from organizations.selectors import active_licenses, authorized_days


@dataclass(frozen=True)
class CalendarDay:
    day: dt.date
    license: License
    occasion: Occasion | None

    @property
    def status(self) -> str:
        return self.occasion.status if self.occasion else Occasion.Status.SCHEDULED

    @property
    def status_label(self) -> str:
        return Occasion.Status(self.status).label

    @property
    def nothing_recorded(self) -> bool:
        """A past day never opened nor reported not played: the calendar says so and offers
        the ways in (from paper; not played)."""
        return self.day < timezone.localdate() and (
            self.occasion is None or self.occasion.status == Occasion.Status.SCHEDULED
        )


def authorized_license(organization: Organization, day: dt.date) -> License | None:
    """The active license authorizing ``day``, if any."""
    for lic in active_licenses(organization):
        if lic.valid_from <= day <= lic.valid_to and day.weekday() in lic.authorized_weekdays:
            return lic
    return None


def calendar(organization: Organization, start: dt.date, end: dt.date) -> list[CalendarDay]:
    """Every authorized day in [start, end] with its occasion where one is recorded, and any
    recorded occasion in the range whose day is no longer authorized (a license changed)."""
    occasions = {
        o.date: o
        for o in Occasion.objects.filter(organization=organization, date__range=(start, end))
    }
    days = {
        d.day: CalendarDay(d.day, d.license, occasions.get(d.day))
        for d in authorized_days(organization, start, end)
    }
    for day, occasion in occasions.items():
        days.setdefault(day, CalendarDay(day, occasion.license, occasion))
    return [days[d] for d in sorted(days)]


def previous_authorized_days(organization: Organization, day: dt.date, count: int) -> list[dt.date]:
    start = day - dt.timedelta(days=7 * (count + 8))
    days = sorted({d.day for d in authorized_days(organization, start, day - dt.timedelta(days=1))})
    return days[-count:]


def resumption_facts(organization: Organization, day: dt.date) -> ResumptionFacts:
    """For 961 CMR 3.05(1)(b): were the two authorized days before ``day`` both not played?"""
    previous = previous_authorized_days(organization, day, 2)
    not_played = set(
        Occasion.objects.filter(
            organization=organization, date__in=previous, status=Occasion.Status.NOT_PLAYED
        ).values_list("date", flat=True)
    )
    both = len(previous) == 2 and set(previous) <= not_played
    notice = (
        ResumptionNotice.objects.filter(organization=organization, sent_on__lte=day)
        .order_by("-sent_on")
        .first()
    )
    return ResumptionFacts(
        previous_two_not_played=both,
        last_not_played_on=max(previous) if both else None,
        notice_sent_on=notice.sent_on if notice else None,
    )


#: The prices of a typical Massachusetts night, offered for a first price list.
DEFAULT_PRICES = [
    ("admission", "Admission (3-on regular card for all regular games)", "2.00"),
    ("extra_regular", "Extra regular card (3-on)", "1.00"),
    ("bonus", "Bonus card", "1.00"),
    ("special", "Special game card", "2.00"),
    ("winner_take_all", "Winner-take-all card", "1.00"),
]


def posted_items(occasion: Occasion) -> list[dict[str, Any]]:
    """The occasion's posted list, as the price list service takes it."""
    return [
        {
            "category": i.category,
            "label": i.label,
            "price": i.price,
            "package_contents": i.package_contents,
        }
        for i in occasion.price_items.all()
    ]


def proposed_prices(occasion: Occasion) -> list[dict[str, str]]:
    """The occasion's own list; else the last list this organization posted; else the usual."""
    items = list(occasion.price_items.all())
    if not items:
        previous = (
            Occasion.objects.filter(organization=occasion.organization, price_items__isnull=False)
            .exclude(pk=occasion.pk)
            .order_by("-date")
            .first()
        )
        items = list(previous.price_items.all()) if previous else []
    if items:
        return [
            {
                "category": i.category,
                "label": i.label,
                "price": str(i.price),
                "package_contents": i.package_contents,
            }
            for i in items
        ]
    return [
        {"category": c, "label": label, "price": p, "package_contents": ""}
        for c, label, p in DEFAULT_PRICES
    ]

"""The occasions' demo data: each demo organization's next authorized day, prepared with its
posted price list, and the last night on the floor (``beano.demo.floor``).
Idempotent."""

from __future__ import annotations

import datetime as dt

from beano.demo.floor import seed_floor
from occasions import selectors, services
from organizations.models import Organization

DEMO_ORGANIZATIONS = ("American Legion Post 171", "St. Anne's Parish")


def seed(today: dt.date) -> None:
    for organization in Organization.objects.filter(name__in=DEMO_ORGANIZATIONS):
        upcoming = selectors.calendar(organization, today, today + dt.timedelta(days=13))
        if not upcoming:
            continue
        occasion = services.occasion_for_day(
            organization=organization, day=upcoming[0].day, by=None
        )
        if not occasion.price_items.exists():
            services.set_price_list(
                occasion=occasion, items=selectors.proposed_prices(occasion), by=None
            )
    seed_floor(today)

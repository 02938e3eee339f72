"""What reports offers the apps above it (filled from their ``AppConfig.ready()``; reports never
imports them): ``DAY_WAY_IN``, what the reports owed say of a past authorized day with nothing
recorded and what the viewer may do about it (the night file's ``nightfile.way_in``: enter it
from paper, report it not played). Without one, the day is listed as owed and nothing more."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from occasions.models import Occasion
from organizations.models import Organization

#: ``(organization, roles, day, occasion)`` → an object with ``label``, ``paper_url`` and
#: ``not_played_url``, or None when the day needs no way in. Runs no query.
DayWayIn = Callable[[Organization, Iterable[str], dt.date, Occasion | None], Any]

DAY_WAY_IN: list[DayWayIn] = []


def add_day_way_in(reader: DayWayIn) -> None:
    if reader not in DAY_WAY_IN:
        DAY_WAY_IN.append(reader)


def day_way_in(
    organization: Organization, roles: Iterable[str], day: dt.date, occasion: Occasion | None
) -> Any:
    """The first answer of the apps above, or None (none offered, or no way in needed)."""
    for reader in DAY_WAY_IN:
        way = reader(organization, roles, day, occasion)
        if way is not None:
            return way
    return None

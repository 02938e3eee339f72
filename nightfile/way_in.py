"""The way in to a night from paper: every past authorized day with nothing recorded says so on
the bookkeeper's landing page, the calendar and the Reports page, and offers to enter it from its
control sheets (to those who enter sheets: the head, the member in charge, the bookkeeper) and to
report it not played (to those who may record that on the occasion page: the head and the member
in charge). An inspector reads the same words and is offered nothing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone

from occasions.models import Occasion
from organizations.access_matrix import ENTERS
from organizations.access_matrix import RUNS_THE_NIGHT as REPORTS_NOT_PLAYED
from organizations.models import Organization

NOTHING_RECORDED = "Nothing recorded"


@dataclass(frozen=True)
class WayIn:
    """A past authorized day with nothing recorded, and what the viewer may do about it ("" for
    what they may not)."""

    day: dt.date
    paper_url: str
    not_played_url: str
    label: str = NOTHING_RECORDED


def nothing_recorded(day: dt.date, occasion: Occasion | None, today: dt.date) -> bool:
    """A day before today whose night was never opened: no occasion recorded, or one still
    scheduled (prepared, perhaps begun from paper, never opened nor reported not played)."""
    return day < today and (occasion is None or occasion.status == Occasion.Status.SCHEDULED)


def way_in(
    organization: Organization,
    roles: Iterable[str],
    day: dt.date,
    occasion: Occasion | None,
    *,
    today: dt.date | None = None,
) -> WayIn | None:
    """What a page says of ``day`` for a viewer holding ``roles`` in ``organization`` (none for
    the Commission's staff): None unless nothing is recorded of it. Runs no query."""
    if not nothing_recorded(day, occasion, today or timezone.localdate()):
        return None
    held = set(roles)
    args = [organization.pk, day.isoformat()]
    return WayIn(
        day=day,
        paper_url=reverse("paper_for_day", args=args) if held & set(ENTERS) else "",
        not_played_url=reverse("day_not_played", args=args)
        if held & set(REPORTS_NOT_PLAYED)
        else "",
    )

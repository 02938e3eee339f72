"""What the night file adds to the pages below it (``beano.links``): the paper path under the
floor bar of a night's pages and on the floor bar itself, the way in from a past day with nothing
recorded, the control sheets and the close after the fact (from the close page, and from a night
left open at the top of the landing page), and a night file uploaded (from the Reports page)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils import timezone

from beano.links import Include, Link, occasion_page, org_page
from nightfile.way_in import ENTERS
from occasions.models import Occasion


def _before_close(context: Any) -> bool:
    return context["occasion"].status in ("scheduled", "open")


def _may_close_late(context: Any) -> bool:
    return bool(context.get("can_close_late"))


def _night_passed(context: Any) -> bool:
    """An occasion left open whose night has passed (not the morning after): closed after the
    fact. The landing page shows it only to those who may (the head, the member in charge, the
    bookkeeper); the page itself says no to anyone else."""
    return not context["occasion"].records_on(timezone.localdate())


def _enters(context: Any) -> bool:
    access = context.get("access")
    return bool(access and access.has_role(*ENTERS))


def _paper_for_day(context: Any) -> str | None:
    """A past day with nothing recorded, on the calendar: entered from its sheets."""
    day = context["d"]
    if not (day.nothing_recorded and _enters(context)):
        return None
    return reverse("paper_for_day", args=[context["org"].pk, day.day.isoformat()])


def _passed_unopened(context: Any) -> bool:
    """The occasion page of a night never opened whose day has passed: the paper path."""
    return context["occasion"].passed_unopened and _enters(context)


LINKS = (
    Link("reports_actions", "night_upload", "Upload a night file", org_page("night_upload")),
    Link("calendar_day", "paper", "Enter from paper", _paper_for_day, 10),
    Link(
        "occasion_actions",
        "paper",
        "Enter from paper",
        occasion_page("paper_home", _passed_unopened),
        order=5,
    ),
    Link(
        "occasion_actions",
        "control_sheets",
        "Print the night's control sheets",
        occasion_page("control_sheets", _before_close),
        order=10,
        new_tab=True,
    ),
    Link(
        "late_close",
        "close_late",
        "Close after the fact",
        occasion_page("occasion_close_late", _may_close_late),
    ),
    Link(
        "left_open",
        "close_late",
        "Close after the fact",
        occasion_page("occasion_close_late", _night_passed),
    ),
)
INCLUDES = (Include("floor_notes", "nightfile/_floor_notes.html"),)


def _night(name: str) -> Callable[[Occasion, int | None], str]:
    def url(occasion: Occasion, game_pk: int | None = None) -> str:
        return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk})

    return url


#: The paper path on the floor bar of every page of the night (``occasions.floor_bar``).
FLOOR_PAGES = {"paper": _night("paper_home")}

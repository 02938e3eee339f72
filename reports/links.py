"""What the reports add to the pages below them (``beano.links``): their tab, and the close-out on
the floor bar of a night's pages."""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

from beano.links import Link, org_page
from occasions.models import Occasion

LINKS = (Link("organization_tabs", "reports", "Reports", org_page("reports_home"), 30),)


def _night(name: str) -> Callable[[Occasion, int | None], str]:
    def url(occasion: Occasion, game_pk: int | None = None) -> str:
        return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk})

    return url


#: The reports' pages on the floor bar of every page of the night (``occasions.floor_bar``).
FLOOR_PAGES = {"closeout": _night("report_closeout")}

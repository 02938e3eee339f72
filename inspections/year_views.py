"""An organization's year on one page for the Commission's inspectors (``inspections.year``)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone

from inspections.year import year_figures
from organizations.access import OrgRequest, org_view


def _years(request: OrgRequest, today_year: int) -> list[int]:
    """The years the chooser offers: from the organization's first license to this year."""
    first = min(
        (lic.valid_from.year for lic in request.access.organization.licenses.all()),
        default=today_year,
    )
    return list(range(today_year, min(first, today_year) - 1, -1))


@org_view()
def organization_year(request: OrgRequest) -> HttpResponse:
    """Did the organization break any rule this year? Every count of the pages that say so,
    each linked to its page filtered to the organization and the year. The Commission's only:
    it sums up pages (the exceptions report, the Commission's reports owed) that the
    organization's own people do not have (403 to them, 404 to anyone of another
    organization, as every page of an organization)."""
    access = request.access
    today = timezone.localdate()
    years = _years(request, today.year)
    asked = request.GET.get("year", "")
    year = int(asked) if asked.isdigit() and int(asked) in years else today.year
    return render(
        request,
        "inspections/year.html",
        {
            "org": access.organization,
            "access": access,
            "year": year_figures(access.organization, year, today),
            "years": years,
            "chosen": year,
            "today": today,
        },
    )

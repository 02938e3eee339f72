"""The reports an organization owes: one per authorized day, with its status."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from organizations.access import org_view
from reports import selectors
from reports.models import AnnualReport
from reports.pages import access_of, ranged


@org_view()
def reports_home(request: HttpRequest) -> HttpResponse:
    """The reports owed by the organization: one per authorized day, with its status."""
    access = access_of(request)
    org = access.organization
    status = request.GET.get("status", "")
    start, end = ranged(request)
    rows = selectors.obligations(
        [org],
        start=start,
        end=end,
        statuses=[status] if status in selectors.FILTER_LABELS else [],
    )
    all_rows = rows if not status else selectors.obligations([org])
    today = timezone.localdate()
    first = org.reports_from or min((lic.valid_from for lic in org.licenses.all()), default=today)
    years = [y for y in (today.year, today.year - 1) if y >= first.year]
    return render(
        request,
        "reports/reports_home.html",
        {
            "org": org,
            "access": access,
            "tab": "reports",
            "rows": rows,
            "counts": selectors.status_counts(all_rows),
            "records_begin": org.reports_from,
            "status": status,
            "labels": selectors.FILTER_LABELS,
            "styles": selectors.STATUS_STYLES,
            "years": years,
            "annual": {
                y: AnnualReport.objects.filter(organization=org, year=y)
                .order_by("-version")
                .first()
                for y in years
            },
            "filters": {"from": request.GET.get("from", ""), "to": request.GET.get("to", "")},
        },
    )

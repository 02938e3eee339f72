"""The Commission's pages over the inspector's scope: the dashboard, the compliance views and the
CSV exports, and the log of refused actions. Read-only: every page answers GET and HEAD only,
and only to Commission staff (``commission_view``)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from beano.csv_files import csv_response
from beano.rules.models import RefusedAction
from beano.rules.views import RefusedFilter, refused_actions_page
from inspections import selectors, trends
from inspections.compliance_views import SECTIONS, compliance_page, query_without
from inspections.dashboard_table import dashboard_links, organization_row
from inspections.exports import OCCASION_EXPORTS, REFUSED_EXPORT
from inspections.filters import OccasionFilter, OccasionFilterForm
from occasions.models import Occasion
from organizations.access import commission_staff, commission_view, visible_organizations
from organizations.selectors import licensees
from reports import selectors as report_selectors

OCCASIONS_PER_PAGE = 25


@commission_view
def dashboard(request: HttpRequest) -> HttpResponse:
    """The organizations in scope with their license and last occasion, the occasions the filter
    selects with their figures, the people searched for, and the charts."""
    today = timezone.localdate()
    organizations = selectors.organizations_in_scope(request.user)
    form = OccasionFilterForm(request.GET, organizations=organizations, today=today)
    flt = OccasionFilter.from_form(form)
    scope = selectors.scope(request.user)
    occasions = Paginator(selectors.occasions(scope, flt), OCCASIONS_PER_PAGE)
    page = occasions.get_page(request.GET.get("page"))
    rows = selectors.organization_rows(scope, flt, today)
    dashboard_links(rows)
    issues = report_selectors.issues_by_organization([row.organization for row in rows])
    for row in rows:
        row.issues = issues[row.organization.pk]
        row.html = organization_row(row)
    start, end = trends.period(flt.date_from, flt.date_to, today)
    if flt.organization is not None:
        subject = flt.organization.name
    else:
        subject = "Your selection" if flt.narrows_organizations else "Organizations you inspect"
    charts = trends.trend_charts(
        subject=subject,
        subject_medians=trends.medians(
            flt.occasions(Occasion.objects.filter(organization__in=scope)), start, end
        ),
        statewide=trends.statewide_medians(start, end),
        start=start,
        end=end,
    )
    return render(
        request,
        "inspections/dashboard.html",
        {
            "form": form,
            "filter": flt,
            "today": today,
            "rows": rows,
            "page": page,
            "occasion_reports": report_selectors.reports_of_occasions(page.object_list),
            "query": query_without(request, "page"),
            "people": selectors.people_found(scope, flt.q, today),
            "charts": charts,
            "exports": list(OCCASION_EXPORTS),
            "staff": commission_staff(request.user),
            "practice": selectors.practice_in_scope(request.user),
        },
    )


@commission_view
def compliance(request: HttpRequest, section: str) -> HttpResponse:
    if section not in SECTIONS:
        raise Http404
    organizations = selectors.organizations_in_scope(request.user)
    return compliance_page(
        request, section, selectors.scope(request.user), organizations, {"org": None}
    )


@commission_view
def export(request: HttpRequest, kind: str) -> HttpResponse:
    """The CSV of ``kind`` for the filter in the query string: the same rows as the list."""
    today = timezone.localdate()
    scope = selectors.scope(request.user)
    if kind == "refused":
        offered = list(scope.order_by("name").values_list("pk", "name"))
        rows = RefusedFilter.from_query(request.GET, offered).apply(
            RefusedAction.objects.filter(organization_id__in=[pk for pk, _ in offered])
        )
        return csv_response(
            f"refused-actions-{today}.csv", REFUSED_EXPORT.header, REFUSED_EXPORT.rows(rows)
        )
    if kind not in OCCASION_EXPORTS:
        raise Http404
    form = OccasionFilterForm(
        request.GET, organizations=selectors.organizations_in_scope(request.user), today=today
    )
    occasions = OccasionFilter.from_form(form).occasions(
        Occasion.objects.filter(organization__in=scope)
    )
    chosen = OCCASION_EXPORTS[kind]
    return csv_response(f"beano-{kind}-{today}.csv", chosen.header, chosen.rows(occasions))


@require_safe
@commission_view
def commission_refused_actions(request: HttpRequest) -> HttpResponse:
    """Every refused action in the Commission user's scope, filtered by organization too: the
    licensees', not those tried at the demo's practice organization."""
    organizations = list(
        licensees(visible_organizations(request.user)).order_by("name").values_list("pk", "name")
    )
    return refused_actions_page(
        request,
        RefusedAction.objects.filter(organization_id__in=[pk for pk, _ in organizations]),
        {"export_url": reverse("inspect_export", kwargs={"kind": "refused"}), "section": "refused"},
        organizations,
        nav="inspections/_compliance_nav.html",
    )

"""The reports owed across the Commission user's organizations: due, late, missing and filed,
and the filed PDFs of a date range in one ZIP, each verified first."""

from __future__ import annotations

import io
import zipfile
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.views.decorators.http import require_safe

from beano.csv_files import csv_text
from inspections.compliance_views import query_without
from organizations.access import commission_view, visible_organizations
from organizations.selectors import licensees
from reports import integrity
from reports import selectors as report_selectors
from reports.models import FinancialReport
from reports.pages import date_range, ranged

#: Reports shown on a page of the list.
REPORTS_PER_PAGE = 50


def _commission_scope(request: HttpRequest) -> Any:
    """The licensees in the Commission user's scope (a practice organization owes nothing)."""
    return licensees(visible_organizations(request.user))


@require_safe
@commission_view
def commission_reports(request: HttpRequest) -> HttpResponse:
    """Due, late and missing reports (and the filed ones) of every organization in scope, with
    filters by status, organization, town and date range."""
    scope = _commission_scope(request)
    orgs = scope
    org_id = request.GET.get("organization", "")
    if org_id.isdigit():
        orgs = orgs.filter(pk=int(org_id))
    town = request.GET.get("town", "").strip()
    if town:
        orgs = orgs.filter(town__iexact=town)
    status = request.GET.get("status", "")
    # "open" (due, late or missing) by default and when chosen in the form; "all" or "": every
    # state.
    if status != "open" and status not in report_selectors.FILTER_LABELS:
        status = "" if "status" in request.GET else "open"
    statuses = report_selectors.OPEN_STATUSES if status == "open" else ([status] if status else [])
    start, end = ranged(request)
    rows = report_selectors.obligations(orgs, start=start, end=end, statuses=statuses)
    page = Paginator(rows, REPORTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "inspections/commission_reports.html",
        {
            "rows": rows,  # every row read (up to OBLIGATIONS_LISTED); the page shows ``page``
            "page": page,
            "total": len(rows),
            "at_most": report_selectors.OBLIGATIONS_LISTED,
            "query": query_without(request, "page"),
            "organizations": scope.order_by("name"),
            "towns": sorted({o.town for o in scope}),
            "status": status,
            "labels": report_selectors.FILTER_LABELS,
            "starts": _starts(orgs),
            "filters": {
                "organization": org_id,
                "town": town,
                "from": request.GET.get("from", ""),
                "to": request.GET.get("to", ""),
            },
        },
    )


#: Organizations whose start of records the list names one by one; beyond, it says the rule.
STARTS_NAMED = 10


def _starts(orgs: Any) -> list[tuple[str, Any]]:
    """Where the records of the organizations listed begin here (``reports_from``), named when
    the list is of a few: the reports owed are counted from then (``reports.obligations``)."""
    named = list(orgs.order_by("name").values_list("name", "reports_from")[: STARTS_NAMED + 1])
    return named if len(named) <= STARTS_NAMED else []


MANIFEST_COLUMNS = (
    "organization",
    "license",
    "occasion",
    "version",
    "filed_at",
    "figures_sha256",
    "pdf_sha256",
    "verified",
)


@require_safe
@commission_view
def commission_reports_zip(request: HttpRequest) -> HttpResponse:
    """The PDF of every filed report in scope for a date range, in one ZIP; each verified first
    (its figures, its PDF file), the manifest saying so and WARNINGS.txt naming any that do not
    check."""
    scope = _commission_scope(request)
    start, end, problems = date_range(request)
    if problems:
        return HttpResponseBadRequest(" ".join(problems))
    if start is None or end is None or end < start:
        return HttpResponseBadRequest("Give the date range: from and to, e.g. 2026-11-01.")
    if (end - start).days > 366:
        return HttpResponseBadRequest("At most a year at a time.")
    reports = list(
        FinancialReport.objects.filter(
            organization__in=scope, occasion__date__gte=start, occasion__date__lte=end
        )
        .exclude(pdf="")
        .select_related("occasion", "organization")
        .order_by("organization__name", "occasion__date", "version")
    )
    problems = integrity.problems(reports)
    buffer = io.BytesIO()
    manifest: list[list[object]] = []
    warnings: list[str] = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for r in reports:
            license_number = r.figures["organization"]["license_number"]
            name = f"{license_number}/{r.occasion.date:%Y-%m-%d}-v{r.version}.pdf"
            try:
                with r.pdf.open("rb") as handle:
                    data = handle.read()
            except FileNotFoundError:
                continue
            archive.writestr(name, data)
            found = problems[r] + integrity.pdf_problems(data, r.pdf_sha256)
            if found:
                warnings.append(f"{name} ({r.organization.name}, {r}):\n  " + "\n  ".join(found))
            manifest.append(
                [
                    r.organization.name,
                    license_number,
                    r.occasion.date,
                    r.version,
                    r.filed_at.isoformat(),
                    r.figures_sha256,
                    r.pdf_sha256,
                    "NO: " + " ".join(found) if found else "yes",
                ]
            )
        if warnings:
            archive.writestr(
                "WARNINGS.txt",
                f"{len(warnings)} report(s) in this archive do not check against the audit "
                "trail: their figures or their PDF are not what was filed. Do not rely on them."
                "\n\n" + "\n\n".join(warnings) + "\n",
            )
        archive.writestr("manifest.csv", csv_text(MANIFEST_COLUMNS, manifest))
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = (
        f'attachment; filename="beano-reports-{start:%Y%m%d}-{end:%Y%m%d}.zip"'
    )
    return response

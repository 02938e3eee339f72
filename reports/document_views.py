"""The filed documents: the progress of a version's PDF (polled until it is ready), the PDFs of
the financial and annual reports, each handed out only once it checks, and a PDF made again."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from organizations.access import get_for_org, org_view
from organizations.access_matrix import CLOSES_OUT
from reports import filing_services, integrity
from reports.models import AnnualReport, FinancialReport
from reports.pages import access_of


def _status(request: HttpRequest, access: Any, report: Any, kind: str) -> HttpResponse:
    """The progress of a version's PDF (a financial or an annual report), read only: a version
    the broker missed is sent again by beat (``reports.resend_unsent``), never by this poll."""
    return render(
        request,
        "reports/_render_status.html",
        {
            "org": access.organization,
            "doc": report,
            "kind": kind,
            "can_write": access.has_role(*CLOSES_OUT),
        },
    )


@org_view()
def report_status(request: HttpRequest, report_id: int) -> HttpResponse:
    """The progress of a version's PDF, polled by the page until it is ready."""
    access = access_of(request)
    report = get_for_org(FinancialReport.objects.all(), access, pk=report_id)
    return _status(request, access, report, "financial")


#: The query that downloads a PDF although it does not check, once its warning was read.
DESPITE = "despite"


def _pdf_response(
    request: HttpRequest, document: Any, field: Any, filename: str, *, sha256: str = ""
) -> HttpResponse:
    """The PDF, once its figures check (reports.integrity) and the file is the one made
    (``sha256``, when recorded). Otherwise a page says what does not check, with a link to
    download it anyway: a PDF that does not check is never handed out silently."""
    if not field:
        raise Http404("The PDF is not made yet.")
    try:
        handle = field.open("rb")
    except FileNotFoundError:
        raise Http404("The PDF file is missing; make it again.") from None
    problems = integrity.document_problems(document) + integrity.pdf_problems(handle.read(), sha256)
    handle.seek(0)
    if problems and request.GET.get(DESPITE) != "problems":
        handle.close()
        query = request.GET.copy()
        query[DESPITE] = "problems"
        return render(
            request,
            "reports/pdf_warning.html",
            {
                "org": access_of(request).organization,
                "doc": document,
                "problems": problems,
                "anyway": f"?{query.urlencode()}",
            },
            status=409,
        )
    return FileResponse(
        handle, as_attachment=True, filename=filename, content_type="application/pdf"
    )


@org_view()
def report_pdf(request: HttpRequest, report_id: int) -> HttpResponse:
    access = access_of(request)
    report = get_for_org(FinancialReport.objects.select_related("occasion"), access, pk=report_id)
    license_number = report.figures["organization"]["license_number"]
    name = f"beano-report-{license_number}-{report.occasion.date:%Y-%m-%d}-v{report.version}.pdf"
    return _pdf_response(request, report, report.pdf, name, sha256=report.pdf_sha256)


@org_view()
@require_POST
def rerender(request: HttpRequest, report_id: int) -> HttpResponse:
    access = access_of(request)
    report = get_for_org(FinancialReport.objects.all(), access, pk=report_id)
    filing_services.rerender(document=report, by=request.user)
    messages.info(request, "The PDF is queued again.")
    return redirect("report_versions", org_id=access.organization.pk, pk=report.occasion_id)


@org_view()
def annual_status(request: HttpRequest, report_id: int) -> HttpResponse:
    access = access_of(request)
    report = get_for_org(AnnualReport.objects.all(), access, pk=report_id)
    return _status(request, access, report, "annual")


@org_view()
def annual_pdf(request: HttpRequest, report_id: int) -> HttpResponse:
    access = access_of(request)
    report = get_for_org(AnnualReport.objects.all(), access, pk=report_id)
    if request.GET.get("copy") == "authority":
        return _pdf_response(
            request,
            report,
            report.authority_pdf,
            f"beano-annual-{report.year}-v{report.version}-local-licensing-authority.pdf",
        )
    return _pdf_response(
        request,
        report,
        report.pdf,
        f"beano-annual-{report.year}-v{report.version}.pdf",
        sha256=report.pdf_sha256,
    )

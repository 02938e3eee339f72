"""Filing an occasion's report and its amendments, and the page of its filed versions. Writes
are the head of the organization's and the bookkeeper's; a refusal comes back on the close-out
page, nothing saved."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from occasions.confirm import confirmed
from occasions.floor_bar import floor_bar
from occasions.views import get_occasion
from organizations.access import org_view
from organizations.access_matrix import CLOSES_OUT
from organizations.forms import submit
from reports import filing_services, selectors
from reports.closeout_views import closeout_page
from reports.filing_summary import file_summary, withdraw_summary
from reports.forms import AmendmentForm
from reports.pages import access_of


@org_view()
@require_POST
def file_report(request: HttpRequest, pk: int) -> HttpResponse:
    """File the report (or the open amendment) once confirmed from its summary: the PDF is then
    made by the worker. An unconfirmed POST saves nothing and shows what would be filed."""
    occasion = get_occasion(access_of(request), pk)
    if not confirmed(request):
        return closeout_page(request, occasion, confirm=file_summary(occasion))

    def filed(report: Any) -> HttpResponse:
        messages.success(
            request,
            "The report is filed and the occasion sealed; the PDF is being made."
            if report.version == 1
            else f"Amendment {report.version - 1} is filed; its PDF is being made.",
        )
        return redirect("report_versions", org_id=occasion.organization_id, pk=occasion.pk)

    return submit(
        None,
        lambda _: filing_services.file_report(occasion=occasion, by=request.user),
        done=filed,
        refused=lambda error: closeout_page(
            request, occasion, file_errors=error.messages, status=400
        ),
    )


@org_view()
@require_POST
def open_amendment(request: HttpRequest, pk: int) -> HttpResponse:
    occasion = get_occasion(access_of(request), pk)
    form = AmendmentForm(request.POST)

    def opened(_: Any) -> HttpResponse:
        messages.success(
            request, "The amendment is open: correct the close-out, then file the amendment."
        )
        return redirect("report_closeout", org_id=occasion.organization_id, pk=occasion.pk)

    return submit(
        form,
        lambda values: filing_services.open_amendment(
            occasion=occasion, reason=values["reason"], by=request.user
        ),
        done=opened,
        again=lambda: closeout_page(request, occasion, amend_form=form, status=400),
    )


@org_view()
@require_POST
def withdraw_amendment(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw the open amendment once confirmed from its summary (what goes back as filed);
    an unconfirmed POST saves nothing."""
    occasion = get_occasion(access_of(request), pk)
    if not confirmed(request):
        return closeout_page(request, occasion, confirm=withdraw_summary(occasion))

    def back(message: str, level: int) -> HttpResponse:
        messages.add_message(request, level, message)
        return redirect("report_closeout", org_id=occasion.organization_id, pk=occasion.pk)

    return submit(
        None,
        lambda _: filing_services.withdraw_amendment(occasion=occasion, by=request.user),
        done=lambda _: back(
            "The amendment is withdrawn: the close-out is back as filed.", messages.SUCCESS
        ),
        refused=lambda error: back(" ".join(error.messages), messages.ERROR),
    )


@org_view()
def report_versions(request: HttpRequest, pk: int) -> HttpResponse:
    """Every filed version of the occasion's report, with what each amendment changed."""
    access = access_of(request)
    occasion = get_occasion(access, pk)
    return render(
        request,
        "reports/versions.html",
        {
            "floor": floor_bar(occasion, "close"),
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "versions": selectors.versions(occasion),
            "can_write": access.has_role(*CLOSES_OUT),
        },
    )

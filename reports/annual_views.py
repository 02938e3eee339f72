"""The annual report: the year's figures, the Lawful Purpose disbursements, and its filing.
Writes are the head of the organization's and the bookkeeper's."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from occasions.confirm import confirmed
from organizations.access import get_for_org, org_view
from organizations.access_matrix import CLOSES_OUT
from organizations.forms import submit
from reports import annual, annual_services, selectors
from reports.annual_summary import annual_summary
from reports.figures import differences, to_json
from reports.forms import DisbursementForm, VoidForm
from reports.models import LawfulPurposeDisbursement
from reports.pages import access_of


def _year(year: int) -> int:
    if not 2000 <= year <= timezone.localdate().year:
        raise Http404("No such year.")
    return year


def _annual_page(
    request: HttpRequest,
    year: int,
    *,
    form: DisbursementForm | None = None,
    file_errors: list[str] | None = None,
    confirming: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The year's page; ``confirming``: the reason posted with an unconfirmed filing, whose
    summary the page then shows from the figures it read."""
    access = access_of(request)
    org = access.organization
    figures = annual.compute_annual(org, year)
    versions = selectors.annual_versions(org, year)
    pending = differences(versions[0].figures, to_json(figures)) if versions else []
    can_write = access.has_role(*CLOSES_OUT)
    latest = versions[0] if versions else None
    confirm = None if confirming is None else annual_summary(org, year, figures, latest, confirming)
    return render(
        request,
        "reports/annual.html",
        {
            "org": org,
            "access": access,
            "tab": "reports",
            "year": year,
            "f": figures,
            "versions": versions,
            "pending": pending,
            "disbursements": LawfulPurposeDisbursement.objects.filter(
                organization=org, paid_on__year=year
            ).order_by("paid_on", "pk"),
            "form": form or DisbursementForm(year=year, organization=org),
            "can_write": can_write,
            "year_ended": timezone.localdate().year > year,
            "due_on": annual_services.annual_due_on(year),
            "file_errors": file_errors or [],
            "confirm": confirm,
        },
        status=status,
    )


@org_view()
def annual_report(request: HttpRequest, year: int) -> HttpResponse:
    return _annual_page(request, _year(year))


@org_view()
@require_POST
def add_disbursement(request: HttpRequest, year: int) -> HttpResponse:
    access = access_of(request)
    year = _year(year)
    form = DisbursementForm(request.POST, year=year, organization=access.organization)

    def recorded(_: Any) -> HttpResponse:
        messages.success(request, "The disbursement is recorded.")
        return redirect("annual_report", org_id=access.organization.pk, year=year)

    return submit(
        form,
        lambda values: annual_services.record_disbursement(
            organization=access.organization, by=request.user, **values
        ),
        done=recorded,
        again=lambda: _annual_page(request, year, form=form, status=400),
    )


@org_view()
@require_POST
def void_disbursement(request: HttpRequest, disbursement_id: int) -> HttpResponse:
    access = access_of(request)
    disbursement = get_for_org(LawfulPurposeDisbursement.objects.all(), access, pk=disbursement_id)
    form = VoidForm(request.POST)

    def back(message: str, level: int = messages.ERROR) -> HttpResponse:
        messages.add_message(request, level, message)
        year = disbursement.paid_on.year
        return redirect("annual_report", org_id=access.organization.pk, year=year)

    return submit(
        form,
        lambda data: annual_services.void_disbursement(
            disbursement=disbursement, reason=data["reason"], by=request.user
        ),
        done=lambda _: back("The disbursement is voided; it stays on record.", messages.SUCCESS),
        again=lambda: back("Say why the disbursement is voided."),
        refused=lambda error: back(" ".join(error.messages)),
    )


@org_view()
@require_POST
def file_annual(request: HttpRequest, year: int) -> HttpResponse:
    """File the year's annual report (or its amendment) once confirmed from its summary; an
    unconfirmed POST saves nothing and shows what would be filed."""
    access = access_of(request)
    year = _year(year)
    reason = request.POST.get("reason", "")
    if not confirmed(request):
        return _annual_page(request, year, confirming=reason)

    def filed(report: Any) -> HttpResponse:
        messages.success(
            request,
            f"The {year} annual report is filed (version {report.version}); "
            "its PDFs are being made.",
        )
        return redirect("annual_report", org_id=access.organization.pk, year=year)

    return submit(
        None,
        lambda _: annual_services.file_annual_report(
            organization=access.organization, year=year, reason=reason, by=request.user
        ),
        done=filed,
        refused=lambda error: _annual_page(request, year, file_errors=error.messages, status=400),
    )

"""The bookkeeper's close-out, the filed reports and their PDFs, the annual report, and the
reports owed. Reads are open to the organization's members and its inspectors; writes to the
head of the organization and the bookkeeper. A refusal comes back on its form, nothing saved."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from beano import date_filters
from occasions.models import Occasion
from occasions.views import get_occasion
from organizations.access import (
    OrgAccess,
    commission_staff,
    get_for_org,
    org_view,
    visible_organizations,
)
from organizations.forms import show_refusal
from organizations.models import Role
from organizations.selectors import licensees
from reports import annual, integrity, selectors, services
from reports.figures import variance_threshold
from reports.forms import (
    AmendmentForm,
    CloseOutForm,
    DisbursementForm,
    ExpenseForm,
    StockUsedForm,
    VoidForm,
)
from reports.models import (
    AnnualReport,
    CloseOut,
    Expense,
    FinancialReport,
    LawfulPurposeDisbursement,
)

CLOSES_OUT = (Role.HEAD, Role.BOOKKEEPER)
CLOSEOUT_STATUSES = (Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED)


def _access(request: HttpRequest) -> OrgAccess:
    return request.access  # type: ignore[attr-defined]


def _closeout_initial(closeout: CloseOut | None, figures: dict[str, Any]) -> dict[str, Any]:
    initial: dict[str, Any] = {"opening_bank": "0.00"}
    if closeout is not None:
        initial.update(
            opening_bank=closeout.opening_bank,
            cash_counted=closeout.cash_counted,
            explanation=closeout.explanation,
        )
    for c in figures["counts"]:
        initial["count_" + c["category"]] = c["counted"]
    return initial


def _closeout_page(
    request: HttpRequest,
    occasion: Occasion,
    *,
    form: CloseOutForm | None = None,
    expense_form: ExpenseForm | None = None,
    amend_form: AmendmentForm | None = None,
    stock_form: StockUsedForm | None = None,
    file_errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    access = _access(request)
    closeout = CloseOut.objects.filter(occasion=occasion).prefetch_related("counts").first()
    figures = selectors.figures_preview(occasion)
    filed = selectors.versions(occasion)
    editable = occasion.status in CLOSEOUT_STATUSES and (
        occasion.sealed_at is None or bool(closeout and closeout.amendment_open)
    )
    can_write = access.has_role(*CLOSES_OUT)
    if form is None:
        form = CloseOutForm(
            initial=_closeout_initial(closeout, figures),
            categories=figures["counts"],
            verifiers=_cash_verifiers(occasion),
        )
    if expense_form is None:
        expense_form = ExpenseForm(occasion=occasion)
    return render(
        request,
        "reports/closeout.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "closeout": closeout,
            "f": figures,
            "form": form,
            "expense_form": expense_form,
            "amend_form": amend_form or AmendmentForm(),
            "stock_form": stock_form or StockUsedForm(occasion=occasion),
            "expenses": Expense.objects.filter(occasion=occasion).select_related("kind"),
            "filed": filed,
            "editable": editable,
            "can_write": can_write and editable,
            "can_amend": can_write and occasion.sealed_at is not None,
            "file_errors": file_errors or [],
            "threshold": variance_threshold(),
            "due_on": services.due_on(occasion.date),
        },
        status=status,
    )


def _cash_verifiers(occasion: Occasion) -> Any:
    """The users of the organization who may be named as the cash count's second person (the
    rules judge them: they worked that night, confirm themselves, and are not a paid bookkeeper)."""
    from django.contrib.auth import get_user_model

    return (
        get_user_model()
        .objects.filter(org_roles__organization_id=occasion.organization_id)
        .distinct()
        .order_by("first_name", "last_name", "username")
    )


@org_view(write_roles=CLOSES_OUT)
def closeout(request: HttpRequest, pk: int) -> HttpResponse:
    """The close-out page; a POST saves the counts, the cash and the explanation."""
    occasion = get_occasion(_access(request), pk)
    if request.method != "POST":
        return _closeout_page(request, occasion)
    figures = selectors.figures_preview(occasion)
    form = CloseOutForm(
        request.POST, categories=figures["counts"], verifiers=_cash_verifiers(occasion)
    )
    if form.is_valid():
        try:
            services.save_closeout(
                occasion=occasion,
                opening_bank=form.cleaned_data["opening_bank"],
                cash_counted=form.cleaned_data.get("cash_counted"),
                counts=form.counts(),
                explanation=form.cleaned_data.get("explanation") or "",
                cash_verified_by=form.cleaned_data.get("cash_verified_by"),
                cash_verifier_secret=form.cleaned_data.get("cash_verifier_secret") or "",
                by=request.user,
            )
        except ValidationError as error:
            show_refusal(form, error)
        else:
            messages.success(request, "The close-out is saved.")
            return redirect("report_closeout", org_id=occasion.organization_id, pk=occasion.pk)
    return _closeout_page(request, occasion, form=form, status=400)


def _closeout_form_post(
    request: HttpRequest, pk: int, form_class: type, service: Any, done: str, slot: str
) -> HttpResponse:
    """One of the close-out page's forms: the service decides; a refusal comes back on the
    form, with the page, and nothing is saved."""
    occasion = get_occasion(_access(request), pk)
    form = form_class(request.POST, occasion=occasion)
    if form.is_valid():
        values = form.service_values() if hasattr(form, "service_values") else form.cleaned_data
        try:
            service(occasion=occasion, by=request.user, **values)
        except ValidationError as error:
            show_refusal(form, error)
        else:
            messages.success(request, done)
            return redirect("report_closeout", org_id=occasion.organization_id, pk=occasion.pk)
    return _closeout_page(request, occasion, status=400, **{slot: form})


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def add_expense(request: HttpRequest, pk: int) -> HttpResponse:
    return _closeout_form_post(
        request,
        pk,
        ExpenseForm,
        services.record_expense,
        "The expense is recorded.",
        "expense_form",
    )


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def record_stock(request: HttpRequest, pk: int) -> HttpResponse:
    """Cards taken out of the card inventory for the occasion."""
    return _closeout_form_post(
        request,
        pk,
        StockUsedForm,
        services.record_stock_used,
        "The cards are taken out of the inventory.",
        "stock_form",
    )


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def remove_expense(request: HttpRequest, pk: int, expense_id: int) -> HttpResponse:
    occasion = get_occasion(_access(request), pk)
    expense = get_for_org(
        Expense.objects.all(),
        _access(request),
        via="occasion__organization",
        pk=expense_id,
        occasion=occasion,
    )
    try:
        services.remove_expense(expense=expense, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "The expense is taken back.")
    return redirect("report_closeout", org_id=occasion.organization_id, pk=occasion.pk)


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def file_report(request: HttpRequest, pk: int) -> HttpResponse:
    """File the report (or the open amendment): the PDF is then made by the worker."""
    occasion = get_occasion(_access(request), pk)
    try:
        report = services.file_report(occasion=occasion, by=request.user)
    except ValidationError as error:
        return _closeout_page(request, occasion, file_errors=error.messages, status=400)
    messages.success(
        request,
        "The report is filed and the occasion sealed; the PDF is being made."
        if report.version == 1
        else f"Amendment {report.version - 1} is filed; its PDF is being made.",
    )
    return redirect("report_versions", org_id=occasion.organization_id, pk=occasion.pk)


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def open_amendment(request: HttpRequest, pk: int) -> HttpResponse:
    occasion = get_occasion(_access(request), pk)
    form = AmendmentForm(request.POST)
    if form.is_valid():
        try:
            services.open_amendment(
                occasion=occasion, reason=form.cleaned_data["reason"], by=request.user
            )
        except ValidationError as error:
            show_refusal(form, error)
        else:
            messages.success(
                request, "The amendment is open: correct the close-out, then file the amendment."
            )
            return redirect("report_closeout", org_id=occasion.organization_id, pk=occasion.pk)
    return _closeout_page(request, occasion, amend_form=form, status=400)


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def withdraw_amendment(request: HttpRequest, pk: int) -> HttpResponse:
    occasion = get_occasion(_access(request), pk)
    try:
        services.withdraw_amendment(occasion=occasion, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "The amendment is withdrawn: the close-out is back as filed.")
    return redirect("report_closeout", org_id=occasion.organization_id, pk=occasion.pk)


@org_view(write_roles=CLOSES_OUT)
def report_versions(request: HttpRequest, pk: int) -> HttpResponse:
    """Every filed version of the occasion's report, with what each amendment changed."""
    access = _access(request)
    occasion = get_occasion(access, pk)
    return render(
        request,
        "reports/versions.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "versions": selectors.versions(occasion),
            "can_write": access.has_role(*CLOSES_OUT),
        },
    )


def _resend_if_unsent(request: HttpRequest, document: Any) -> None:
    """A version queued while the broker was down has no task id: send it now (at most one try
    every few seconds while the broker stays down). Only for users who may file, so an
    inspector's look changes nothing."""
    if not _access(request).has_role(*CLOSES_OUT):
        return
    from reports.tasks import resend_if_unsent

    if resend_if_unsent(document):
        document.refresh_from_db()


@org_view(write_roles=CLOSES_OUT)
def report_status(request: HttpRequest, report_id: int) -> HttpResponse:
    """The progress of a version's PDF, polled by the page until it is ready."""
    access = _access(request)
    report = get_for_org(FinancialReport.objects.all(), access, pk=report_id)
    _resend_if_unsent(request, report)
    return render(
        request,
        "reports/_render_status.html",
        {
            "org": access.organization,
            "doc": report,
            "kind": "financial",
            "can_write": access.has_role(*CLOSES_OUT),
        },
    )


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
                "org": _access(request).organization,
                "doc": document,
                "problems": problems,
                "anyway": f"?{query.urlencode()}",
            },
            status=409,
        )
    return FileResponse(
        handle, as_attachment=True, filename=filename, content_type="application/pdf"
    )


@org_view(write_roles=CLOSES_OUT)
def report_pdf(request: HttpRequest, report_id: int) -> HttpResponse:
    access = _access(request)
    report = get_for_org(FinancialReport.objects.select_related("occasion"), access, pk=report_id)
    license_number = report.figures["organization"]["license_number"]
    name = f"beano-report-{license_number}-{report.occasion.date:%Y-%m-%d}-v{report.version}.pdf"
    return _pdf_response(request, report, report.pdf, name, sha256=report.pdf_sha256)


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def rerender(request: HttpRequest, report_id: int) -> HttpResponse:
    access = _access(request)
    report = get_for_org(FinancialReport.objects.all(), access, pk=report_id)
    services.rerender(document=report, by=request.user)
    messages.info(request, "The PDF is queued again.")
    return redirect("report_versions", org_id=access.organization.pk, pk=report.occasion_id)


# --- Reports owed -----------------------------------------------------------------------------


def _range(request: HttpRequest) -> tuple[dt.date | None, dt.date | None, list[str]]:
    """The ``from`` and ``to`` of the query string, within ``beano.date_filters``' bounds, and
    what the page says of a date it ignores."""
    today = timezone.localdate()
    start, start_problem = date_filters.parse(request.GET.get("from"), today)
    end, end_problem = date_filters.parse(request.GET.get("to"), today)
    return start, end, list(dict.fromkeys(p for p in (start_problem, end_problem) if p))


def _ranged(request: HttpRequest) -> tuple[dt.date | None, dt.date | None]:
    """A page's range; a date ignored is said in the page's messages."""
    start, end, problems = _range(request)
    for problem in problems:
        messages.warning(request, problem)
    return start, end


@org_view(write_roles=CLOSES_OUT)
def reports_home(request: HttpRequest) -> HttpResponse:
    """The reports owed by the organization: one per authorized day, with its status."""
    access = _access(request)
    org = access.organization
    status = request.GET.get("status", "")
    start, end = _ranged(request)
    rows = selectors.obligations(
        [org],
        start=start,
        end=end,
        statuses=[status] if status in selectors.STATUS_LABELS else [],
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
            "status": status,
            "labels": selectors.STATUS_LABELS,
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


# --- Annual report ----------------------------------------------------------------------------


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
    status: int = 200,
) -> HttpResponse:
    access = _access(request)
    org = access.organization
    figures = annual.compute_annual(org, year)
    versions = selectors.annual_versions(org, year)
    from reports.figures import differences, to_json

    pending = differences(versions[0].figures, to_json(figures)) if versions else []
    can_write = access.has_role(*CLOSES_OUT)
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
            "due_on": services.annual_due_on(year),
            "file_errors": file_errors or [],
        },
        status=status,
    )


@org_view(write_roles=CLOSES_OUT)
def annual_report(request: HttpRequest, year: int) -> HttpResponse:
    return _annual_page(request, _year(year))


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def add_disbursement(request: HttpRequest, year: int) -> HttpResponse:
    access = _access(request)
    year = _year(year)
    form = DisbursementForm(request.POST, year=year, organization=access.organization)
    if form.is_valid():
        try:
            services.record_disbursement(
                organization=access.organization, by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            show_refusal(form, error)
        else:
            messages.success(request, "The disbursement is recorded.")
            return redirect("annual_report", org_id=access.organization.pk, year=year)
    return _annual_page(request, year, form=form, status=400)


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def void_disbursement(request: HttpRequest, disbursement_id: int) -> HttpResponse:
    access = _access(request)
    disbursement = get_for_org(LawfulPurposeDisbursement.objects.all(), access, pk=disbursement_id)
    form = VoidForm(request.POST)
    if form.is_valid():
        try:
            services.void_disbursement(
                disbursement=disbursement, reason=form.cleaned_data["reason"], by=request.user
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, "The disbursement is voided; it stays on record.")
    else:
        messages.error(request, "Say why the disbursement is voided.")
    return redirect("annual_report", org_id=access.organization.pk, year=disbursement.paid_on.year)


@org_view(write_roles=CLOSES_OUT, form_page=True)
@require_POST
def file_annual(request: HttpRequest, year: int) -> HttpResponse:
    access = _access(request)
    year = _year(year)
    try:
        report = services.file_annual_report(
            organization=access.organization,
            year=year,
            reason=request.POST.get("reason", ""),
            by=request.user,
        )
    except ValidationError as error:
        return _annual_page(request, year, file_errors=error.messages, status=400)
    messages.success(
        request,
        f"The {year} annual report is filed (version {report.version}); its PDFs are being made.",
    )
    return redirect("annual_report", org_id=access.organization.pk, year=year)


@org_view(write_roles=CLOSES_OUT)
def annual_status(request: HttpRequest, report_id: int) -> HttpResponse:
    access = _access(request)
    report = get_for_org(AnnualReport.objects.all(), access, pk=report_id)
    _resend_if_unsent(request, report)
    return render(
        request,
        "reports/_render_status.html",
        {
            "org": access.organization,
            "doc": report,
            "kind": "annual",
            "can_write": access.has_role(*CLOSES_OUT),
        },
    )


@org_view(write_roles=CLOSES_OUT)
def annual_pdf(request: HttpRequest, report_id: int) -> HttpResponse:
    access = _access(request)
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


# --- The Commission: reports owed across the inspector's organizations -----------------------


def _commission_scope(request: HttpRequest) -> Any:
    """The licensees in the Commission user's scope (a practice organization owes nothing)."""
    if commission_staff(request.user) is None:
        raise PermissionDenied("These pages are for the Commission's staff.")
    return licensees(visible_organizations(request.user))


@require_safe
@login_required
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
    if status not in selectors.STATUS_LABELS:
        status = "" if "status" in request.GET else "open"
    statuses = selectors.OPEN_STATUSES if status == "open" else ([status] if status else [])
    start, end = _ranged(request)
    rows = selectors.obligations(orgs, start=start, end=end, statuses=statuses)
    return render(
        request,
        "reports/commission_reports.html",
        {
            "rows": rows,
            "organizations": scope.order_by("name"),
            "towns": sorted({o.town for o in scope}),
            "status": status,
            "labels": selectors.STATUS_LABELS,
            "filters": {
                "organization": org_id,
                "town": town,
                "from": request.GET.get("from", ""),
                "to": request.GET.get("to", ""),
            },
        },
    )


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
@login_required
def commission_reports_zip(request: HttpRequest) -> HttpResponse:
    """The PDF of every filed report in scope for a date range, in one ZIP; each verified first
    (its figures, its PDF file), the manifest saying so and WARNINGS.txt naming any that do not
    check."""
    scope = _commission_scope(request)
    start, end, problems = _range(request)
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
    manifest = io.StringIO()
    rows = csv.writer(manifest, lineterminator="\n")
    rows.writerow(MANIFEST_COLUMNS)
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
            rows.writerow(
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
        archive.writestr("manifest.csv", manifest.getvalue())
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = (
        f'attachment; filename="beano-reports-{start:%Y%m%d}-{end:%Y%m%d}.zip"'
    )
    return response

"""The bookkeeper's close-out page: the counts by category, the cash and its second person, the
expenses, and the cards taken from stock. Reads are open to the organization's members and its
inspectors; writes to the head of the organization and the bookkeeper. A refusal comes back on
its form, nothing saved."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from equipment import paper_selectors
from occasions.confirm import Confirmation
from occasions.floor_bar import floor_bar
from occasions.models import Occasion
from occasions.second_person import put_on_fields, users_of, who_can_confirm
from occasions.views import get_occasion
from organizations.access import get_for_org, org_view
from organizations.access_matrix import CLOSES_OUT
from organizations.forms import submit
from reports import closeout_services, obligations, selectors
from reports.figures import variance_threshold
from reports.forms import AmendmentForm, CloseOutForm, ExpenseForm, StockUsedForm
from reports.models import CloseOut, Expense
from reports.pages import access_of

CLOSEOUT_STATUSES = (Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED)


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


def closeout_page(
    request: HttpRequest,
    occasion: Occasion,
    *,
    form: CloseOutForm | None = None,
    expense_form: ExpenseForm | None = None,
    amend_form: AmendmentForm | None = None,
    stock_form: StockUsedForm | None = None,
    file_errors: list[str] | None = None,
    confirm: Confirmation | None = None,
    status: int = 200,
) -> HttpResponse:
    access = access_of(request)
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
            verifiers=users_of(occasion.organization_id),
        )
    if can_write and editable:  # who worked that night, other than the one counting
        form.offer(who_can_confirm(occasion, request.user, None))
    if expense_form is None:
        expense_form = ExpenseForm(occasion=occasion)
    paper = paper_selectors.occasion_paper(occasion, paper_selectors.door_counts(figures))
    return render(
        request,
        "reports/closeout.html",
        {
            "floor": floor_bar(occasion, "close"),
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "closeout": closeout,
            "f": figures,
            "paper": paper,
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
            "due_on": obligations.due_on(occasion.date),
            "confirm": confirm,
        },
        status=status,
    )


def _saved(request: HttpRequest, occasion: Occasion, done: str) -> HttpResponse:
    messages.success(request, done)
    return redirect("report_closeout", org_id=occasion.organization_id, pk=occasion.pk)


@org_view()
def closeout(request: HttpRequest, pk: int) -> HttpResponse:
    """The close-out page; a POST saves the counts, the cash and the explanation."""
    occasion = get_occasion(access_of(request), pk)
    if request.method != "POST":
        return closeout_page(request, occasion)
    figures = selectors.figures_preview(occasion)
    form = CloseOutForm(
        request.POST, categories=figures["counts"], verifiers=users_of(occasion.organization_id)
    )

    def save(values: dict[str, Any]) -> Any:
        return closeout_services.save_closeout(
            occasion=occasion,
            opening_bank=values["opening_bank"],
            cash_counted=values.get("cash_counted"),
            counts=form.counts(),
            explanation=values.get("explanation") or "",
            cash_verified_by=values.get("cash_verified_by"),
            cash_verifier_secret=values.get("cash_verifier_secret") or "",
            by=request.user,
        )

    return submit(
        form,
        save,
        done=lambda _: _saved(request, occasion, "The close-out is saved."),
        again=lambda: closeout_page(request, occasion, form=form, status=400),
        show=partial(put_on_fields, person="cash_verified_by", secret="cash_verifier_secret"),
    )


def _closeout_form_post(
    request: HttpRequest, pk: int, form_class: type, service: Any, done: str, slot: str
) -> HttpResponse:
    """One of the close-out page's forms: the service decides; a refusal comes back on the
    form, with the page, and nothing is saved."""
    occasion = get_occasion(access_of(request), pk)
    form = form_class(request.POST, occasion=occasion)

    def act(values: dict[str, Any]) -> Any:
        if hasattr(form, "service_values"):
            values = form.service_values()
        return service(occasion=occasion, by=request.user, **values)

    return submit(
        form,
        act,
        done=lambda _: _saved(request, occasion, done),
        again=lambda: closeout_page(request, occasion, status=400, **{slot: form}),
    )


@org_view()
@require_POST
def add_expense(request: HttpRequest, pk: int) -> HttpResponse:
    return _closeout_form_post(
        request,
        pk,
        ExpenseForm,
        closeout_services.record_expense,
        "The expense is recorded.",
        "expense_form",
    )


@org_view()
@require_POST
def record_stock(request: HttpRequest, pk: int) -> HttpResponse:
    """Cards taken out of the card inventory for the occasion."""
    return _closeout_form_post(
        request,
        pk,
        StockUsedForm,
        closeout_services.record_stock_used,
        "The cards are taken out of the inventory.",
        "stock_form",
    )


@org_view()
@require_POST
def remove_expense(request: HttpRequest, pk: int, expense_id: int) -> HttpResponse:
    occasion = get_occasion(access_of(request), pk)
    expense = get_for_org(
        Expense.objects.all(),
        access_of(request),
        via="occasion__organization",
        pk=expense_id,
        occasion=occasion,
    )

    def back(message: str, level: int) -> HttpResponse:
        messages.add_message(request, level, message)
        return redirect("report_closeout", org_id=occasion.organization_id, pk=occasion.pk)

    return submit(
        None,
        lambda _: closeout_services.remove_expense(expense=expense, by=request.user),
        done=lambda _: back("The expense is taken back.", messages.SUCCESS),
        refused=lambda error: back(" ".join(error.messages), messages.ERROR),
    )

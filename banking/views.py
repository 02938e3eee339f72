"""The drawer counted by denomination (an occasion's), and the gaming bank account's page with
its deposits, checks and transfers out, and monthly reconciliations. Reads are open to the
organization's members and its inspectors; writes to the head and the bookkeeper. A refusal
comes back on its form, with the page, and nothing is saved."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from banking import bank_selectors, bank_services, drawer_services
from banking.forms import (
    AccountForm,
    BankEntryForm,
    DepositForm,
    DrawerForm,
    ReconciliationForm,
)
from banking.models import DrawerCount
from occasions.floor_bar import floor_bar
from occasions.models import Occasion
from occasions.second_person import put_on_fields, users_of, who_can_confirm
from occasions.views import get_occasion
from organizations.access import org_view
from organizations.access_matrix import CLOSES_OUT
from organizations.forms import submit
from reports import selectors
from reports.closeout_views import CLOSEOUT_STATUSES
from reports.figures import variance_threshold
from reports.models import CloseOut
from reports.pages import access_of


def _drawer_page(
    request: HttpRequest, occasion: Occasion, form: DrawerForm | None = None, status: int = 200
) -> HttpResponse:
    access = access_of(request)
    drawer = (
        DrawerCount.objects.filter(closeout__occasion=occasion)
        .select_related("counted_by", "verified_by", "closeout")
        .first()
    )
    figures = selectors.figures_preview(occasion)
    closeout = CloseOut.objects.filter(occasion=occasion).first()
    editable = occasion.status == Occasion.Status.CLOSED and (
        occasion.sealed_at is None or bool(closeout and closeout.amendment_open)
    )
    if form is None:
        initial = {f"n_{code}": n for code, n in (drawer.pieces if drawer else {}).items()}
        form = DrawerForm(initial=initial, verifiers=users_of(occasion.organization_id))
    can_write = editable and access.has_role(*CLOSES_OUT)
    if can_write:  # who worked that night, other than the one counting
        form.offer(who_can_confirm(occasion, request.user, None))
    return render(
        request,
        "banking/drawer.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "floor": floor_bar(occasion, "close"),
            "drawer": drawer,
            "f": figures,
            "form": form,
            "threshold": variance_threshold(),
            "can_write": can_write,
            "closeout_statuses": CLOSEOUT_STATUSES,
        },
        status=status,
    )


@org_view()
def drawer(request: HttpRequest, pk: int) -> HttpResponse:
    """The drawer's count by denomination against the cash expected; a POST counts it."""
    occasion = get_occasion(access_of(request), pk)
    if request.method != "POST":
        return _drawer_page(request, occasion)
    form = DrawerForm(request.POST, verifiers=users_of(occasion.organization_id))

    def count(values: dict[str, Any]) -> Any:
        return drawer_services.count_drawer(
            occasion=occasion,
            pieces=form.pieces(),
            verified_by=values.get("verified_by"),
            verifier_secret=values.get("verifier_secret") or "",
            by=request.user,
        )

    def done(_: Any) -> HttpResponse:
        messages.success(request, "The drawer is counted and verified.")
        return redirect("report_drawer", org_id=occasion.organization_id, pk=occasion.pk)

    return submit(
        form,
        count,
        done=done,
        again=lambda: _drawer_page(request, occasion, form, status=400),
        show=partial(put_on_fields, person="verified_by", secret="verifier_secret"),
    )


def bank_page(request: HttpRequest, status: int = 200, **forms: Any) -> HttpResponse:
    access = access_of(request)
    org = access.organization
    today = timezone.localdate()
    page = bank_selectors.account_page(org.pk, today)
    account = page.account
    account_initial = (
        {
            "institution": account.bank_name,
            "account_last4": account.account_last4,
            "opened_on": account.opened_on,
            "opening_balance": account.opening_balance,
        }
        if account
        else {}
    )
    return render(
        request,
        "banking/bank.html",
        {
            "org": org,
            "access": access,
            "page": page,
            "today": today,
            "can_write": access.has_role(*CLOSES_OUT),
            "account_form": forms.get("account_form") or AccountForm(initial=account_initial),
            "deposit_form": forms.get("deposit_form") or DepositForm(organization=org),
            "entry_form": forms.get("entry_form") or BankEntryForm(organization=org),
            "reconcile_form": forms.get("reconcile_form")
            or ReconciliationForm(
                initial={
                    "month": page.unreconciled[0] if page.unreconciled else None,
                    "deposits_in_transit": "0.00",
                    "outstanding_checks": "0.00",
                }
            ),
        },
        status=status,
    )


@org_view()
def bank(request: HttpRequest) -> HttpResponse:
    return bank_page(request)


def _post(request: HttpRequest, form: Any, slot: str, act: Any, done: str) -> HttpResponse:
    org = access_of(request).organization

    def finished(_: Any) -> HttpResponse:
        messages.success(request, done)
        return redirect("bank_account", org_id=org.pk)

    return submit(
        form,
        lambda values: act(org, values),
        done=finished,
        again=lambda: bank_page(request, status=400, **{slot: form}),
    )


@org_view()
@require_POST
def save_account(request: HttpRequest) -> HttpResponse:
    return _post(
        request,
        AccountForm(request.POST),
        "account_form",
        lambda org, v: bank_services.save_account(
            organization=org,
            bank_name=v["institution"],
            account_last4=v["account_last4"],
            opened_on=v["opened_on"],
            opening_balance=v["opening_balance"],
            by=request.user,
        ),
        "The gaming account is saved.",
    )


@org_view()
@require_POST
def record_deposit(request: HttpRequest) -> HttpResponse:
    org = access_of(request).organization
    return _post(
        request,
        DepositForm(request.POST, organization=org),
        "deposit_form",
        lambda org, v: bank_services.record_deposit(by=request.user, **v),
        "The deposit is recorded.",
    )


@org_view()
@require_POST
def record_entry(request: HttpRequest) -> HttpResponse:
    org = access_of(request).organization
    return _post(
        request,
        BankEntryForm(request.POST, organization=org),
        "entry_form",
        lambda org, v: bank_services.record_bank_entry(organization=org, by=request.user, **v),
        "The check or transfer is recorded.",
    )


@org_view()
@require_POST
def reconcile(request: HttpRequest) -> HttpResponse:
    return _post(
        request,
        ReconciliationForm(request.POST),
        "reconcile_form",
        lambda org, v: bank_services.reconcile_month(organization=org, by=request.user, **v),
        "The month is reconciled.",
    )

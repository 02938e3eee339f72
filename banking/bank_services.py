"""The gaming bank account: opening its record, each occasion's deposit, the checks and
transfers out, and the monthly reconciliation. Each write is one transaction: lock, judge, save,
audit (the organization's row is locked, so two bookkeepers take turns)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils import timezone

from banking import bank_selectors
from banking.models import BankEntry, BankReconciliation, Deposit, GamingAccount
from beano import date_filters, locking, rules
from beano.actors import Actor
from beano.rules.banking import (
    RECONCILE_MONTH,
    RECORD_BANK_ENTRY,
    RECORD_DEPOSIT,
    BankEntryFacts,
    DepositFacts,
    ReconciliationFacts,
    next_business_day,
)
from beano.rules.money import CASH, DISBURSEMENT, money
from beano.text import text
from occasions.models import Occasion
from organizations.audit import acting_user, record_event, snapshot
from organizations.models import Organization
from reports.closeout_services import cash_verified
from reports.models import CloseOut, LawfulPurposeDisbursement

ACCOUNT_FIELDS = ("bank_name", "account_last4", "opened_on", "opening_balance")
DEPOSIT_FIELDS = ("amount", "deposited_on", "due_on", "slip_reference", "late_reason")
ENTRY_FIELDS = ("kind", "method", "paid_on", "payee", "amount", "reference", "memo")
RECONCILIATION_FIELDS = (
    "month",
    "statement_balance",
    "deposits_in_transit",
    "outstanding_checks",
    "book_balance",
    "difference",
    "explanation",
)


def _lock(organization: Organization) -> Organization:
    return locking.lock(Organization.objects).get(pk=organization.pk)


def _account(organization: Organization) -> GamingAccount:
    account = GamingAccount.objects.filter(organization=organization).first()
    if account is None:
        raise ValidationError("Record the organization's gaming bank account first.")
    return account


def _enforce(action: str, facts: object, organization: Organization, by: Actor) -> None:
    rules.enforce(action, [facts], on=timezone.localdate(), actor=by, organization=organization)


@rules.atomic()
def save_account(
    *,
    organization: Organization,
    bank_name: str,
    account_last4: str,
    opened_on: dt.date,
    opening_balance: Decimal,
    by: Actor,
) -> GamingAccount:
    """The gaming account's bank, the last four digits of its number (never the whole), and the
    day and balance its book starts from."""
    organization = _lock(organization)
    account = GamingAccount.objects.filter(organization=organization).first()
    old = snapshot(account, ACCOUNT_FIELDS) if account else None
    if not (isinstance(account_last4, str) and len(account_last4) == 4 and account_last4.isdigit()):
        raise ValidationError({"account_last4": "Give the last four digits of the account."})
    if not date_filters.EARLIEST <= opened_on <= timezone.localdate():
        raise ValidationError(
            {"opened_on": f"Give a day from {date_filters.EARLIEST:%Y} to today."}
        )
    if account is not None and account.reconciliations.exists() and opened_on != account.opened_on:
        raise ValidationError({"opened_on": "Months are reconciled from this day: it stays."})
    account = account or GamingAccount(organization=organization)
    account.bank_name = text(bank_name, "bank_name", limit=120)
    account.account_last4 = account_last4
    account.opened_on = opened_on
    account.opening_balance = money(opening_balance, DISBURSEMENT, "opening_balance")
    account.recorded_by = acting_user(by)
    account.recorded_at = timezone.now()
    account.save()
    record_event(
        organization=organization,
        actor=by,
        action="reports.gaming_account.saved",
        target=account,
        old=old,
        new=snapshot(account, ACCOUNT_FIELDS),
    )
    return account


@rules.atomic()
def record_deposit(
    *,
    occasion: Occasion,
    amount: Decimal,
    deposited_on: dt.date,
    slip_reference: str,
    by: Actor,
    late_reason: str = "",
) -> Deposit:
    """The occasion's receipts deposited to the gaming account: due by the business day after
    the occasion; a late one is recorded, with its reason, and shown on the exceptions report."""
    organization = _lock(occasion.organization)
    account = _account(organization)
    occasion = Occasion.objects.get(pk=occasion.pk, organization=organization)
    if Deposit.objects.filter(occasion=occasion).exists():
        raise ValidationError("This occasion's deposit is already recorded.")
    closeout = CloseOut.objects.filter(occasion=occasion).first()
    amount = money(amount, CASH, "amount", positive=True)
    slip_reference = text(slip_reference, "slip_reference", limit=60)
    late_reason = text(late_reason, "late_reason", required=False, limit=300)
    due = next_business_day(occasion.date)
    _enforce(
        RECORD_DEPOSIT,
        DepositFacts(
            occasion_closed=occasion.status == Occasion.Status.CLOSED,
            cash_counted_and_verified=bool(
                closeout and closeout.cash_counted is not None and cash_verified(closeout)
            ),
            occasion_date=occasion.date,
            deposited_on=deposited_on,
            today=timezone.localdate(),
        ),
        organization,
        by,
    )
    if deposited_on > due and not late_reason:
        raise ValidationError(
            {"late_reason": f"The deposit was due by {due:%a %b %-d, %Y}: say why it is late."}
        )
    deposit = Deposit.objects.create(
        account=account,
        occasion=occasion,
        amount=amount,
        deposited_on=deposited_on,
        due_on=due,
        slip_reference=slip_reference,
        late_reason=late_reason,
        recorded_by=acting_user(by),
        recorded_at=timezone.now(),
    )
    record_event(
        organization=organization,
        actor=by,
        action="reports.deposit.recorded",
        target=deposit,
        new=snapshot(deposit, DEPOSIT_FIELDS) | {"occasion": str(occasion.date)},
    )
    return deposit


@rules.atomic()
def record_bank_entry(
    *,
    organization: Organization,
    kind: str,
    method: str,
    paid_on: dt.date,
    payee: str,
    amount: Decimal,
    reference: str,
    by: Actor,
    occasion: Occasion | None = None,
    disbursement: LawfulPurposeDisbursement | None = None,
    memo: str = "",
) -> BankEntry:
    """A check or transfer out of the gaming account: a prize paid by check or an expense (each
    of an occasion), a Lawful Purpose disbursement (the one on record), or a bank charge."""
    organization = _lock(organization)
    account = _account(organization)
    if kind not in BankEntry.Kind.values:
        raise ValidationError({"kind": "Choose what the money paid for."})
    if method not in BankEntry.Method.values:
        raise ValidationError({"method": "Choose a check or a transfer."})
    if occasion is not None and occasion.organization_id != organization.pk:
        raise ValidationError({"occasion": "That occasion is another organization's."})
    if disbursement is not None and disbursement.organization_id != organization.pk:
        raise ValidationError({"disbursement": "That disbursement is another organization's."})
    if disbursement is not None and disbursement.voided_at is not None:
        raise ValidationError({"disbursement": "That disbursement was voided."})
    if paid_on < account.opened_on:
        raise ValidationError(
            {"paid_on": f"The account's book starts on {account.opened_on:%b %-d, %Y}."}
        )
    amount = money(amount, DISBURSEMENT, "amount", positive=True)
    reference = text(reference, "reference", limit=60)
    if BankEntry.objects.filter(account=account, method=method, reference=reference).exists():
        raise ValidationError({"reference": f"{reference} is already recorded."})
    if disbursement is not None and BankEntry.objects.filter(disbursement=disbursement).exists():
        raise ValidationError({"disbursement": "That disbursement's payment is recorded."})
    _enforce(
        RECORD_BANK_ENTRY,
        BankEntryFacts(
            kind=kind,
            names_occasion=occasion is not None,
            names_disbursement=disbursement is not None,
            disbursement_amount=disbursement.amount if disbursement else None,
            amount=amount,
            paid_on=paid_on,
            today=timezone.localdate(),
        ),
        organization,
        by,
    )
    entry = BankEntry.objects.create(
        account=account,
        kind=kind,
        method=method,
        paid_on=paid_on,
        payee=text(payee, "payee", limit=200),
        amount=amount,
        reference=reference,
        occasion=occasion if kind in ("prize", "expense") else None,
        disbursement=disbursement if kind == "lawful_purpose" else None,
        memo=text(memo, "memo", required=False, limit=300),
        recorded_by=acting_user(by),
        recorded_at=timezone.now(),
    )
    record_event(
        organization=organization,
        actor=by,
        action="reports.bank_entry.recorded",
        target=entry,
        new=snapshot(entry, ENTRY_FIELDS),
    )
    return entry


@rules.atomic()
def reconcile_month(
    *,
    organization: Organization,
    month: dt.date,
    statement_balance: Decimal,
    deposits_in_transit: Decimal,
    outstanding_checks: Decimal,
    explanation: str,
    by: Actor,
) -> BankReconciliation:
    """The month's bank statement reconciled with the account's book: statement balance +
    deposits in transit − outstanding checks against the book balance at the month's end; a
    difference is explained. Done again, it replaces the month's reconciliation (audited)."""
    organization = _lock(organization)
    account = _account(organization)
    month = month.replace(day=1)
    if month < account.opened_on.replace(day=1):
        raise ValidationError({"month": "The account's book starts after that month."})
    statement = money(statement_balance, DISBURSEMENT, "statement_balance")
    in_transit = money(deposits_in_transit, DISBURSEMENT, "deposits_in_transit")
    outstanding = money(outstanding_checks, DISBURSEMENT, "outstanding_checks")
    explanation = text(explanation, "explanation", required=False, limit=2000)
    month_end = bank_selectors.month_end(month)
    book = bank_selectors.book_balance(account, month_end)
    difference = statement + in_transit - outstanding - book
    _enforce(
        RECONCILE_MONTH,
        ReconciliationFacts(
            month_end=month_end,
            today=timezone.localdate(),
            difference=difference,
            explanation=explanation,
        ),
        organization,
        by,
    )
    existing = BankReconciliation.objects.filter(account=account, month=month).first()
    old = snapshot(existing, RECONCILIATION_FIELDS) if existing else None
    reconciliation = existing or BankReconciliation(account=account, month=month)
    reconciliation.statement_balance = statement
    reconciliation.deposits_in_transit = in_transit
    reconciliation.outstanding_checks = outstanding
    reconciliation.book_balance = book
    reconciliation.difference = difference
    reconciliation.explanation = explanation
    reconciliation.completed_by = acting_user(by)
    reconciliation.completed_at = timezone.now()
    reconciliation.save()
    record_event(
        organization=organization,
        actor=by,
        action="reports.reconciliation.completed",
        target=reconciliation,
        old=old,
        new=snapshot(reconciliation, RECONCILIATION_FIELDS),
    )
    return reconciliation

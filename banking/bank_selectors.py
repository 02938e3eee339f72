"""Reads of the gaming bank account: the book balance at a day, the months owed a
reconciliation, and the account's page. Always given the organization (or its account), in a
fixed number of queries."""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Sum

from banking.models import BankEntry, BankReconciliation, Deposit, GamingAccount

ZERO = Decimal("0.00")


def month_end(month: dt.date) -> dt.date:
    return month.replace(day=calendar.monthrange(month.year, month.month)[1])


def months_between(start: dt.date, end: dt.date) -> list[dt.date]:
    """The first day of every month from ``start``'s to ``end``'s, both included."""
    months: list[dt.date] = []
    month = start.replace(day=1)
    while month <= end:
        months.append(month)
        month = (month + dt.timedelta(days=32)).replace(day=1)
    return months


def book_balance(account: GamingAccount, on: dt.date) -> Decimal:
    """The account's book at the end of ``on``: its opening balance, plus the deposits, less the
    checks and transfers out, dated from its opening through that day."""
    deposits = Deposit.objects.filter(
        account=account, deposited_on__gte=account.opened_on, deposited_on__lte=on
    ).aggregate(s=Sum("amount"))["s"]
    out = BankEntry.objects.filter(
        account=account, paid_on__gte=account.opened_on, paid_on__lte=on
    ).aggregate(s=Sum("amount"))["s"]
    return account.opening_balance + (deposits or ZERO) - (out or ZERO)


def last_ended_month(today: dt.date) -> dt.date:
    """The first day of the last month that has ended."""
    return (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)


def unreconciled_months(
    account: GamingAccount, reconciled: set[dt.date], today: dt.date
) -> list[dt.date]:
    """The months since the account's opening that have ended and are not reconciled."""
    last = last_ended_month(today)
    return [m for m in months_between(account.opened_on, last) if m not in reconciled]


@dataclass(frozen=True)
class AccountPage:
    account: GamingAccount | None
    deposits: list[Deposit]
    entries: list[BankEntry]
    reconciliations: list[BankReconciliation]
    unreconciled: list[dt.date]
    balance: Decimal | None


def account_page(organization_id: int, today: dt.date) -> AccountPage:
    """Everything the account's page shows, in five queries whatever its size."""
    account = GamingAccount.objects.filter(organization_id=organization_id).first()
    if account is None:
        return AccountPage(None, [], [], [], [], None)
    deposits = list(
        Deposit.objects.filter(account=account)
        .select_related("occasion")
        .order_by("-deposited_on", "-pk")
    )
    entries = list(
        BankEntry.objects.filter(account=account)
        .select_related("occasion", "disbursement")
        .order_by("-paid_on", "-pk")
    )
    reconciliations = list(
        BankReconciliation.objects.filter(account=account)
        .select_related("completed_by")
        .order_by("-month")
    )
    balance = (
        account.opening_balance
        + sum((d.amount for d in deposits if d.deposited_on >= account.opened_on), ZERO)
        - sum((e.amount for e in entries if e.paid_on >= account.opened_on), ZERO)
    )
    return AccountPage(
        account,
        deposits,
        entries,
        reconciliations,
        unreconciled_months(account, {r.month for r in reconciliations}, today),
        balance,
    )

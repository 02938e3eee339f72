"""The cash's demo data at Post 171: its last night's drawer counted by denomination (by the
bookkeeper, verified by the member in charge), the gaming bank account opened three months
back, the deposit of each night whose cash was counted (the night entered from paper has no
cash count, so its deposit shows as missing on the exceptions report), a check for the
flashboard's rent and one for each Lawful Purpose since, every ended month reconciled but the
last (which the exceptions report shows too). Idempotent; the days are relative to
``today`` like the rest of the demo."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib.auth import get_user_model

from banking import bank_selectors, bank_services
from banking.drawer_services import count_drawer
from banking.models import DENOMINATIONS, BankEntry, BankReconciliation, Deposit
from beano.demo import DEMO_PASSWORD
from beano.rules.banking import next_business_day
from occasions.models import Occasion
from organizations.models import Organization
from reports.closeout_services import cash_verified
from reports.models import CloseOut, Expense, LawfulPurposeDisbursement

POST = "American Legion Post 171"
#: The small bills and coins a hall's drawer holds many of, before the rest in larger bills.
SMALL_FIRST = (("1", 60), ("5", 40), ("10", 30), ("0.25", 40))


def pieces_for(amount: Decimal) -> dict[str, int]:
    """A drawer of ``amount``: many small bills, the rest in the largest pieces that fit."""
    pieces: dict[str, int] = {}
    rest = amount
    for code, most in SMALL_FIRST:
        n = min(most, int(rest // Decimal(code)))
        if n:
            pieces[code] = n
            rest -= Decimal(code) * n
    for code, _label, value in DENOMINATIONS:
        n = int(rest // value)
        if n:
            pieces[code] = pieces.get(code, 0) + n
            rest -= value * n
    return pieces


def count_the_drawer(occasion: Occasion, books: object) -> None:
    """The drawer of the cash counted at the close-out, piece by piece, verified again by the
    member in charge typing her own password."""
    closeout = CloseOut.objects.filter(occasion=occasion).first()
    if closeout is None or closeout.cash_counted is None or hasattr(closeout, "drawer"):
        return
    count_drawer(
        occasion=occasion,
        pieces=pieces_for(closeout.cash_counted),
        verified_by=get_user_model().objects.get(username="post171-mic"),
        verifier_secret=DEMO_PASSWORD,
        by=books,
    )


def seed(today: dt.date) -> None:
    post = Organization.objects.filter(name=POST).first()
    books = get_user_model().objects.filter(username="post171-books").first()
    if post is None or books is None:
        return
    opened = (today.replace(day=1) - dt.timedelta(days=80)).replace(day=1)
    account = getattr(post, "gaming_account", None) or bank_services.save_account(
        organization=post,
        bank_name="Fairhaven Co-operative Bank",
        account_last4="7301",
        opened_on=opened,
        opening_balance=Decimal("4250.00"),
        by=books,
    )
    closed = Occasion.objects.filter(
        organization=post, status=Occasion.Status.CLOSED, date__gte=account.opened_on
    ).order_by("date")
    for occasion in closed:
        _deposit(occasion, today, books)
    _checks(post, account.opened_on, today, books)
    last = bank_selectors.last_ended_month(today)
    for month in bank_selectors.months_between(account.opened_on, last)[:-1]:
        if not BankReconciliation.objects.filter(account=account, month=month).exists():
            book = bank_selectors.book_balance(account, bank_selectors.month_end(month))
            bank_services.reconcile_month(
                organization=post,
                month=month,
                statement_balance=book,
                deposits_in_transit=Decimal("0"),
                outstanding_checks=Decimal("0"),
                explanation="",
                by=books,
            )


def _deposit(occasion: Occasion, today: dt.date, books: object) -> None:
    """The night's cash less the opening bank kept for the next night, on the next business
    day (or today, if that is still to come)."""
    closeout = CloseOut.objects.filter(occasion=occasion).first()
    if (
        Deposit.objects.filter(occasion=occasion).exists()
        or closeout is None
        or closeout.cash_counted is None
        or not cash_verified(closeout)
        or closeout.cash_counted <= closeout.opening_bank
    ):
        return
    bank_services.record_deposit(
        occasion=occasion,
        amount=closeout.cash_counted - closeout.opening_bank,
        deposited_on=min(next_business_day(occasion.date), today),
        slip_reference=f"DS-{occasion.date:%m%d}",
        by=books,
    )


def _checks(post: Organization, opened: dt.date, today: dt.date, books: object) -> None:
    """The flashboard's rent paid by check the day after its night, and the Lawful Purpose
    disbursements since the account opened paid by check."""
    for expense in Expense.objects.filter(
        occasion__organization=post, kind__code="equipment_rent", occasion__date__gte=opened
    ).select_related("occasion"):
        reference = f"R{expense.occasion.date:%m%d}"
        paid_on = min(expense.occasion.date + dt.timedelta(days=1), today)
        if not BankEntry.objects.filter(account__organization=post, reference=reference).exists():
            bank_services.record_bank_entry(
                organization=post,
                kind="expense",
                method="check",
                paid_on=paid_on,
                payee=expense.payee,
                amount=expense.amount,
                reference=reference,
                occasion=expense.occasion,
                memo=expense.description,
                by=books,
            )
    for d in LawfulPurposeDisbursement.objects.filter(
        organization=post, paid_on__gte=opened, voided_at__isnull=True, bank_entry__isnull=True
    ):
        bank_services.record_bank_entry(
            organization=post,
            kind="lawful_purpose",
            method="check",
            paid_on=d.paid_on,
            payee=d.payee,
            amount=d.amount,
            reference=d.reference or f"LP{d.pk}",
            disbursement=d,
            by=books,
        )

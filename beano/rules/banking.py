"""The gaming bank account: each occasion's deposit, the checks and transfers out, and the
monthly reconciliation.

961 CMR 3.04(1)(e) puts the head of the organization (or a designee) "in full charge of and
primarily responsible for the lawful use and disposition of all Gross Receipts"; 3.05(1)(c)
asks for an accounting of every dollar spent for a Lawful Purpose. Neither names a bank account,
a deposit deadline or a reconciliation: those are the controls regulators of bingo elsewhere
require, kept here so that the disposition of the gross receipts can be shown. So these rules
refuse only what would make the account's record say something untrue about the receipts (a
deposit of cash never counted, money out that names no purpose, a month closed with an
unexplained difference); a late deposit is a warning on the exceptions report, never a refusal.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from beano.rules.base import rule
from beano.rules.limits import Limits
from beano.rules.money import usd

RECORD_DEPOSIT = "bank.record_deposit"
RECORD_BANK_ENTRY = "bank.record_entry"
RECONCILE_MONTH = "bank.reconcile_month"

MIN_EXPLANATION = 10


def next_business_day(day: dt.date) -> dt.date:
    """The business day after ``day`` (Monday to Friday; bank holidays are not known here)."""
    following = day + dt.timedelta(days=1)
    while following.weekday() >= 5:
        following += dt.timedelta(days=1)
    return following


@dataclass(frozen=True)
class DepositFacts:
    """An occasion's deposit to the gaming account, as it is about to be recorded."""

    occasion_closed: bool
    cash_counted_and_verified: bool
    occasion_date: dt.date
    deposited_on: dt.date
    today: dt.date


@rule(
    code="B-1E-DEPOSIT-OF-COUNTED-CASH",
    citation="961 CMR 3.04(1)(e)",
    title="An occasion's deposit carries cash counted and verified after its close",
    guards=(RECORD_DEPOSIT,),
)
def deposit_of_counted_cash(f: DepositFacts, limits: Limits) -> Iterator[str]:
    """The head (or designee) is in full charge of the lawful disposition of the gross
    receipts: the receipts go to the gaming account after the occasion is closed and its cash
    counted by one person and verified by a second, and the deposit is dated between the
    occasion and today."""
    if not f.occasion_closed:
        yield "The deposit follows the close: close the occasion first."
    elif not f.cash_counted_and_verified:
        yield (
            "Count the cash of the occasion, verified by a second person, before recording "
            "its deposit."
        )
    if f.deposited_on < f.occasion_date:
        yield "The deposit cannot be dated before the occasion."
    if f.deposited_on > f.today:
        yield "The deposit cannot be dated after today."


@dataclass(frozen=True)
class BankEntryFacts:
    """A check or transfer out of the gaming account."""

    kind: str  # "prize", "expense", "lawful_purpose", "bank_charge"
    names_occasion: bool
    names_disbursement: bool
    disbursement_amount: Decimal | None
    amount: Decimal
    paid_on: dt.date
    today: dt.date


@rule(
    code="B-1E-OUT-FOR-A-PURPOSE",
    citation="961 CMR 3.04(1)(e)",
    title="Money out of the gaming account names what it paid for",
    guards=(RECORD_BANK_ENTRY,),
)
def out_for_a_purpose(f: BankEntryFacts, limits: Limits) -> Iterator[str]:
    """The gross receipts are used lawfully: a prize paid by check, or an expense, names the
    occasion it belongs to; a check or transfer out is dated no later than today."""
    if f.kind in ("prize", "expense") and not f.names_occasion:
        yield "A prize or an expense paid from the gaming account names its occasion."
    if f.paid_on > f.today:
        yield "A check or transfer cannot be dated after today."


@rule(
    code="B-305-1C-LAWFUL-PURPOSE-RECORDED",
    citation="961 CMR 3.05(1)(c)",
    title="A Lawful Purpose paid from the gaming account is the disbursement on record",
    guards=(RECORD_BANK_ENTRY,),
)
def lawful_purpose_recorded(f: BankEntryFacts, limits: Limits) -> Iterator[str]:
    """All money spent for Lawful Purposes is accounted for in the annual report: a Lawful
    Purpose check or transfer names the disbursement recorded for it, for the same amount."""
    if f.kind != "lawful_purpose":
        return
    if not f.names_disbursement:
        yield "Name the Lawful Purpose disbursement this check or transfer pays."
    elif f.disbursement_amount is not None and f.disbursement_amount != f.amount:
        yield (
            f"The disbursement on record is {usd(f.disbursement_amount)}: the check or "
            "transfer pays the same amount."
        )


@dataclass(frozen=True)
class ReconciliationFacts:
    """A month of the gaming account reconciled against the bank's statement."""

    month_end: dt.date
    today: dt.date
    difference: Decimal
    explanation: str


@rule(
    code="B-1E-MONTH-RECONCILED",
    citation="961 CMR 3.04(1)(e)",
    title="A month is reconciled after it ends, its difference zero or explained",
    guards=(RECONCILE_MONTH,),
)
def month_reconciled(f: ReconciliationFacts, limits: Limits) -> Iterator[str]:
    """The disposition of the gross receipts is shown: the bank's statement balance, plus the
    deposits in transit, less the checks outstanding, equals the account's book balance at the
    month's end; a difference is explained (at least a sentence)."""
    if f.month_end >= f.today:
        yield "A month is reconciled once it has ended."
    if f.difference and len(f.explanation.strip()) < MIN_EXPLANATION:
        yield (
            f"The statement and the book differ by {usd(f.difference)}: explain the "
            "difference (at least a sentence)."
        )


# --- The drawer counted by denomination, at filing ----------------------------------------


@dataclass(frozen=True)
class DrawerFilingFacts:
    """The drawer's count by denomination against the close-out's cash counted, at filing."""

    drawer_counted: bool
    drawer_total: Decimal | None
    cash_counted: Decimal | None


@rule(
    code="R-1E-DRAWER-AGREES",
    citation="961 CMR 3.04(1)(e)",
    title="The cash reported is the drawer counted by denomination and verified",
    guards=("report.file",),
)
def drawer_agrees(f: DrawerFilingFacts, limits: Limits) -> Iterator[str]:
    """Where the drawer was counted by denomination (by one person, verified by a second), the
    report's cash counted is that count: a cash figure changed afterwards is counted again."""
    if f.drawer_counted and f.drawer_total != f.cash_counted:
        yield (
            f"The drawer counted by denomination holds {usd(f.drawer_total)} but the close-out "
            "says otherwise: count the drawer again, with its second person."
        )

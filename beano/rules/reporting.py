"""961 CMR 3.05(1): the reports owed for authorized days, and the notice before play resumes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from beano.rules.base import rule
from beano.rules.confirmations import not_confirmed, paused_words
from beano.rules.hours import MOMENT
from beano.rules.limits import Limits
from beano.rules.money import usd

OPEN = "occasion.open"


@dataclass(frozen=True)
class ResumptionFacts:
    """The two authorized days before this one, whether each was played, and the latest written
    notice of resumption sent to the Commission (if any)."""

    previous_two_not_played: bool
    last_not_played_on: dt.date | None
    notice_sent_on: dt.date | None


@rule(
    code="R-305-1B-RESUMPTION-NOTICE",
    citation="961 CMR 3.05(1)(b)",
    title="After two occasions in a row not played, the Commission is told before play resumes",
    guards=(OPEN,),
)
def notice_before_resuming(f: ResumptionFacts, limits: Limits) -> Iterator[str]:
    """An organization that does not conduct Beano for two consecutive occasions notifies the
    Commission in writing before it resumes."""
    if not f.previous_two_not_played:
        return
    if f.notice_sent_on is None or (
        f.last_not_played_on is not None and f.notice_sent_on < f.last_not_played_on
    ):
        yield (
            "The last two occasions were not played; record the written notice to the "
            "Commission before play resumes."
        )


# --- The close-out's expenses ------------------------------------------------------------

RECORD_EXPENSE = "report.record_expense"
FILE_REPORT = "report.file"
FILE_ANNUAL_REPORT = "report.file_annual"

MIN_REASON = 10
COMPENSABLE = frozenset({"bookkeeper", "accountant"})


@dataclass(frozen=True)
class ExpenseFacts:
    """An expense as the bookkeeper enters it. ``payee_roles`` are the roles the payee holds on
    the organization's worker list that day (empty when the payee is not on it)."""

    source: str  # ExpenseKind.Source: entered, equipment_lease, compensation, police
    payee: str
    amount: Decimal
    payee_roles: tuple[str, ...] = ()
    payee_compensated: bool = False
    equipment_leased: bool | None = None
    lease_approved: bool | None = None
    lease_fee: Decimal | None = None
    #: Listed workers the payee's name may be, written another way, and the reason given that
    #: the payee is someone else, if one was.
    payee_near: tuple[str, ...] = ()
    other_person_reason: str = ""


@rule(
    code="X-1F-NO-WORKER-PAY",
    citation="961 CMR 3.04(1)(f)",
    title="No expense pays a worker, except a compensated bookkeeper or accountant",
    guards=(RECORD_EXPENSE,),
)
def expense_pays_no_worker(f: ExpenseFacts, limits: Limits) -> Iterator[str]:
    """No commission, salary, compensation or gift to anyone conducting or assisting in Beano;
    only a bookkeeper or accountant may be paid (3.04(1)(g)), and a police officer, who is not a
    worker (3.04(3)(e))."""
    if f.source == "compensation":
        if not COMPENSABLE.intersection(f.payee_roles):
            yield (
                f"{f.payee} is not a bookkeeper or accountant on the worker list: only they may "
                "be compensated."
            )
        elif not f.payee_compensated:
            yield (
                f"{f.payee} is on the worker list as unpaid: mark the entry compensated before "
                "paying them."
            )
    elif f.payee_roles:
        yield f"{f.payee} is on the worker list and cannot be paid for helping at Beano."


@rule(
    code="X-1F-NAME-RESOLVED",
    citation="961 CMR 3.04(1)(f)",
    title="A payee whose name is close to a listed worker's is confirmed as someone else",
    guards=(RECORD_EXPENSE,),
)
def close_payee_names_are_resolved(f: ExpenseFacts, limits: Limits) -> Iterator[str]:
    """Workers are matched as people, not as strings ("Gallagher, Mary" is Mary Gallagher): a
    payee whose name may be a listed worker's written another way is paid only once someone
    confirms, with a reason that is kept, that the payee is another person."""
    if f.payee_near and not f.other_person_reason.strip():
        names = " or ".join(f.payee_near)
        yield (
            f"{f.payee} may be {names}, of the worker list: confirm the payee is someone else "
            "and say why, or do not pay a worker."
        )


@rule(
    code="X-4A-LEASE-RENT",
    citation="961 CMR 3.04(4)(a)",
    title="Equipment rent is paid only under an approved lease, at its sum certain",
    guards=(RECORD_EXPENSE,),
)
def rent_under_approved_lease(f: ExpenseFacts, limits: Limits) -> Iterator[str]:
    """Equipment a lessor provides is used only under a written lease the Director approved; the
    rental fee is a sum certain approved by the Commission, never a 'service charge'."""
    if f.source != "equipment_lease":
        return
    if not f.equipment_leased:
        yield "Rent is paid only for leased equipment: name the leased item."
        return
    if not f.lease_approved:
        yield "The lease of this equipment has no approval of the Director valid on that day."
    elif f.lease_fee is None:
        yield "The approved lease states no rental fee: its fee must be a sum certain."
    elif f.amount != f.lease_fee:
        yield f"The approved lease's rental fee is {usd(f.lease_fee)}, not {usd(f.amount)}."


# --- The cash count -------------------------------------------------------------------------

COUNT_CASH = "report.count_cash"


@dataclass(frozen=True)
class CashCountFacts:
    """The cash counted after the close: one person counts, a second verifies. Live, the
    verifier is a user of the organization who confirms with their own password or PIN; from
    paper, the worker of the night whose signature is on the sheet."""

    has_verifier: bool
    verifier_in_organization: bool = True
    verifier_is_counter: bool = False
    verifier_confirmed: bool = True
    #: Too many wrong tries, and until when (the hall's time).
    verifier_paused_until: dt.datetime | None = None
    verifier_worked_that_night: bool = True


@rule(
    code="R-1E-CASH-COUNTED-BY-TWO",
    citation="961 CMR 3.04(1)(e)",
    title="The cash is counted by one person and verified by a second, each for themselves",
    guards=(COUNT_CASH,),
)
def cash_counted_by_two(f: CashCountFacts, limits: Limits) -> Iterator[str]:
    """The head of the organization or a designee is in full charge of the gross receipts: the
    cash of the night is counted by one person and verified by a second person who worked that
    night and confirms it themselves (a name picked from a list is not a second person), not
    the one who counted. A compensated bookkeeper or accountant verifies nothing:
    W-1G-NOT-A-SECOND-PERSON refuses them, citing (1)(g)."""
    if not f.has_verifier:
        yield "A second person verifies the cash counted: name them, and they confirm."
        return
    if not f.verifier_in_organization:
        yield "The verifier of the cash must be a person of this organization."
    if f.verifier_is_counter:
        yield "The person who counted the cash cannot also verify the count."
    if f.verifier_paused_until is not None:
        yield paused_words("verifier", f.verifier_paused_until)
    elif not f.verifier_confirmed:
        yield not_confirmed("verifier", " the count")
    if not f.verifier_worked_that_night:
        yield "The verifier of the cash did not work at this occasion."


# --- Filing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FilingFacts:
    """An occasion's report as it is about to be filed."""

    status: str  # the occasion's status
    played: bool
    missing_counts: tuple[str, ...]
    cash_counted: bool
    variance_above_threshold: bool
    explanation_given: bool
    amendment: bool
    reason: str


@rule(
    code="R-305-1A-CLOSED",
    citation="961 CMR 3.05(1)(a)",
    title="A report is filed for an occasion that is closed, or recorded as not played",
    guards=(FILE_REPORT,),
)
def report_after_close(f: FilingFacts, limits: Limits) -> Iterator[str]:
    """The report covers the whole occasion: it is filed once the occasion is closed, or for an
    authorized day recorded as 'no Beano played'."""
    if f.status not in ("closed", "not_played"):
        yield (
            "The occasion is not closed: close it, or record that Beano was not played, "
            "before filing its report."
        )


@rule(
    code="R-305-1A-COMPLETE",
    citation="961 CMR 3.05(1)(a)",
    title="A report is complete: counts, cash counted, and differences explained",
    guards=(FILE_REPORT,),
)
def report_is_complete(f: FilingFacts, limits: Limits) -> Iterator[str]:
    """The report is complete: every category sold is counted, the cash is counted, and a
    difference above the threshold between the records and the counts is explained."""
    if not f.played:
        return
    if f.missing_counts:
        yield "Enter the count of " + ", ".join(f.missing_counts) + "."
    if not f.cash_counted:
        yield "Enter the cash counted after the close."
    if f.variance_above_threshold and not f.explanation_given:
        yield "The counts or the cash differ from the records: explain the difference."


@rule(
    code="R-305-1A-AMENDMENT-REASON",
    citation="961 CMR 3.05(1)(a)",
    title="A filed report is corrected only by an amendment that says why",
    guards=(FILE_REPORT,),
)
def amendment_has_reason(f: FilingFacts, limits: Limits) -> Iterator[str]:
    """A filed report is never edited: a correction is a new version with its reason, and every
    earlier version is kept."""
    if f.amendment and len(f.reason.strip()) < MIN_REASON:
        yield "Say why the filed report is corrected (at least a sentence)."


@dataclass(frozen=True)
class AnnualFilingFacts:
    year: int
    today: dt.date
    amendment: bool
    reason: str


@rule(
    code="R-305-1C-YEAR-ENDED",
    citation="961 CMR 3.05(1)(c)",
    title="The annual report covers a calendar year that has ended",
    guards=(FILE_ANNUAL_REPORT,),
)
def annual_after_year_end(f: AnnualFilingFacts, limits: Limits) -> Iterator[str]:
    """The annual report lists all money spent for Lawful Purposes in the calendar year; it is
    filed after the year ends, before January 31."""
    if f.today.year <= f.year:
        yield f"The year {f.year} has not ended: its annual report is filed from January 1."


@rule(
    code="R-305-1C-AMENDMENT-REASON",
    citation="961 CMR 3.05(1)(c)",
    title="A filed annual report is corrected only by an amendment that says why",
    guards=(FILE_ANNUAL_REPORT,),
)
def annual_amendment_has_reason(f: AnnualFilingFacts, limits: Limits) -> Iterator[str]:
    """The annual report is a public record: a correction is a new version with its reason."""
    if f.amendment and len(f.reason.strip()) < MIN_REASON:
        yield "Say why the filed annual report is corrected (at least a sentence)."


@dataclass(frozen=True)
class PaperPeriodFacts:
    """An act entered after the fact: the moment written on the sheet, and the part of the
    night its paper record covers (both None for the whole night)."""

    at: dt.datetime
    from_paper: bool
    starts_at: dt.datetime | None = None
    ends_at: dt.datetime | None = None


@rule(
    code="R-305-1A-PAPER-PERIOD",
    citation="961 CMR 3.05(1)(a)",
    title="An act entered from paper falls within the part of the night its sheets cover",
    guards=(MOMENT,),
)
def within_the_paper_period(f: PaperPeriodFacts, limits: Limits) -> Iterator[str]:
    """The report is made from the night's control sheets, kept for inspection: what is entered
    after the fact is entered from them, so an act falls within the part of the night the sheets
    being entered cover (the whole night, or from one time to another)."""
    if not f.from_paper or f.starts_at is None or f.ends_at is None:
        return
    if not f.starts_at <= f.at <= f.ends_at:
        yield (
            f"{f.at:%-I:%M %p} is outside the part of the night being entered from paper "
            f"({f.starts_at:%-I:%M %p} to {f.ends_at:%-I:%M %p})."
        )

"""Writes of the close-out and the reports. Each is one transaction: lock, judge, save, audit,
and enqueue the PDF on commit. Filing seals the occasion; a correction is an amendment."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from beano import rules
from beano.rules import names
from beano.rules.limits import LimitName
from beano.rules.models import LawLimit
from beano.rules.money import CASH, DISBURSEMENT, EXPENSE, money, optional_money
from beano.rules.reporting import (
    COUNT_CASH,
    FILE_ANNUAL_REPORT,
    FILE_REPORT,
    RECORD_EXPENSE,
    AnnualFilingFacts,
    CashCountFacts,
    ExpenseFacts,
    FilingFacts,
)
from beano.rules.workers import BookkeeperPresenceFacts
from occasions.extras_services import text
from occasions.floor_selectors import list_entries
from occasions.models import Occasion, WorkerPresence
from occasions.services import enforce_at
from organizations.audit import acting_user, record_event, snapshot
from organizations.equipment_services import record_card_usage
from organizations.models import (
    AuditChain,
    CardPurchase,
    CardUsage,
    Equipment,
    License,
    Organization,
    WorkerListEntry,
)
from organizations.selectors import authorization_facts
from reports import amendment_state, annual
from reports.figures import compute_figures, differences, digest, late_filing, to_json
from reports.models import (
    AnnualReport,
    CloseOut,
    ClosingCount,
    CountCategory,
    Expense,
    ExpenseKind,
    FinancialReport,
    LawfulPurposeDisbursement,
    RenderStatus,
    ReportObligation,
)

MAX_COUNT = 1_000_000
DEFAULT_DUE_DAYS = 10


# --- Close-out ------------------------------------------------------------------------------


def _locked_for_closeout(occasion: Occasion) -> tuple[Occasion, CloseOut]:
    """The occasion and its close-out, locked. The close-out follows the close; once the report
    is filed it changes only while an amendment is open."""
    occasion = (
        Occasion.objects.select_for_update()
        .select_related("organization", "license")
        .get(pk=occasion.pk)
    )
    if occasion.status not in (Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED):
        raise ValidationError(
            f"This occasion is {occasion.get_status_display().lower()}: the close-out follows "
            "the close."
        )
    closeout, _ = CloseOut.objects.get_or_create(occasion=occasion)
    closeout = CloseOut.objects.select_for_update().get(pk=closeout.pk)
    if occasion.sealed_at is not None and not closeout.amendment_open:
        raise ValidationError(
            "The report of this occasion is filed: open an amendment, with its reason, to "
            "correct the close-out."
        )
    return occasion, closeout


@rules.atomic()
def save_closeout(
    *,
    occasion: Occasion,
    opening_bank: Decimal,
    cash_counted: Decimal | None,
    counts: Mapping[str, int | None],
    explanation: str,
    by: Any,
    cash_verified_by: Any = None,
    cash_verifier_secret: str = "",
    cash_verified_by_worker: WorkerPresence | None = None,
) -> CloseOut:
    """The bookkeeper's counts by category, the cash, and the explanation of any difference.
    The cash counted (a new figure) is verified by a second person who confirms it themselves,
    or, entered from paper, by the worker whose signature is on the sheet (3.04(1)(e))."""
    occasion, closeout = _locked_for_closeout(occasion)
    old = snapshot(closeout, ("opening_bank", "cash_counted", "explanation"))
    old["counts"] = {c.category: c.counted for c in closeout.counts.all()}
    closeout.opening_bank = money(opening_bank, CASH, "opening_bank")
    counted = optional_money(cash_counted, CASH, "cash_counted")
    if counted is not None and (counted != closeout.cash_counted or not _cash_verified(closeout)):
        _verify_cash_count(
            occasion,
            closeout,
            by,
            CashVerifier(cash_verified_by, cash_verifier_secret, cash_verified_by_worker),
        )
    elif counted is None:
        closeout.cash_counted_by = closeout.cash_verified_by = None
        closeout.cash_verified_by_worker = closeout.cash_verified_at = None
    closeout.cash_counted = counted
    closeout.explanation = text(explanation, "explanation", required=False, limit=2000)
    closeout.updated_by = acting_user(by)
    valid = set(CountCategory.values)
    clean: dict[str, int] = {}
    for category, value in counts.items():
        if category not in valid:
            raise ValidationError(f"Unknown category {category!r}.")
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNT:
            raise ValidationError({category: "Give the count as a whole number, 0 or more."})
        clean[category] = value
    closeout.save()
    ClosingCount.objects.filter(closeout=closeout).exclude(category__in=clean).delete()
    for category, value in clean.items():
        ClosingCount.objects.update_or_create(
            closeout=closeout, category=category, defaults={"counted": value}
        )
    new = snapshot(closeout, ("opening_bank", "cash_counted", "explanation"))
    new["counts"] = clean
    new["cash_verified_by"] = _cash_verifier_name(closeout)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.closeout.saved",
        target=closeout,
        old=old,
        new=new,
    )
    return closeout


@dataclass(frozen=True)
class CashVerifier:
    """The second person of the cash count, as given: a user and the secret they typed, or a
    worker of the night attested on paper."""

    user: Any
    secret: str
    worker: WorkerPresence | None


def _cash_verified(closeout: CloseOut) -> bool:
    return (
        closeout.cash_verified_by_id is not None or closeout.cash_verified_by_worker_id is not None
    )


def _cash_verifier_name(closeout: CloseOut) -> str | None:
    if closeout.cash_verified_by_worker_id:
        return f"{closeout.cash_verified_by_worker.entry.person.legal_name} (attested on paper)"
    user = closeout.cash_verified_by
    return user.get_username() if user else None


def _verify_cash_count(
    occasion: Occasion, closeout: CloseOut, by: Any, verifier: CashVerifier
) -> None:
    """Judge the cash count's second person (3.04(1)(e)) and keep who counted and verified."""
    from occasions import floor_selectors as floor
    from occasions import paper
    from occasions.second_person import second_person

    if paper.current() is not None:
        worker = floor.worker_of_the_night(occasion, verifier.worker) if verifier.worker else None
        facts = CashCountFacts(
            has_verifier=worker is not None,
            verifier_barred=worker is not None and floor.barred_from_assisting(worker),
        )
        user = None
    else:
        worker = None
        user = verifier.user
        second = second_person(occasion, user, verifier.secret, None)
        facts = CashCountFacts(
            has_verifier=user is not None,
            verifier_in_organization=second.in_organization,
            verifier_is_counter=user is not None and user.pk == getattr(acting_user(by), "pk", 0),
            verifier_confirmed=second.confirmed,
            verifier_paused=second.paused,
            verifier_worked_that_night=second.on_floor,
            verifier_barred=second.barred,
        )
    enforce_at(COUNT_CASH, facts, occasion, by)
    closeout.cash_counted_by = acting_user(by)
    closeout.cash_verified_by = user
    closeout.cash_verified_by_worker = worker
    closeout.cash_verified_at = timezone.now()


def _payee_entries(
    occasion: Occasion, payee: str
) -> tuple[WorkerListEntry | None, list[WorkerListEntry]]:
    """The worker the payee is (the same name written any way), and those it may be."""
    entries = list(list_entries(occasion))
    exact, near = names.match(payee, ((e, e.person.legal_name) for e in entries))
    return (exact[0] if exact else None), near


@rules.atomic()
def record_expense(
    *,
    occasion: Occasion,
    kind: ExpenseKind,
    payee: str,
    amount: Decimal,
    by: Any,
    description: str = "",
    invoice_reference: str = "",
    equipment: Equipment | None = None,
    worker_entry: WorkerListEntry | None = None,
    other_person_reason: str = "",
) -> Expense:
    """An expense of the occasion, judged before it is saved: no worker is paid but a
    bookkeeper or accountant who was present (3.04(1)(f), (g)); equipment rent only under an
    approved lease at its sum certain (3.04(4)(a))."""
    occasion, _closeout = _locked_for_closeout(occasion)
    if not kind.enterable:
        raise ValidationError(
            {"kind": f"{kind.name} is taken from the occasion's records, not entered here."}
        )
    amount = money(amount, EXPENSE, "amount", positive=True)
    description = text(description, "description", required=False, limit=300)
    invoice_reference = text(invoice_reference, "invoice_reference", required=False, limit=100)
    org = occasion.organization
    if equipment is not None and equipment.organization_id != org.pk:
        raise ValidationError({"equipment": "That equipment is another organization's."})
    if kind.source == ExpenseKind.Source.EQUIPMENT_LEASE and equipment is None:
        raise ValidationError({"equipment": "Name the leased equipment the rent is paid for."})
    if kind.source == ExpenseKind.Source.COMPENSATION:
        if worker_entry is None:
            raise ValidationError({"worker_entry": "Name the bookkeeper or accountant paid."})
        if worker_entry.worker_list.organization_id != org.pk:
            raise ValidationError(
                {"worker_entry": "That person is on another organization's list."}
            )
        payee = worker_entry.person.legal_name
    payee = text(payee, "payee")
    named, near = _payee_entries(occasion, payee) if worker_entry is None else (None, [])
    entry = worker_entry or named
    other_person_reason = text(
        other_person_reason, "other_person_reason", required=False, limit=300
    )
    lease = equipment.lease_authorization if equipment is not None else None
    facts: list[Any] = [
        ExpenseFacts(
            source=kind.source,
            payee=payee,
            amount=amount,
            payee_roles=tuple(entry.roles) if entry else (),
            payee_compensated=bool(entry and entry.compensated),
            equipment_leased=(
                None if equipment is None else equipment.ownership == Equipment.Ownership.LEASED
            ),
            lease_approved=None if lease is None else lease.valid_on(occasion.date),
            lease_fee=equipment.rental_fee if equipment is not None else None,
            payee_near=tuple(e.person.legal_name for e in near) if entry is None else (),
            other_person_reason=other_person_reason,
        ),
        BookkeeperPresenceFacts(
            person_id=entry.person_id if entry else 0,
            name=payee,
            compensated=kind.source == ExpenseKind.Source.COMPENSATION,
            present=bool(
                entry and WorkerPresence.objects.filter(occasion=occasion, entry=entry).exists()
            ),
        ),
    ]
    decision = enforce_at(RECORD_EXPENSE, facts, occasion, by)
    expense = Expense.objects.create(
        occasion=occasion,
        kind=kind,
        payee=payee,
        description=description,
        amount=amount,
        invoice_reference=invoice_reference,
        equipment=equipment,
        worker_entry=entry if kind.source == ExpenseKind.Source.COMPENSATION else None,
        authorization_id=(decision.authorization_pks or [None])[0],
        recorded_by=acting_user(by),
        recorded_at=timezone.now(),
    )
    record_event(
        organization=org,
        actor=by,
        action="reports.expense.recorded",
        target=expense,
        new=snapshot(
            expense,
            (
                "kind",
                "payee",
                "description",
                "amount",
                "invoice_reference",
                "equipment",
                "worker_entry",
                "authorization",
            ),
        )
        | (
            {
                "not_the_listed_worker": [e.person.legal_name for e in near],
                "why": other_person_reason,
            }
            if near and entry is None
            else {}
        ),
    )
    return expense


@rules.atomic()
def remove_expense(*, expense: Expense, by: Any) -> None:
    """Take back an expense entered by mistake, before filing or while an amendment is open."""
    occasion, _closeout = _locked_for_closeout(expense.occasion)
    expense = Expense.objects.select_for_update().get(pk=expense.pk, occasion=occasion)
    old = snapshot(expense, ("kind", "payee", "description", "amount", "invoice_reference"))
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.expense.removed",
        target=expense,
        old=old,
    )
    expense.delete()


def stock_label(occasion: Occasion) -> str:
    """How the card inventory names the occasion its cards were used at."""
    return f"Occasion of {occasion.date:%a %b %-d, %Y}"


@rules.atomic()
def record_stock_used(
    *,
    occasion: Occasion,
    purchase: CardPurchase,
    quantity_used: int,
    quantity_voided: int,
    by: Any,
    note: str = "",
) -> CardUsage:
    """Cards of one purchase used (or voided) at the occasion, taken out of the card inventory
    at the close-out (3.04(4)(e)): never more than are on hand."""
    occasion, _closeout = _locked_for_closeout(occasion)
    if purchase.organization_id != occasion.organization_id:
        raise ValidationError({"purchase": "Those cards are another organization's."})
    for field, value in (("quantity_used", quantity_used), ("quantity_voided", quantity_voided)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNT:
            raise ValidationError({field: "Give a whole number of cards, 0 or more."})
    if not quantity_used and not quantity_voided:
        raise ValidationError("Give the cards used or voided.")
    return record_card_usage(
        purchase=purchase,
        by=by,
        used_on=occasion.date,
        quantity_used=quantity_used,
        quantity_voided=quantity_voided,
        note=text(note, "note", required=False, limit=300),
        occasion_label=stock_label(occasion),
    )


# --- Filing ---------------------------------------------------------------------------------


def chain_head(organization: Organization) -> tuple[int, str]:
    chain = AuditChain.objects.filter(organization=organization).first()
    return (chain.length, chain.head_hash) if chain else (0, "")


def due_dates() -> Callable[[dt.date], dt.date]:
    """The due date of an authorized day's report, by the figure in force that day
    (3.05(1)(a)): the dated rows are read once, for as many days as asked."""
    rows = list(LawLimit.objects.filter(name=LimitName.REPORT_DUE_DAYS).order_by("effective_from"))

    def due(day: dt.date) -> dt.date:
        days = DEFAULT_DUE_DAYS
        for row in rows:
            if row.effective_from <= day and row.value is not None:
                days = int(row.value)
        return day + dt.timedelta(days=days)

    return due


def due_on(day: dt.date) -> dt.date:
    return due_dates()(day)


def _enqueue(document: Any) -> None:
    from reports.tasks import enqueue_render

    transaction.on_commit(lambda: enqueue_render(document))


def _filing_facts(
    figures: dict[str, Any],
    closeout: CloseOut | None,
    reason: str,
    amendment: bool,
    occasion: Occasion,
) -> FilingFacts:
    played = occasion.status != Occasion.Status.NOT_PLAYED
    return FilingFacts(
        status=occasion.status,
        played=played,
        missing_counts=tuple(c["label"].lower() for c in figures["counts"] if c["counted"] is None),
        cash_counted=figures["cash"]["counted"] is not None
        and (not closeout or closeout.cash_counted is None or _cash_verified(closeout)),
        variance_above_threshold=bool(figures["variance"]["above_threshold"]),
        explanation_given=bool(closeout and closeout.explanation.strip()),
        amendment=amendment,
        reason=reason,
    )


@rules.atomic()
def file_report(*, occasion: Occasion, by: Any) -> FinancialReport:
    """File the occasion's financial report, or the amendment that is open. Filing seals the
    occasion. Filing twice (two bookkeepers, a double click) yields one filing."""
    occasion = (
        Occasion.objects.select_for_update()
        .select_related("organization", "license")
        .get(pk=occasion.pk)
    )
    closeout = CloseOut.objects.select_for_update().filter(occasion=occasion).first()
    latest = FinancialReport.objects.filter(occasion=occasion).order_by("-version").first()
    amendment = latest is not None
    if amendment and not (closeout and closeout.amendment_open):
        return latest  # already filed: the same filing, not a second one
    reason = closeout.amendment_reason if amendment and closeout else ""
    now = timezone.now()
    due = latest.due_on if latest else due_on(occasion.date)
    # An amendment corrects figures; the tax was due, and late or not, when first filed.
    filed_on = timezone.localtime(latest.filed_at if latest else now).date()
    figures = compute_figures(occasion, filed_on=filed_on, due_on=due)
    enforce_at(
        FILE_REPORT, _filing_facts(figures, closeout, reason, amendment, occasion), occasion, by
    )
    figures_json = to_json(figures)
    version = (latest.version + 1) if latest else 1
    late = late_filing(due, filed_on, occasion.date)
    report = FinancialReport(
        organization=occasion.organization,
        occasion=occasion,
        version=version,
        reason=reason,
        changes=differences(latest.figures, figures_json) if latest else [],
        figures=figures_json,
        figures_sha256=digest(figures_json),
        filed_at=now,
        filed_by=acting_user(by),
        due_on=due,
        days_late=late.days_late,
        chain_length=0,
        chain_head_hash="",
        render_status=RenderStatus.QUEUED,
    )
    report.save()
    if occasion.sealed_at is None:
        occasion.sealed_at = now
        occasion.save(update_fields=["sealed_at"])
    if closeout and closeout.amendment_open:
        closeout.amendment_reason = ""
        closeout.amendment_opened_at = None
        closeout.amendment_opened_by = None
        closeout.save(
            update_fields=[
                "amendment_reason",
                "amendment_opened_at",
                "amendment_opened_by",
                "updated_at",
            ]
        )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.report.filed" if version == 1 else "reports.report.amended",
        target=report,
        new={
            "version": version,
            "reason": reason,
            "figures_sha256": report.figures_sha256,
            "gross_receipts": figures_json["receipts"]["gross_receipts"],
            "tax": figures_json["tax"]["total_due"],
            "net_proceeds": figures_json["net"]["net_proceeds"],
            "changes": len(report.changes),
        },
    )
    # The head printed on the report is the chain through this filing's own event.
    report.chain_length, report.chain_head_hash = chain_head(occasion.organization)
    report.save(update_fields=["chain_length", "chain_head_hash"])
    _enqueue(report)
    return report


@rules.atomic()
def open_amendment(*, occasion: Occasion, reason: str, by: Any) -> CloseOut:
    """Open a correction of a filed report: the close-out can change until the amendment is
    filed; the night's records stay sealed."""
    occasion = (
        Occasion.objects.select_for_update().select_related("organization").get(pk=occasion.pk)
    )
    if occasion.sealed_at is None:
        raise ValidationError("This report is not filed yet: correct the close-out and file it.")
    closeout, _ = CloseOut.objects.get_or_create(occasion=occasion)
    closeout = CloseOut.objects.select_for_update().get(pk=closeout.pk)
    if closeout.amendment_open:
        raise ValidationError("An amendment is already open: file it or take it back first.")
    reason = text(reason, "reason", limit=2000)
    if len(reason) < 10:
        raise ValidationError({"reason": "Say why the filed report is corrected (a sentence)."})
    state = amendment_state.filed_state(occasion, closeout, stock_label(occasion))
    closeout.amendment_reason = reason
    closeout.amendment_opened_at = timezone.now()
    closeout.amendment_opened_by = acting_user(by)
    closeout.save()
    record_event(
        organization=occasion.organization,
        actor=by,
        action=amendment_state.OPENED,
        target=closeout,
        new={"reason": reason, amendment_state.STATE_KEY: state},
    )
    return closeout


@rules.atomic()
def withdraw_amendment(*, occasion: Occasion, by: Any) -> None:
    """Take back an open amendment that will not be filed: the close-out is put back exactly as
    filed (its counts, cash, opening bank and explanation, the expenses added or removed, the
    cards taken from stock), each change undone an audit event, so the page, the next
    amendment and the filed version agree again. What was changed meanwhile stays in the
    trail."""
    occasion = (
        Occasion.objects.select_for_update().select_related("organization").get(pk=occasion.pk)
    )
    closeout = CloseOut.objects.select_for_update().filter(occasion=occasion).first()
    if closeout is None or not closeout.amendment_open:
        raise ValidationError("No amendment is open.")
    undone = amendment_state.restore_filed_state(occasion, closeout, stock_label(occasion), by)
    old = {"reason": closeout.amendment_reason}
    closeout.amendment_reason = ""
    closeout.amendment_opened_at = None
    closeout.amendment_opened_by = None
    closeout.save()
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.amendment.withdrawn",
        target=closeout,
        old=old,
        new={"undone": undone},
    )


@rules.atomic()
def rerender(*, document: FinancialReport | AnnualReport, by: Any) -> None:
    """Queue the PDF of a filed version again (after a failure, or a broker that was down).
    The figures do not change; the task makes the same file."""
    model = type(document)
    document = model.objects.select_for_update().get(pk=document.pk)
    if document.render_status == RenderStatus.READY and document.pdf:
        return
    document.render_status = RenderStatus.QUEUED
    document.render_error = ""
    document.render_task_id = ""  # the earlier task's id; the new one is set once sent
    document.save(update_fields=["render_status", "render_error", "render_task_id"])
    _enqueue(document)


# --- Obligations ----------------------------------------------------------------------------


def ensure_obligations(organizations: Iterable[Organization], through: dt.date) -> int:
    """Record the obligations ``unrecorded_obligations`` finds (run each night by the beat's
    ``reports.record_obligations``; a read never records them). Idempotent; returns how many
    were added."""
    new = unrecorded_obligations(organizations, through)
    ReportObligation.objects.bulk_create(new, ignore_conflicts=True, batch_size=1000)
    return len(new)


def unrecorded_obligations(
    organizations: Iterable[Organization], through: dt.date
) -> list[ReportObligation]:
    """The report obligations not recorded yet (unsaved): one for every authorized day of the
    organizations' licenses up to ``through`` after the last one recorded (from the
    organization's ``reports_from``, if set). A practice license's days owe none
    (``License.practice``: the demo's, for trying the application). A fixed number of queries
    whatever the number of organizations."""
    orgs = {o.pk: o for o in organizations}
    if not orgs:
        return []
    licenses = License.objects.filter(
        organization_id__in=orgs, status=License.Status.ACTIVE, practice=False
    )
    latest = dict(
        ReportObligation.objects.filter(organization_id__in=orgs)
        .values("organization_id")
        .annotate(last=Max("day"))
        .values_list("organization_id", "last")
    )
    due_for = due_dates()
    new: list[ReportObligation] = []
    for lic in licenses:
        org = orgs[lic.organization_id]
        start = lic.valid_from
        if org.reports_from and org.reports_from > start:
            start = org.reports_from
        last = latest.get(lic.organization_id)
        if last is not None and last >= start:
            start = last + dt.timedelta(days=1)
        end = min(lic.valid_to, through)
        if start > end:
            continue
        new.extend(
            ReportObligation(organization=org, license=lic, day=d, due_on=due_for(d))
            for d in lic.authorized_dates(start, end)
        )
    return new


# --- Annual report --------------------------------------------------------------------------


@rules.atomic()
def record_disbursement(
    *,
    organization: Organization,
    paid_on: dt.date,
    payee: str,
    purpose: str,
    amount: Decimal,
    by: Any,
    reference: str = "",
) -> LawfulPurposeDisbursement:
    """Net proceeds spent for a Lawful Purpose (3.05(1)(c)), for the annual report."""
    organization = Organization.objects.select_for_update().get(pk=organization.pk)
    if not isinstance(paid_on, dt.date):
        raise ValidationError({"paid_on": "Give the date it was paid."})
    if paid_on > timezone.localdate():
        raise ValidationError({"paid_on": "A payment is recorded once it is made."})
    amount = money(amount, DISBURSEMENT, "amount", positive=True)
    disbursement = LawfulPurposeDisbursement.objects.create(
        organization=organization,
        paid_on=paid_on,
        payee=text(payee, "payee"),
        purpose=text(purpose, "purpose", limit=300),
        amount=amount,
        reference=text(reference, "reference", required=False, limit=100),
        recorded_by=acting_user(by),
        recorded_at=timezone.now(),
    )
    record_event(
        organization=organization,
        actor=by,
        action="reports.disbursement.recorded",
        target=disbursement,
        new=snapshot(disbursement, ("paid_on", "payee", "purpose", "amount", "reference")),
    )
    return disbursement


@rules.atomic()
def void_disbursement(
    *, disbursement: LawfulPurposeDisbursement, reason: str, by: Any
) -> LawfulPurposeDisbursement:
    """A disbursement recorded by mistake is voided with a reason; it stays on record."""
    disbursement = LawfulPurposeDisbursement.objects.select_for_update().get(pk=disbursement.pk)
    if disbursement.voided_at is not None:
        raise ValidationError("This disbursement is already voided.")
    disbursement.void_reason = text(reason, "reason", limit=300)
    disbursement.voided_at = timezone.now()
    disbursement.voided_by = acting_user(by)
    disbursement.save()
    record_event(
        organization=disbursement.organization,
        actor=by,
        action="reports.disbursement.voided",
        target=disbursement,
        new={"void_reason": disbursement.void_reason},
    )
    return disbursement


def annual_due_on(year: int) -> dt.date:
    """Before January 31 of the next year (3.05(1)(c)): the last day is January 30."""
    return dt.date(year + 1, 1, 30)


@rules.atomic()
def file_annual_report(
    *, organization: Organization, year: int, by: Any, reason: str = ""
) -> AnnualReport:
    """File the year's annual report, or an amendment of it with its reason. Filing again with
    nothing changed returns the version on file."""
    organization = Organization.objects.select_for_update().get(pk=organization.pk)
    latest = (
        AnnualReport.objects.filter(organization=organization, year=year)
        .order_by("-version")
        .first()
    )
    today = timezone.localdate()
    figures_json = to_json(annual.compute_annual(organization, year))
    if latest is not None and not differences(latest.figures, figures_json):
        return latest
    amendment = latest is not None
    reason = " ".join(reason.split())
    enforce_at_org(
        FILE_ANNUAL_REPORT,
        AnnualFilingFacts(year=year, today=today, amendment=amendment, reason=reason),
        organization,
        by,
    )
    due = annual_due_on(year)
    report = AnnualReport.objects.create(
        organization=organization,
        year=year,
        version=(latest.version + 1) if latest else 1,
        reason=reason if amendment else "",
        changes=differences(latest.figures, figures_json) if latest else [],
        figures=figures_json,
        figures_sha256=digest(figures_json),
        filed_at=timezone.now(),
        filed_by=acting_user(by),
        due_on=due,
        days_late=max((today - due).days, 0),
        chain_length=0,
        chain_head_hash="",
    )
    record_event(
        organization=organization,
        actor=by,
        action="reports.annual.filed" if not amendment else "reports.annual.amended",
        target=report,
        new={
            "year": year,
            "version": report.version,
            "reason": report.reason,
            "figures_sha256": report.figures_sha256,
            "total": figures_json["total"],
        },
    )
    report.chain_length, report.chain_head_hash = chain_head(organization)
    report.save(update_fields=["chain_length", "chain_head_hash"])
    _enqueue(report)
    return report


def enforce_at_org(action: str, facts: Any, organization: Organization, by: Any) -> None:
    rules.enforce(
        action,
        facts,
        on=timezone.localdate(),
        actor=by,
        organization=organization,
        authorizations=authorization_facts(organization),
    )

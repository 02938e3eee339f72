"""The close-out of an occasion: the bookkeeper's counts and cash (with its second person),
the expenses, and the cards taken from stock. Each write is one transaction: lock, judge, save,
audit. Once the report is filed the close-out changes only while an amendment is open."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules import names
from beano.rules.money import CASH, EXPENSE, money, optional_money
from beano.rules.reporting import COUNT_CASH, RECORD_EXPENSE, CashCountFacts, ExpenseFacts
from beano.rules.workers import BookkeeperPresenceFacts
from beano.text import text
from equipment.inventory_services import record_card_usage
from equipment.models import CardUsage
from occasions import moments
from occasions.floor_selectors import list_entries
from occasions.models import Occasion, WorkerPresence
from occasions.services import enforce_at, lock_occasion
from organizations.audit import acting_user, record_event, snapshot
from organizations.models import CardPurchase, Equipment, WorkerListEntry
from reports.models import CloseOut, ClosingCount, CountCategory, Expense, ExpenseKind

MAX_COUNT = 1_000_000


def _locked_for_closeout(occasion: Occasion) -> tuple[Occasion, CloseOut]:
    """The occasion and its close-out, locked. The close-out follows the close; once the report
    is filed it changes only while an amendment is open."""
    occasion = lock_occasion(
        occasion,
        related=("organization", "license"),
        statuses=(Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED),
        refusal="This occasion is {status}: the close-out follows the close.",
        sealed_ok=True,
    )
    closeout, _ = CloseOut.objects.get_or_create(occasion=occasion)
    closeout = locking.lock(CloseOut.objects).get(pk=closeout.pk)
    if occasion.sealed_at is not None and not closeout.amendment_open:
        raise ValidationError(
            "The report of this occasion is filed: open an amendment, with its reason, to "
            "correct the close-out."
        )
    return occasion, closeout


def locked_for_closeout(occasion: Occasion) -> Occasion:
    """The occasion locked with its close-out, for the apps below that write to a closed
    occasion's records as the close-out does (``equipment.extensions``)."""
    return _locked_for_closeout(occasion)[0]


@rules.atomic()
def save_closeout(
    *,
    occasion: Occasion,
    opening_bank: Decimal,
    cash_counted: Decimal | None,
    counts: Mapping[str, int | None],
    explanation: str,
    by: Actor,
    cash_verified_by: Any = None,
    cash_verifier_secret: str = "",
    cash_verified_by_worker: WorkerPresence | None = None,
    at: moments.At = None,
) -> CloseOut:
    """The bookkeeper's counts by category, the cash, and the explanation of any difference.
    The cash counted (a new figure, or the same one with a verifier named) is verified by a
    second person who confirms it themselves, or, entered from paper, by the worker whose
    signature is on the sheet (3.04(1)(e)): ``at`` is the sheet's moment then."""
    occasion, closeout = _locked_for_closeout(occasion)
    old = snapshot(closeout, ("opening_bank", "cash_counted", "explanation"))
    old["counts"] = {c.category: c.counted for c in closeout.counts.all()}
    closeout.opening_bank = money(opening_bank, CASH, "opening_bank")
    counted = optional_money(cash_counted, CASH, "cash_counted")
    # A new figure, one never verified, or a verifier named for the same figure (who verifies
    # it again, and is recorded, or is refused): a verifier given is never ignored.
    named = cash_verified_by is not None or cash_verified_by_worker is not None
    if counted is not None and (
        counted != closeout.cash_counted or not cash_verified(closeout) or named
    ):
        _verify_cash_count(
            occasion,
            closeout,
            by,
            CashVerifier(cash_verified_by, cash_verifier_secret, cash_verified_by_worker),
            from_paper=moments.paper_of(at) is not None,
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


def cash_verified(closeout: CloseOut) -> bool:
    return (
        closeout.cash_verified_by_id is not None or closeout.cash_verified_by_worker_id is not None
    )


def _cash_verifier_name(closeout: CloseOut) -> str | None:
    if closeout.cash_verified_by_worker_id:
        return f"{closeout.cash_verified_by_worker.entry.person.legal_name} (attested on paper)"
    user = closeout.cash_verified_by
    return user.get_username() if user else None


def _verify_cash_count(
    occasion: Occasion,
    closeout: CloseOut,
    by: Actor,
    verifier: CashVerifier,
    *,
    from_paper: bool,
) -> None:
    """Judge the cash count's second person (3.04(1)(e)) and keep who counted and verified."""
    from occasions import floor_selectors as floor
    from occasions.second_person import VERIFY_THE_CASH_COUNT, facts_of, second_person

    if from_paper:
        worker = floor.worker_of_the_night(occasion, verifier.worker) if verifier.worker else None
        facts = CashCountFacts(has_verifier=worker is not None)
        assisting = facts_of(worker, VERIFY_THE_CASH_COUNT)
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
            verifier_paused_until=second.paused_until,
            verifier_worked_that_night=second.on_floor,
        )
        assisting = second.facts(VERIFY_THE_CASH_COUNT)
    enforce_at(COUNT_CASH, [facts, assisting], occasion, by)
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


@dataclass(frozen=True)
class _Payee:
    """Who an expense is paid to: the name, the worker it is (given, or the name matched on the
    list), those it may be when the name is near a listed worker's, and why it is someone else."""

    name: str
    entry: WorkerListEntry | None
    near: list[WorkerListEntry]
    other_person_reason: str


def _expense_payee(
    occasion: Occasion,
    kind: ExpenseKind,
    payee: str,
    equipment: Equipment | None,
    worker_entry: WorkerListEntry | None,
    other_person_reason: str,
) -> _Payee:
    """Check what the expense names (its equipment, the person paid) belongs to the occasion's
    organization and is given where the kind asks for it."""
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
    other_person_reason = text(
        other_person_reason, "other_person_reason", required=False, limit=300
    )
    return _Payee(payee, worker_entry or named, near, other_person_reason)


def _expense_facts(
    occasion: Occasion,
    kind: ExpenseKind,
    amount: Decimal,
    equipment: Equipment | None,
    payee: _Payee,
) -> list[Any]:
    entry = payee.entry
    lease = equipment.lease_authorization if equipment is not None else None
    return [
        ExpenseFacts(
            source=kind.source,
            payee=payee.name,
            amount=amount,
            payee_roles=tuple(entry.roles) if entry else (),
            payee_compensated=bool(entry and entry.compensated),
            equipment_leased=(
                None if equipment is None else equipment.ownership == Equipment.Ownership.LEASED
            ),
            lease_approved=None if lease is None else lease.valid_on(occasion.date),
            lease_fee=equipment.rental_fee if equipment is not None else None,
            payee_near=tuple(e.person.legal_name for e in payee.near) if entry is None else (),
            other_person_reason=payee.other_person_reason,
        ),
        BookkeeperPresenceFacts(
            person_id=entry.person_id if entry else 0,
            name=payee.name,
            compensated=kind.source == ExpenseKind.Source.COMPENSATION,
            present=bool(
                entry and WorkerPresence.objects.filter(occasion=occasion, entry=entry).exists()
            ),
        ),
    ]


EXPENSE_AUDITED = (
    "kind",
    "payee",
    "description",
    "amount",
    "invoice_reference",
    "equipment",
    "worker_entry",
    "authorization",
)


@rules.atomic()
def record_expense(
    *,
    occasion: Occasion,
    kind: ExpenseKind,
    payee: str,
    amount: Decimal,
    by: Actor,
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
    paid = _expense_payee(occasion, kind, payee, equipment, worker_entry, other_person_reason)
    facts = _expense_facts(occasion, kind, amount, equipment, paid)
    decision = enforce_at(RECORD_EXPENSE, facts, occasion, by)
    expense = Expense.objects.create(
        occasion=occasion,
        kind=kind,
        payee=paid.name,
        description=description,
        amount=amount,
        invoice_reference=invoice_reference,
        equipment=equipment,
        worker_entry=paid.entry if kind.source == ExpenseKind.Source.COMPENSATION else None,
        authorization_id=(decision.authorization_pks or [None])[0],
        recorded_by=acting_user(by),
        recorded_at=timezone.now(),
    )
    not_listed = (
        {
            "not_the_listed_worker": [e.person.legal_name for e in paid.near],
            "why": paid.other_person_reason,
        }
        if paid.near and paid.entry is None
        else {}
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.expense.recorded",
        target=expense,
        new=snapshot(expense, EXPENSE_AUDITED) | not_listed,
    )
    return expense


@rules.atomic()
def remove_expense(*, expense: Expense, by: Actor) -> None:
    """Take back an expense entered by mistake, before filing or while an amendment is open."""
    occasion, _closeout = _locked_for_closeout(expense.occasion)
    expense = locking.lock(Expense.objects).get(pk=expense.pk, occasion=occasion)
    old = snapshot(expense, ("kind", "payee", "description", "amount", "invoice_reference"))
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.expense.removed",
        target=expense,
        old=old,
    )
    expense.delete()


@rules.atomic()
def record_stock_used(
    *,
    occasion: Occasion,
    purchase: CardPurchase,
    quantity_used: int,
    quantity_voided: int,
    by: Actor,
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
        occasion=occasion,
    )

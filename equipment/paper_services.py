"""Paper by serial (961 CMR 3.04(4)(d)2 and (e)): cards issued to the door for an occasion by
serial range and counted back at its close, destroyed with a witness, counted on the shelf with
a witness, and the explanation of a night whose door counts and serials disagree.

Each write locks what it changes (the purchase's row: two issues at once cannot overdraw it;
the occasion's row for an act of the night), states the moment (now, or the time written on the
sheet: an issue entered after the fact is judged as of the moment it happened), has the rules
judge it before anything is saved, saves, and appends its audit event."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import locking, rules
from beano.accounts.pins import confirms, paused
from beano.actors import Actor
from beano.rules.paper import (
    DESTROY,
    ISSUE,
    RETURN,
    STOCK_TAKE,
    DestructionFacts,
    IssueFacts,
    ReturnFacts,
    StockTakeFacts,
    WitnessedFacts,
)
from beano.text import text
from equipment import extensions
from equipment.models import PaperDestruction, PaperExplanation, PaperIssue, StockTake
from equipment.paper_stock import movements_of
from occasions import moments
from occasions.models import Occasion
from occasions.services import enforce_at, lock_occasion, moment_of, status_at
from organizations.audit import acting_user, snapshot
from organizations.audit import record_event as audit
from organizations.models import CardPurchase, OrganizationRole

MAX_CARDS = 1_000_000
MAX_SERIAL = 999_999_999
ISSUE_FIELDS = ("purchase", "occasion", "serial_from", "serial_to", "issued_at", "from_paper")
RETURN_FIELDS = ("returned", "voided", "returned_at")
DESTRUCTION_FIELDS = (
    "purchase",
    "destroyed_on",
    "quantity",
    "serial_from",
    "serial_to",
    "reason",
    "note",
    "witness",
)
STOCK_TAKE_FIELDS = ("purchase", "counted_on", "expected", "counted", "reason", "witness")


def _count(value: Any, field: str, *, minimum: int = 0, maximum: int = MAX_CARDS) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise ValidationError({field: f"Give a whole number, {minimum} to {maximum:,}."})
    return value


def _locked_purchase(purchase: CardPurchase, organization_id: int) -> CardPurchase:
    if purchase.organization_id != organization_id:
        raise ValidationError({"purchase": "Those cards are another organization's."})
    return locking.lock(CardPurchase.objects).get(pk=purchase.pk)


def _still_out(purchase: CardPurchase, serial_from: int, serial_to: int) -> str:
    """An issue of these serials not yet counted back, named for the refusal."""
    other = (
        PaperIssue.objects.filter(
            purchase=purchase,
            returned__isnull=True,
            serial_from__lte=serial_to,
            serial_to__gte=serial_from,
        )
        .select_related("occasion")
        .first()
    )
    if other is None:
        return ""
    return f"serials {other.serial_from}–{other.serial_to} issued for {other.occasion.date:%b %-d}"


@rules.atomic()
def issue_paper(
    *,
    occasion: Occasion,
    purchase: CardPurchase,
    serial_from: int,
    serial_to: int,
    by: Actor,
    at: moments.At = None,
) -> PaperIssue:
    """Issue serials ``serial_from``–``serial_to`` of a purchase to the door for the occasion,
    before it opens or while it is open (as of ``at``, the time written on the sheet)."""
    occasion = lock_occasion(occasion)
    purchase = _locked_purchase(purchase, occasion.organization_id)
    serial_from = _count(serial_from, "serial_from", minimum=1, maximum=MAX_SERIAL)
    serial_to = _count(serial_to, "serial_to", minimum=1, maximum=MAX_SERIAL)
    moment = moment_of(occasion, at, by=by, act="issuing paper to the door")
    facts = IssueFacts(
        description=str(purchase),
        serial_from=serial_from,
        serial_to=serial_to,
        purchase_from=purchase.serial_from,
        purchase_to=purchase.serial_to,
        on_hand=movements_of([purchase.pk])[purchase.pk].on_hand,
        overlapping=_still_out(purchase, serial_from, serial_to),
        occasion_status=status_at(occasion, moment),
    )
    enforce_at(ISSUE, facts, occasion, by)
    issue = PaperIssue.objects.create(
        purchase=purchase,
        occasion=occasion,
        serial_from=serial_from,
        serial_to=serial_to,
        issued_at=moment,
        issued_by=acting_user(by),
        from_paper=moments.stated(at) is not None or moments.paper_of(at) is not None,
    )
    audit(
        organization=occasion.organization,
        actor=by,
        action="reports.paper.issued",
        target=issue,
        new=snapshot(issue, ISSUE_FIELDS) | {"quantity": issue.quantity},
    )
    return issue


@rules.atomic()
def count_back(
    *,
    issue: PaperIssue,
    returned: int,
    voided: int = 0,
    by: Actor,
    at: moments.At = None,
) -> PaperIssue:
    """The unsold cards of an issue counted back at the close (and the spoiled ones voided):
    sold = issued − returned − voided. A count given again replaces the earlier one, until the
    report is filed."""
    occasion = lock_occasion(issue.occasion)
    issue = locking.lock(PaperIssue.objects.select_related("purchase"), "purchase").get(pk=issue.pk)
    returned = _count(returned, "returned")
    voided = _count(voided, "voided")
    moment = moment_of(occasion, at, by=by, act="counting the paper back")
    facts = ReturnFacts(
        description=str(issue),
        issued=issue.quantity,
        returned=returned,
        voided=voided,
        occasion_status=status_at(occasion, moment),
    )
    enforce_at(RETURN, facts, occasion, by)
    old = snapshot(issue, RETURN_FIELDS)
    issue.returned, issue.voided, issue.returned_at = returned, voided, moment
    issue.returned_by = acting_user(by)
    issue.save(update_fields=["returned", "voided", "returned_at", "returned_by"])
    audit(
        organization=occasion.organization,
        actor=by,
        action="reports.paper.counted_back",
        target=issue,
        old=old,
        new=snapshot(issue, RETURN_FIELDS) | {"sold": issue.sold},
    )
    return issue


def witnessed(organization_id: int, recorder: Actor, witness: Any, secret: str) -> WitnessedFacts:
    """The second person of a destruction or a stock-take, signing for themselves: a user of
    the organization, not the person recording, who typed their own password or PIN."""
    if witness is None:
        return WitnessedFacts(False, False, False)
    member = OrganizationRole.objects.filter(user=witness, organization_id=organization_id)
    recorder_user = acting_user(recorder)
    return WitnessedFacts(
        witness_named=True,
        witness_is_recorder=recorder_user is not None and witness.pk == recorder_user.pk,
        witness_confirmed=member.exists() and confirms(witness, secret),
        witness_paused=paused(witness),
    )


def _not_future(day: dt.date, field: str) -> dt.date:
    if not isinstance(day, dt.date) or day > timezone.localdate():
        raise ValidationError({field: "Give a date, not in the future."})
    return day


@rules.atomic()
def destroy_paper(
    *,
    purchase: CardPurchase,
    quantity: int,
    reason: str,
    destroyed_on: dt.date,
    witness: Any,
    witness_secret: str,
    by: Actor,
    note: str = "",
    serial_from: int | None = None,
    serial_to: int | None = None,
) -> PaperDestruction:
    """Cards destroyed because damaged or expired, out of the inventory, with a witness."""
    purchase = _locked_purchase(purchase, purchase.organization_id)
    quantity = _count(quantity, "quantity", minimum=1)
    destroyed_on = _not_future(destroyed_on, "destroyed_on")
    if reason and reason not in PaperDestruction.Reason.values:
        raise ValidationError({"reason": "Choose a reason."})
    if (serial_from is None) != (serial_to is None) or (
        serial_from is not None and serial_to - serial_from + 1 != quantity
    ):
        raise ValidationError({"serial_to": "The serials destroyed hold the quantity given."})
    if serial_from is not None and not (
        purchase.serial_from is not None
        and purchase.serial_from <= serial_from <= serial_to <= purchase.serial_to
    ):
        raise ValidationError({"serial_from": "Those serials are not of this purchase."})
    facts = DestructionFacts(
        description=str(purchase),
        quantity=quantity,
        on_hand=movements_of([purchase.pk])[purchase.pk].on_hand,
        reason=reason,
        witness=witnessed(purchase.organization_id, by, witness, witness_secret),
    )
    rules.enforce(DESTROY, facts, on=destroyed_on, actor=by, organization=purchase.organization)
    row = PaperDestruction.objects.create(
        purchase=purchase,
        destroyed_on=destroyed_on,
        quantity=quantity,
        serial_from=serial_from,
        serial_to=serial_to,
        reason=reason,
        note=text(note, "note", required=False, limit=300),
        recorded_by=acting_user(by),
        witness=witness,
    )
    audit(
        organization=purchase.organization,
        actor=by,
        action="reports.paper.destroyed",
        target=row,
        new=snapshot(row, DESTRUCTION_FIELDS) | {"on_hand_after": facts.on_hand - quantity},
    )
    return row


@rules.atomic()
def take_stock(
    *,
    purchase: CardPurchase,
    counted: int,
    counted_on: dt.date,
    witness: Any,
    witness_secret: str,
    by: Actor,
    reason: str = "",
) -> StockTake:
    """A physical count of a purchase's cards on the shelf, witnessed; the count stands from
    then on, its difference from the records (with its reason) moving the inventory."""
    purchase = _locked_purchase(purchase, purchase.organization_id)
    counted = _count(counted, "counted")
    counted_on = _not_future(counted_on, "counted_on")
    expected = movements_of([purchase.pk])[purchase.pk].on_hand
    reason = text(reason, "reason", required=False, limit=300)
    facts = StockTakeFacts(
        description=str(purchase),
        expected=expected,
        counted=counted,
        reason=reason,
        witness=witnessed(purchase.organization_id, by, witness, witness_secret),
    )
    rules.enforce(STOCK_TAKE, facts, on=counted_on, actor=by, organization=purchase.organization)
    row = StockTake.objects.create(
        purchase=purchase,
        counted_on=counted_on,
        expected=expected,
        counted=counted,
        reason=reason,
        counted_by=acting_user(by),
        witness=witness,
    )
    audit(
        organization=purchase.organization,
        actor=by,
        action="reports.paper.stock_taken",
        target=row,
        new=snapshot(row, STOCK_TAKE_FIELDS) | {"difference": row.difference},
    )
    return row


@rules.atomic()
def explain_paper(*, occasion: Occasion, explanation: str, by: Actor) -> PaperExplanation:
    """Why the door's counts and the paper by serial disagree: from the night on, until the
    report is filed (or while an amendment is open)."""
    if occasion.status in (Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED):
        occasion = extensions.locked_for_closeout(occasion)  # an amendment's too
    else:
        occasion = lock_occasion(occasion)
    explanation = text(explanation, "explanation", limit=2000)
    if len(explanation) < 10:
        raise ValidationError({"explanation": "Say what happened (at least a sentence)."})
    row = PaperExplanation.objects.filter(occasion=occasion).first()
    old = {"text": row.text} if row else None
    if row is None:
        row = PaperExplanation(occasion=occasion)
    row.text, row.explained_by, row.explained_at = explanation, acting_user(by), timezone.now()
    row.save()
    audit(
        organization=occasion.organization,
        actor=by,
        action="reports.paper.explained",
        target=row,
        old=old,
        new={"text": row.text},
    )
    return row

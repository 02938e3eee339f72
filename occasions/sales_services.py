"""Writes at the door: sales, voids, the attendance and the halves (a paper door's tally is in
``tally_services``). Each is one transaction that
locks the occasion row, gathers the facts, lets the rules judge, saves and writes its audit
event. Locking the occasion first, always, is what gives concurrent sellers distinct receipt
numbers and loses no count."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Count, OuterRef, Q, Subquery
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.prepared import Prepared
from beano.rules.bookkeepers import SecondPersonFacts
from beano.rules.charges import (
    ANNOUNCE_ATTENDANCE,
    RECORD_SALE,
    START_SECOND_HALF,
    VOID_SALE,
    AttendanceFacts,
    SaleFacts,
    SaleLineFact,
    SecondHalfFacts,
    VoidFacts,
)
from beano.text import one_line
from occasions import floor_selectors as floor
from occasions import live, moments, on_floor, submissions
from occasions.models import (
    AttendanceAnnouncement,
    FloorSubmission,
    Occasion,
    PriceListItem,
    Sale,
    SaleLine,
    WorkerPresence,
)
from occasions.sales_selectors import count_aggregates, counts_of, door_counts, with_sale
from occasions.second_person import WITNESS_THE_VOID, facts_of, second_person
from occasions.services import enforce_at, lock_occasion, moment_of, open_at, status_at
from organizations.audit import record_event

#: The most of one item a single sale may carry: beyond it, a typing slip, not a player's order.
MAX_QUANTITY = 99
ZERO = Decimal("0.00")


def line_rows(lines: Sequence[SaleLine]) -> list[dict[str, Any]]:
    return [
        {
            "item": line.price_item_id,
            "category": line.category,
            "quantity": line.quantity,
            "unit_price": line.unit_price,
            "amount": line.amount,
        }
        for line in lines
    ]


def _wanted_lines(
    lines: Sequence[tuple[PriceListItem | int, int]],
) -> dict[tuple[int, Decimal | None], int]:
    """(item id, price the seller charged) → quantity. A PriceListItem given carries the price
    the seller's screen showed; an id is charged at the posted price (None here)."""
    wanted: dict[tuple[int, Decimal | None], int] = {}
    for item, quantity in lines:
        if isinstance(quantity, bool) or not isinstance(quantity, int):
            raise ValidationError("Each quantity is a whole number.")
        if not 1 <= quantity <= MAX_QUANTITY:
            raise ValidationError(f"Each quantity is between 1 and {MAX_QUANTITY}.")
        if isinstance(item, PriceListItem):
            key = (item.pk, item.price)
        elif isinstance(item, int) and not isinstance(item, bool):
            key = (item, None)
        else:
            raise ValidationError("Each line names an item of the posted price list.")
        wanted[key] = wanted.get(key, 0) + quantity
    if not wanted:
        raise ValidationError("Enter a quantity for at least one item.")
    return wanted


def _same_list(kept: Sequence[Any]) -> Q:
    """The items of a list equal, field for field, to one of ``kept`` (pk, category, label,
    price, four values an item)."""
    same = Q(pk__in=[])
    for index in range(0, len(kept), 4):
        pk, category, label, price = kept[index : index + 4]
        same |= Q(pk=pk, category=category, label=label, price=price)
    return same


def _sale_facts(occasion_id: int, user_id: int, *kept: Any) -> Any:
    """What a sale is judged on (``_locked_for_sale``), ``kept`` the door form's copy of the
    posted list, four values an item; the seller (``user_id``) on the floor now, and anyone."""
    items = PriceListItem.objects.filter(occasion=OuterRef("pk")).order_by().values("occasion")
    return (
        Occasion.objects.filter(pk=occasion_id)
        .select_related("attendance_announcement__announced_by")
        .annotate(
            last_sale=Subquery(
                Sale.objects.filter(occasion=OuterRef("pk"))
                .order_by("-number")
                .values("number")[:1]
            ),
            posted_count=Subquery(items.annotate(n=Count("pk")).values("n")[:1]),
            posted_same=Subquery(
                items.filter(_same_list(kept)).annotate(n=Count("pk")).values("n")[:1]
            ),
            **count_aggregates(sale="sales", line="sales__lines__"),
            **on_floor.doer_annotations(user_id),
        )
    )


#: Compiled once per process and length of the kept list: every sale runs it.
_SALE_FACTS = Prepared(_sale_facts)


def _locked_for_sale(
    occasion: Occasion, organization: Any, kept: Sequence[PriceListItem] | None, by: Actor
) -> tuple[Occasion, dict[int, PriceListItem]]:
    """The occasion locked (its organization's audit chain head with it), then, by a statement
    of its own once the lock is held, what the sale is judged on and answered with: its last
    receipt's number (``last_sale``), the counts so far (``counts``), the attendance announced
    (``announced``, None if not yet), whether the seller ``by`` is on the floor now
    (``doer``, ``on_floor.Known``) and whether ``kept`` (the door form's copy of the
    posted list) is the list in the database, field for field. Only when it is not (a list
    changed since, or no copy) is the list read again, by one more statement. On PostgreSQL a
    subquery in the locking statement would keep the snapshot from before its wait, so two
    sales at once would read the same last receipt number; the statement after it sees every
    sale committed before the lock was granted, and none can come while it is held."""
    occasion = lock_occasion(occasion, organization=organization, with_chain=True)
    kept = list(kept or [])
    facts = _SALE_FACTS.get(
        occasion.pk,
        on_floor.user_id(by),
        *(v for i in kept for v in (i.pk, i.category, i.label, i.price)),
    )
    occasion.last_sale = facts.last_sale  # type: ignore[attr-defined]
    doer = on_floor.Known(facts.doer_on_floor, facts.floor_staffed)
    occasion.doer = doer  # type: ignore[attr-defined]
    occasion.counts = counts_of(facts)  # type: ignore[attr-defined]
    try:
        announced = facts.attendance_announcement
    except AttendanceAnnouncement.DoesNotExist:
        announced = None
    occasion.announced = announced  # type: ignore[attr-defined]
    if kept and facts.posted_count == facts.posted_same == len(kept):
        return occasion, {i.pk: i for i in kept}
    return occasion, {i.pk: i for i in PriceListItem.objects.filter(occasion=occasion)}


def _keep_lines(sale: Sale, lines: list[SaleLine]) -> None:
    """The sale's lines as saved, kept on it as a prefetch would: its receipt, its total and its
    row are shown without reading them again."""
    kept = SaleLine.objects.filter(sale=sale)
    kept._result_cache = lines  # type: ignore[attr-defined]
    kept._prefetch_done = True  # type: ignore[attr-defined]
    sale._prefetched_objects_cache = {"lines": kept}  # type: ignore[attr-defined]


def _line_facts(
    wanted: dict[tuple[int, Decimal | None], int], posted: dict[int, PriceListItem]
) -> list[SaleLineFact]:
    """Each line as the rules judge it, against the posted list read under the lock."""
    facts = []
    for (item_id, charged), quantity in wanted.items():
        item = posted.get(item_id)
        facts.append(
            SaleLineFact(
                label=item.label if item else f"Item #{item_id}",
                category=item.category if item else "",
                quantity=quantity,
                unit_price=charged if charged is not None else (item.price if item else ZERO),
                posted_price=item.price if item else None,
            )
        )
    return facts


@rules.atomic()
@submissions.answered_once(
    FloorSubmission.Action.SALE, Sale, occasion_of=lambda kwargs: kwargs["occasion"].pk
)
def record_sale(
    *,
    occasion: Occasion,
    lines: list[tuple[PriceListItem | int, int]],
    admission_receipt: int | None,
    by: Actor,
    at: moments.At = None,
    organization: Any = None,
    posted_list: Sequence[PriceListItem] | None = None,
) -> Sale:
    """Sell posted items at their posted prices (961 CMR 3.04(4)(c)): a new admission with its
    extras, or extras against the player's admission receipt (961 CMR 3.04(5)(b)).
    ``occasion`` may be a reference (its pk): it is read under the lock, and with
    ``organization`` it must be that organization's (else Occasion.DoesNotExist, nothing
    saved). ``posted_list``: the posted list as the door's form read it (kept in the cache);
    it is judged on only if the database holds exactly it (checked under the lock). The sale
    returned has its lines (``sale.lines.all()`` reads no more), its occasion the counts with
    it (``sale.occasion.counts``) and the attendance announced."""
    wanted = _wanted_lines(lines)
    occasion, posted = _locked_for_sale(occasion, organization, posted_list, by)
    limits = rules.limits_in_force(occasion.date)  # read once, for every judgment
    moment = moment_of(occasion, at, by=by, act="selling", limits=limits)
    facts_lines = _line_facts(wanted, posted)
    receipt = None
    if admission_receipt is not None:
        receipt = Sale.objects.filter(occasion=occasion, number=admission_receipt).first()
    rules.enforce(
        RECORD_SALE,
        SaleFacts(
            occasion_open=open_at(occasion, moment),
            lines=tuple(facts_lines),
            admission_receipt=admission_receipt,
            receipt_is_admission=receipt is not None
            and receipt.lines.filter(category=PriceListItem.Category.ADMISSION).exists(),
            receipt_voided=receipt is not None and receipt.is_voided,
        ),
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
        limits=limits,
    )
    known = occasion.doer if moments.stated(at) is None else None  # type: ignore[attr-defined]
    on_floor.require(occasion, by, moment, doing="selling", limits=limits, known=known)
    sale = Sale.objects.create(
        occasion=occasion,
        number=(occasion.last_sale or 0) + 1,
        admission_sale=receipt,
        sold_by=by,
        sold_at=moment,
    )
    created = SaleLine.objects.bulk_create(
        SaleLine(
            sale=sale,
            price_item=posted[item_id],
            category=posted[item_id].category,
            quantity=quantity,
            unit_price=posted[item_id].price,
            amount=SaleLine.amount_for(quantity, posted[item_id].price),
        )
        for (item_id, _), quantity in wanted.items()
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.sale.recorded",
        target=sale,
        new={
            "number": sale.number,
            "admission_receipt": admission_receipt,
            "lines": line_rows(created),
            "total": sum((line.amount for line in created), ZERO),
        },
        chain=occasion.organization.audit_chain,
    )
    occasion.counts = with_sale(occasion.counts, created)  # type: ignore[attr-defined]
    live.changed(occasion.pk, live.DOOR)
    _keep_lines(sale, created)
    return sale


@rules.atomic()
def void_sale(
    *,
    sale: Sale,
    reason: str,
    witness: Any | None,
    by: Actor,
    at: moments.At = None,
    witness_worker: WorkerPresence | None = None,
    witness_secret: str = "",
) -> Sale:
    """Take a sale out of the count, keeping it on record with its reason and its witness: a
    second person of the organization, neither the seller nor the one voiding (3.04(4)(d)2).
    Entered from paper, the witness is the worker of the night whose signature is on the
    sheet (``witness_worker``): on the floor at that moment, and not a compensated bookkeeper
    ((1)(g)); the void is marked as attested on paper."""
    occasion = lock_occasion(sale.occasion)
    sale = locking.lock(Sale.objects).get(pk=sale.pk, occasion=occasion)
    moment = moment_of(occasion, at, by=by, act="voiding a sale")
    reason = one_line(reason)[:300]
    witness, worker, witness_facts, assisting = _void_witness(
        occasion,
        sale,
        witness,
        witness_worker,
        by,
        moment,
        witness_secret,
        from_paper=moments.paper_of(at) is not None,
    )
    facts = VoidFacts(
        occasion_open=open_at(occasion, moment),
        receipt=sale.number,
        already_voided=sale.is_voided,
        reason=reason,
        live_extras_receipts=tuple(
            sale.extra_sales.filter(voided_at__isnull=True)
            .order_by("number")
            .values_list("number", flat=True)
        ),
        **witness_facts,
    )
    enforce_at(VOID_SALE, [facts, assisting], occasion, by)
    on_floor.require(occasion, by, moment, doing="voiding a sale")
    sale.voided_at = moment
    sale.void_reason = reason
    sale.voided_by = by
    sale.void_witness = witness
    sale.void_witness_worker = worker
    sale.save(
        update_fields=[
            "voided_at",
            "void_reason",
            "voided_by",
            "void_witness",
            "void_witness_worker",
        ]
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.sale.voided",
        target=sale,
        old={"voided_at": None},
        new={
            "number": sale.number,
            "voided_at": sale.voided_at,
            "reason": reason,
            "witness": _void_witness_name(witness, worker),
        },
    )
    live.changed(occasion.pk, live.DOOR)
    return sale


def _void_witness(
    occasion: Occasion,
    sale: Sale,
    witness: Any | None,
    witness_worker: WorkerPresence | None,
    by: Actor,
    moment: dt.datetime,
    secret: str = "",
    *,
    from_paper: bool,
) -> tuple[Any | None, WorkerPresence | None, dict[str, Any], SecondPersonFacts]:
    """The void's second person and the facts the rules judge of them: live, a user of the
    organization confirming with their own password or PIN, on the floor then; from paper, the
    worker of the night whose signature is on the sheet."""
    if from_paper:
        worker = floor.worker_of_the_night(occasion, witness_worker) if witness_worker else None
        return (
            None,
            worker,
            {
                "has_witness": worker is not None,
                "witness_in_organization": worker is not None,
                "witness_is_seller": False,
                "witness_is_voider": False,
                "witness_on_floor": worker is not None and floor.on_floor_at(worker, moment),
            },
            facts_of(worker, WITNESS_THE_VOID),
        )
    witness_id = getattr(witness, "pk", None)
    second = second_person(occasion, witness, secret, moment)
    return (
        witness,
        None,
        {
            "has_witness": witness_id is not None,
            "witness_in_organization": second.in_organization,
            "witness_is_seller": witness_id is not None and witness_id == sale.sold_by_id,
            "witness_is_voider": witness_id is not None and witness_id == getattr(by, "pk", None),
            "witness_confirmed": second.confirmed,
            "witness_paused_until": second.paused_until,
            "witness_on_floor": witness_id is None or second.on_floor,
        },
        second.facts(WITNESS_THE_VOID),
    )


def _void_witness_name(witness: Any | None, worker: WorkerPresence | None) -> str:
    if witness is not None:
        return witness.get_username()
    return f"{worker.entry.person.legal_name} (attested on paper)" if worker is not None else ""


@rules.atomic()
def announce_attendance(
    *, occasion: Occasion, players: int, by: Actor, at: moments.At = None
) -> AttendanceAnnouncement:
    """Record the number of players in attendance as announced in the hall (3.04(5)(c))."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 0:
        raise ValidationError({"players": "The number of players is a whole number, 0 or more."})
    occasion = lock_occasion(occasion)
    moment = moment_of(occasion, at, by=by, act="announcing the attendance")
    rules.enforce(
        ANNOUNCE_ATTENDANCE,
        AttendanceFacts(
            occasion_open=open_at(occasion, moment),
            already_announced=AttendanceAnnouncement.objects.filter(occasion=occasion).exists(),
            players=players,
            admissions_sold=door_counts(occasion).admissions,
        ),
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )
    on_floor.require(occasion, by, moment, doing="announcing the attendance")
    announcement = AttendanceAnnouncement.objects.create(
        occasion=occasion, players=players, announced_at=moment, announced_by=by
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.attendance.announced",
        target=occasion,
        new={"players": players, "announced_at": announcement.announced_at},
    )
    live.changed(occasion.pk, live.DOOR)
    return announcement


def _require_open(occasion: Occasion, moment: dt.datetime, what: str) -> None:
    status = status_at(occasion, moment)
    if status != Occasion.Status.OPEN:
        raise ValidationError(
            f"This occasion is {Occasion.Status(status).label.lower()}: {what} only while it "
            "is open."
        )


@rules.atomic()
def start_play(*, occasion: Occasion, by: Actor, at: moments.At = None) -> Occasion:
    """The first game begins: the time is kept, once, while the occasion is open."""
    occasion = lock_occasion(occasion)
    moment = moment_of(occasion, at, by=by, act="starting play")
    _require_open(occasion, moment, "play starts")
    if occasion.play_started_at is not None:
        raise ValidationError(f"Play started at {timezone.localtime(occasion.play_started_at):%X}.")
    on_floor.require(occasion, by, moment, doing="starting play")
    occasion.play_started_at = moment
    occasion.save(update_fields=["play_started_at"])
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.occasion.play_started",
        target=occasion,
        old={"play_started_at": None},
        new={"play_started_at": occasion.play_started_at},
    )
    return occasion


@rules.atomic()
def start_second_half(*, occasion: Occasion, by: Actor, at: moments.At = None) -> Occasion:
    """The second half begins, never before the attendance is announced (3.04(5)(c))."""
    occasion = lock_occasion(occasion)
    moment = moment_of(occasion, at, by=by, act="starting the second half")
    _require_open(occasion, moment, "the second half starts")
    if occasion.play_started_at is None:
        raise ValidationError("Play has not started: start the first half first.")
    if occasion.second_half_started_at is not None:
        raise ValidationError(
            f"The second half started at {timezone.localtime(occasion.second_half_started_at):%X}."
        )
    rules.enforce(
        START_SECOND_HALF,
        SecondHalfFacts(
            attendance_announced=AttendanceAnnouncement.objects.filter(occasion=occasion).exists()
        ),
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )
    on_floor.require(occasion, by, moment, doing="starting the second half")
    occasion.second_half_started_at = moment
    occasion.save(update_fields=["second_half_started_at"])
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.occasion.second_half_started",
        target=occasion,
        old={"second_half_started_at": None},
        new={"second_half_started_at": occasion.second_half_started_at},
    )
    return occasion

"""Reads of the door: the count by category kept for 961 CMR 3.04(4)(d)2, available at any time
during the occasion and at its close, the night's receipts, and the attendance announced."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Prefetch, Q, QuerySet, Sum

from occasions import extensions
from occasions.extensions import NOT_READ, MaybeRead
from occasions.models import AttendanceAnnouncement, Occasion, PriceListItem, Sale, SaleLine

CENT = Decimal("0.01")
Category = PriceListItem.Category


@dataclass(frozen=True)
class CategoryCount:
    category: str
    label: str
    quantity: int
    amount: Decimal


@dataclass(frozen=True)
class DoorCounts:
    """What the door sold, voided sales left out: a count and the money for each category."""

    categories: tuple[CategoryCount, ...]
    total: Decimal
    receipts: int
    voided: int

    def quantity(self, category: str) -> int:
        return next((c.quantity for c in self.categories if c.category == category), 0)

    @property
    def admissions(self) -> int:
        return self.quantity(Category.ADMISSION)


def count_aggregates(*, sale: str = "sale", line: str = "") -> dict[str, Any]:
    """The aggregates the counts are made of, from a query on the lines (the default) or on
    the occasion (``sale="sales"``, ``line="sales__lines__"``): one scan of the lines."""
    live, voided = (
        Q(**{f"{sale}__voided_at__isnull": True}),
        Q(**{f"{sale}__voided_at__isnull": False}),
    )
    aggregates: dict[str, Any] = {
        "receipts": Count(f"{line}sale", distinct=True, filter=live),
        "voided": Count(f"{line}sale", distinct=True, filter=voided),
    }
    for value in Category.values:
        in_category = live & Q(**{f"{line}category": value})
        aggregates[f"{value}__quantity"] = Sum(f"{line}quantity", filter=in_category)
        aggregates[f"{value}__amount"] = Sum(f"{line}amount", filter=in_category)
    return aggregates


def counts_of(row: Any) -> DoorCounts:
    """The counts from the aggregates of ``count_aggregates`` (a dict, or an object carrying
    them as attributes)."""
    get = row.get if isinstance(row, dict) else lambda name: getattr(row, name)
    categories = tuple(
        CategoryCount(
            category=value,
            label=label,
            quantity=get(f"{value}__quantity") or 0,
            amount=Decimal(get(f"{value}__amount") or 0).quantize(CENT),
        )
        for value, label in Category.choices
    )
    return DoorCounts(
        categories=categories,
        total=sum((c.amount for c in categories), Decimal("0.00")),
        receipts=get("receipts") or 0,
        voided=get("voided") or 0,
    )


def with_sale(counts: DoorCounts, lines: Iterable[SaleLine]) -> DoorCounts:
    """The counts after one more live receipt with these lines (the counts read under the
    occasion's lock before it was saved, so nothing else came between)."""
    added: dict[str, tuple[int, Decimal]] = {}
    for line in lines:
        quantity, amount = added.get(line.category, (0, Decimal("0.00")))
        added[line.category] = (quantity + line.quantity, amount + line.amount)
    categories = tuple(
        CategoryCount(
            category=c.category,
            label=c.label,
            quantity=c.quantity + added.get(c.category, (0, 0))[0],
            amount=(c.amount + added.get(c.category, (0, Decimal(0)))[1]).quantize(CENT),
        )
        for c in counts.categories
    )
    return DoorCounts(
        categories=categories,
        total=sum((c.amount for c in categories), Decimal("0.00")),
        receipts=counts.receipts + 1,
        voided=counts.voided,
    )


def door_counts(occasion: Occasion) -> DoorCounts:
    """Counts and money by category in one aggregate query, whatever the number of sales."""
    return counts_of(
        SaleLine.objects.filter(sale__occasion=occasion).aggregate(**count_aggregates())
    )


def door_counts_of(occasions: QuerySet[Occasion]) -> dict[int, DoorCounts]:
    """``door_counts`` of each of ``occasions``, by id, in one query whatever their number (an
    occasion that sold nothing is absent: its counts are all zero)."""
    rows = (
        SaleLine.objects.filter(sale__occasion__in=occasions)
        .order_by()
        .values("sale__occasion")
        .annotate(**count_aggregates())
    )
    return {row["sale__occasion"]: counts_of(row) for row in rows}


NO_SALES = counts_of({})


def door_as_json(counts: DoorCounts) -> dict[str, Any]:
    """The counts as kept with a closed occasion's figures (``reports.kept``)."""
    return {
        "receipts": counts.receipts,
        "voided": counts.voided,
        "categories": {c.category: [c.quantity, str(c.amount)] for c in counts.categories},
    }


def door_from_json(data: dict[str, Any]) -> DoorCounts:
    """The counts kept by ``door_as_json``, as ``door_counts`` computes them."""
    row: dict[str, Any] = {"receipts": data["receipts"], "voided": data["voided"]}
    for value, (quantity, amount) in data["categories"].items():
        row[f"{value}__quantity"] = quantity
        row[f"{value}__amount"] = Decimal(amount)
    return counts_of(row)


def _closed_door(occasion: Occasion, kept: MaybeRead = NOT_READ) -> DoorCounts | None:
    """A closed occasion's counts as kept with its figures at its close, filing and amendment
    (``occasions.extensions.kept_page``, or ``kept`` if the page has read it); None for any
    other, or one not kept yet."""
    page = extensions.kept_page_once(occasion, kept)
    return page.door if page is not None else None


def door_figures(occasion: Occasion, kept: MaybeRead = NOT_READ) -> DoorCounts:
    """The door's counts as the occasion's pages show them: a closed occasion's as kept, any
    other's (or one not kept yet) counted now. One query either way (``kept``: the
    ``occasions.extensions.KeptPage`` the page has read, if it has)."""
    counts = _closed_door(occasion, kept)
    return counts if counts is not None else door_counts(occasion)


@dataclass(frozen=True)
class AttendanceCheck:
    """The attendance announced (961 CMR 3.04(5)(c)) beside the admissions sold."""

    announcement: AttendanceAnnouncement | None
    admissions_sold: int

    @property
    def announced(self) -> bool:
        return self.announcement is not None

    @property
    def difference(self) -> int | None:
        """Admissions sold less players announced: above 0, paid players who were not counted."""
        if self.announcement is None:
            return None
        return self.admissions_sold - self.announcement.players


def attendance_check(
    occasion: Occasion, counts: DoorCounts | None = None, *, read: bool = True
) -> AttendanceCheck:
    """The attendance beside the counts; ``read=False``: the announcement as the sale's
    service read it with the occasion, under its lock (``occasion.announced``)."""
    counts = counts if counts is not None else door_counts(occasion)
    if not read:
        announced = occasion.announced  # type: ignore[attr-defined]
        return AttendanceCheck(announcement=announced, admissions_sold=counts.admissions)
    announcement = (
        AttendanceAnnouncement.objects.filter(occasion=occasion)
        .select_related("announced_by")
        .first()
    )
    return AttendanceCheck(announcement=announcement, admissions_sold=counts.admissions)


#: How long the door's counts are kept at most (a sale, a void, a tally or the attendance
#: announced ends them sooner).
COUNTS_TTL = 10 * 60


def _counts_key(occasion_id: int) -> str:
    return f"occasion:{occasion_id}:door-counts"


def kept_counts(occasion: Occasion) -> tuple[DoorCounts, AttendanceCheck]:
    """The counts and the attendance for the door page's refresh, kept in the shared cache with
    the occasion's door number (``occasions.live``, part ``DOOR``), which every write that
    changes them moves: while it stands, no query; after a change, two, then kept for every
    door screen of the night. ``occasion`` is one the caller read as the organization's."""
    from occasions import live

    current = live.version(occasion.pk, live.DOOR)  # read before the database, never after
    try:
        kept = cache.get(_counts_key(occasion.pk))
    except Exception:
        kept = None
    if kept is not None and current is not None and kept[0] == current:
        counts, players = kept[1], kept[2]
    else:
        counts = door_counts(occasion)
        players = (
            AttendanceAnnouncement.objects.filter(occasion=occasion)
            .values_list("players", flat=True)
            .first()
        )
        if current is not None:
            with contextlib.suppress(Exception):  # the cache down: read again next time
                cache.set(_counts_key(occasion.pk), (current, counts, players), COUNTS_TTL)
    announced = (
        AttendanceAnnouncement(occasion_id=occasion.pk, players=players)
        if players is not None
        else None
    )
    return counts, AttendanceCheck(announcement=announced, admissions_sold=counts.admissions)


#: How many receipts the door lists at a time.
RECEIPTS_PAGE = 12


@dataclass(frozen=True)
class DoorReceipts:
    """The receipts the door lists, latest first: the night's latest (``found`` and ``before``
    None), the one numbered ``found`` (none in ``rows`` if no receipt has it), or a page of
    those numbered below ``before``. ``older``: where the page after this one starts, if any
    receipt is older than those listed."""

    rows: list[Sale]
    found: int | None = None
    before: int | None = None
    older: int | None = None

    @property
    def latest(self) -> bool:
        return self.found is None and self.before is None


def door_receipts(
    occasion: Occasion, *, found: int | None = None, before: int | None = None
) -> DoorReceipts:
    """Any receipt of the night by its number, or a page of them by number (not by offset: a
    page stays the same while the door keeps selling), each with its lines, in two queries
    whatever the number of sales."""
    sales = (
        Sale.objects.filter(occasion=occasion)
        .select_related(
            "sold_by",
            "voided_by",
            "void_witness",
            "void_witness_worker__entry__person",
            "admission_sale",
        )
        .prefetch_related(Prefetch("lines", queryset=SaleLine.objects.select_related("price_item")))
    )
    if found is not None:
        return DoorReceipts(rows=list(sales.filter(number=found)), found=found)
    if before is not None:
        sales = sales.filter(number__lt=before)
    rows = list(sales.order_by("-number")[: RECEIPTS_PAGE + 1])
    older = rows[RECEIPTS_PAGE - 1].number if len(rows) > RECEIPTS_PAGE else None
    return DoorReceipts(rows=rows[:RECEIPTS_PAGE], before=before, older=older)


#: How long a price list is kept for the door's form (a change of the list drops it sooner).
POSTED_TTL = 10 * 60


def _posted_key(occasion_id: int) -> str:
    return f"occasion:{occasion_id}:posted"


def posted_items(organization: Any, occasion_id: int) -> list[PriceListItem]:
    """The occasion's posted price list, in order, if the occasion is this organization's (an
    empty list otherwise, or if none is posted): for the door's form to read a sale's boxes.
    Kept in the shared cache, so a sale costs no query for it; the sale itself is judged
    against this copy only once a statement under the occasion's lock found it to be the list
    in the database, field for field (``sales_services``), else against the list read there."""
    key = _posted_key(occasion_id)
    try:
        kept = cache.get(key)
    except Exception:
        kept = None
    if kept is not None and kept[0] == organization.pk:
        return list(kept[1])
    items = list(
        PriceListItem.objects.filter(
            occasion_id=occasion_id, occasion__organization=organization
        ).order_by("pk")
    )
    if items:
        with contextlib.suppress(Exception):  # the cache down: read again next time
            cache.set(key, (organization.pk, items), POSTED_TTL)
    return items


def forget_posted_items(occasion_id: int) -> None:
    """The price list changed (now, and again when the change commits)."""
    from functools import partial

    from django.db import transaction

    def forget(key: str) -> None:
        with contextlib.suppress(Exception):  # the cache down: read again next time
            cache.delete(key)

    forget(_posted_key(occasion_id))
    transaction.on_commit(partial(forget, _posted_key(occasion_id)), robust=True)


def occasion_door(
    occasion: Occasion, kept: MaybeRead = NOT_READ
) -> tuple[DoorCounts, AttendanceCheck]:
    """The door's counts and the attendance as the occasion page shows them: a closed night's
    counts as kept with its figures (``kept``: the ``occasions.extensions.KeptPage`` the page
    has read, if it has); any other's as the door screens keep them in the shared cache
    (``kept_counts``: no query while the door's number stands)."""
    counts = _closed_door(occasion, kept)
    if counts is not None:
        return counts, attendance_check(occasion, counts)
    return kept_counts(occasion)

"""Reads of the door: the count by category kept for 961 CMR 3.04(4)(d)2, available at any time
during the occasion and at its close, the recent receipts, and the attendance announced."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Count, Prefetch, Q, QuerySet, Sum

from occasions import extensions
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


def _door_aggregates() -> dict[str, Any]:
    live = Q(sale__voided_at__isnull=True)
    aggregates: dict[str, Any] = {
        "receipts": Count("sale", distinct=True, filter=live),
        "voided": Count("sale", distinct=True, filter=~live),
    }
    for value in Category.values:
        in_category = live & Q(category=value)
        aggregates[f"{value}__quantity"] = Sum("quantity", filter=in_category)
        aggregates[f"{value}__amount"] = Sum("amount", filter=in_category)
    return aggregates


def _door_of(row: dict[str, Any]) -> DoorCounts:
    categories = tuple(
        CategoryCount(
            category=value,
            label=label,
            quantity=row.get(f"{value}__quantity") or 0,
            amount=Decimal(row.get(f"{value}__amount") or 0).quantize(CENT),
        )
        for value, label in Category.choices
    )
    return DoorCounts(
        categories=categories,
        total=sum((c.amount for c in categories), Decimal("0.00")),
        receipts=row.get("receipts") or 0,
        voided=row.get("voided") or 0,
    )


def door_counts(occasion: Occasion) -> DoorCounts:
    """Counts and money by category in one aggregate query, whatever the number of sales."""
    return _door_of(
        SaleLine.objects.filter(sale__occasion=occasion).aggregate(**_door_aggregates())
    )


def door_counts_of(occasions: QuerySet[Occasion]) -> dict[int, DoorCounts]:
    """``door_counts`` of each of ``occasions``, by id, in one query whatever their number (an
    occasion that sold nothing is absent: its counts are all zero)."""
    rows = (
        SaleLine.objects.filter(sale__occasion__in=occasions)
        .order_by()
        .values("sale__occasion")
        .annotate(**_door_aggregates())
    )
    return {row["sale__occasion"]: _door_of(row) for row in rows}


NO_SALES = _door_of({})


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
    return _door_of(row)


def door_figures(occasion: Occasion) -> DoorCounts:
    """The door's counts as the occasion's pages show them: a closed occasion's as kept with
    its figures at its close, filing and amendment (``occasions.extensions.kept_door``), any
    other's (or one not kept yet) counted now. One query either way."""
    if occasion.status == Occasion.Status.CLOSED:
        kept = extensions.kept_door(occasion)
        if kept is not None:
            return kept
    return door_counts(occasion)


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


def attendance_check(occasion: Occasion, counts: DoorCounts | None = None) -> AttendanceCheck:
    counts = counts if counts is not None else door_counts(occasion)
    announcement = (
        AttendanceAnnouncement.objects.filter(occasion=occasion)
        .select_related("announced_by")
        .first()
    )
    return AttendanceCheck(announcement=announcement, admissions_sold=counts.admissions)


def recent_sales(occasion: Occasion, limit: int = 12) -> list[Sale]:
    """The latest receipts first, each with its lines, in two queries."""
    return list(
        Sale.objects.filter(occasion=occasion)
        .select_related(
            "sold_by",
            "voided_by",
            "void_witness",
            "void_witness_worker__entry__person",
            "admission_sale",
        )
        .prefetch_related(Prefetch("lines", queryset=SaleLine.objects.select_related("price_item")))
        .order_by("-number")[:limit]
    )


def witnesses(occasion: Occasion) -> QuerySet[Any]:
    """The people of the organization who may witness a void, by name."""
    return (
        get_user_model()
        .objects.filter(org_roles__organization_id=occasion.organization_id)
        .distinct()
        .order_by("first_name", "last_name", "username")
    )


#: How long a price list is kept for the door's form (a change of the list drops it sooner).
POSTED_TTL = 10 * 60


def _posted_key(occasion_id: int) -> str:
    return f"occasion:{occasion_id}:posted"


def posted_items(organization: Any, occasion_id: int) -> list[PriceListItem]:
    """The occasion's posted price list, in order, if the occasion is this organization's (an
    empty list otherwise, or if none is posted): for the door's form to read a sale's boxes.
    Kept in the shared cache, so a sale costs no query for it; the sale itself is judged
    against the list read under the occasion's lock, never this copy."""
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

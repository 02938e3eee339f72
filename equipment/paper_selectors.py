"""Reads of the paper by serial: an occasion's paper against its door counts by category (the
close-out shows it, the filing judges it), the organization's paper stock, and each series
reconciled across occasions (the inspector's view). Each in a fixed number of queries."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from beano.rules.paper import PaperReconciliationFacts
from equipment.models import (
    STOCK_CATEGORY,
    CardUsage,
    CountCategory,
    PaperDestruction,
    PaperExplanation,
    PaperIssue,
    StockTake,
)
from equipment.paper_stock import with_movements
from occasions.models import Occasion
from organizations.models import CardPurchase, Organization

LABELS = dict(CountCategory.choices)


@dataclass(frozen=True)
class CategoryPaper:
    """One category of the night: sold by the door against sold by the paper's serials."""

    category: str
    label: str
    door: int
    issued: int
    returned: int
    voided: int
    used: int  # cards of purchases without serials taken out at the close-out
    open_issues: int  # issues not yet counted back

    @property
    def sold(self) -> int | None:
        """Issued − returned − voided (+ used), once every issue is counted back."""
        if self.open_issues:
            return None
        return self.issued - self.returned - self.voided + self.used

    @property
    def difference(self) -> int | None:
        return None if self.sold is None else self.sold - self.door


@dataclass(frozen=True)
class OccasionPaper:
    issues: list[PaperIssue]
    categories: list[CategoryPaper]
    explanation: PaperExplanation | None
    kept: bool  # the night's paper was taken from stock (issued, or used at the close-out)

    @property
    def not_counted_back(self) -> list[str]:
        return [
            f"{i.purchase.kind} {i.serial_from}–{i.serial_to}"
            for i in self.issues
            if i.returned is None
        ]

    @property
    def disagreements(self) -> list[str]:
        if not self.kept:
            return []
        return [
            f"{c.label}: {c.door} sold by the door, {c.sold} by serial"
            for c in self.categories
            if c.difference
        ]

    @property
    def sold_unissued(self) -> bool:
        """Paper sold at the door while none was issued to it by serial: nothing to reconcile
        the door's counts with (the Commission's exceptions report lists such a closed night)."""
        return not self.issues and any(c.door for c in self.categories)

    @property
    def flagged(self) -> bool:
        return bool(self.disagreements or self.not_counted_back)

    def facts(self, *, played: bool) -> PaperReconciliationFacts:
        return PaperReconciliationFacts(
            played=played,
            not_counted_back=tuple(self.not_counted_back),
            disagreements=tuple(self.disagreements),
            explained=bool(self.explanation and self.explanation.text.strip()),
        )


def door_counts(figures: dict[str, Any]) -> dict[str, int]:
    """The door's count of each category as the figures record it."""
    return {c["category"]: c["recorded"] for c in figures["counts"]}


def occasion_paper(occasion: Occasion, door: dict[str, int]) -> OccasionPaper:
    """The occasion's paper by serial, set against ``door`` (category → sold), in three
    queries."""
    issues = list(
        PaperIssue.objects.filter(occasion=occasion)
        .select_related("purchase", "issued_by", "returned_by")
        .order_by("purchase__card_type", "serial_from", "pk")
    )
    usages = list(CardUsage.objects.filter(occasion=occasion).select_related("purchase"))
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for i in issues:
        t = totals[STOCK_CATEGORY.get(i.purchase.card_type, "")]
        t["issued"] += i.quantity
        t["returned"] += i.returned or 0
        t["voided"] += i.voided
        t["open"] += i.returned is None
    for u in usages:
        totals[STOCK_CATEGORY.get(u.purchase.card_type, "")]["used"] += u.quantity_used
    categories = [
        CategoryPaper(
            category=key,
            label=LABELS[key],
            door=door.get(key, 0),
            issued=totals[key]["issued"],
            returned=totals[key]["returned"],
            voided=totals[key]["voided"],
            used=totals[key]["used"],
            open_issues=totals[key]["open"],
        )
        for key in STOCK_CATEGORY.values()
        if door.get(key) or key in totals
    ]
    return OccasionPaper(
        issues=issues,
        categories=categories,
        explanation=PaperExplanation.objects.filter(occasion=occasion).first(),
        kept=bool(issues or usages),
    )


def purchases_with_serials(organization: Organization) -> QuerySet[CardPurchase]:
    """The purchases paper can be issued from, with what is on hand."""
    return with_movements(
        CardPurchase.objects.filter(organization=organization, serial_from__isnull=False)
    ).order_by("card_type", "series", "serial_from")


@dataclass
class StockPage:
    purchases: list[CardPurchase]
    destructions: list[PaperDestruction]
    stock_takes: list[StockTake]


def stock_page(organization: Organization, *, recent: int = 25) -> StockPage:
    """The organization's paper stock, its latest destructions and stock-takes (three
    queries)."""
    purchases = list(
        with_movements(CardPurchase.objects.filter(organization=organization)).order_by(
            "card_type", "series", "invoice_date", "pk"
        )
    )
    destructions = PaperDestruction.objects.filter(
        purchase__organization=organization
    ).select_related("purchase", "recorded_by", "witness")[:recent]
    takes = StockTake.objects.filter(purchase__organization=organization).select_related(
        "purchase", "counted_by", "witness"
    )[:recent]
    return StockPage(purchases, list(destructions), list(takes))


@dataclass
class SeriesLine:
    """One occasion's issues of a series."""

    occasion: Occasion
    issued: int = 0
    returned: int = 0
    voided: int = 0
    open_issues: int = 0
    ranges: list[str] = field(default_factory=list)

    @property
    def sold(self) -> int | None:
        return None if self.open_issues else self.issued - self.returned - self.voided


@dataclass
class SeriesReconciliation:
    """A purchase (one series) followed across occasions: bought, each night's issue and count
    back, destroyed, stock-takes, and what should be on hand."""

    purchase: CardPurchase
    lines: list[SeriesLine] = field(default_factory=list)

    @property
    def sold(self) -> int:
        return sum(line.sold or 0 for line in self.lines)


def series_across_occasions(
    organizations: Iterable[int], *, since: dt.date | None = None
) -> list[SeriesReconciliation]:
    """Each series of the organizations, reconciled across occasions (two queries)."""
    purchases = with_movements(
        CardPurchase.objects.filter(organization_id__in=list(organizations))
    ).select_related("organization")
    issues = PaperIssue.objects.filter(purchase__in=purchases.values("pk")).select_related(
        "occasion"
    )
    if since is not None:
        issues = issues.filter(occasion__date__gte=since)
    by_purchase: dict[int, dict[int, SeriesLine]] = defaultdict(dict)
    for i in issues.order_by("occasion__date", "serial_from"):
        line = by_purchase[i.purchase_id].setdefault(i.occasion_id, SeriesLine(i.occasion))
        line.issued += i.quantity
        line.returned += i.returned or 0
        line.voided += i.voided
        line.open_issues += i.returned is None
        line.ranges.append(f"{i.serial_from}–{i.serial_to}")
    return [
        SeriesReconciliation(p, list(by_purchase.get(p.pk, {}).values()))
        for p in purchases.order_by("organization__name", "card_type", "series", "pk")
    ]

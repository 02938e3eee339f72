"""How many cards of each purchase are on hand (961 CMR 3.04(4)(e)), from the rows that move
them: bought − used − voided (cards used out of the door's serials) − issued to the door +
counted back − destroyed ± each stock-take's difference. Computed, never stored; one query per
kind of movement, whatever the number of purchases."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import F, IntegerField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from equipment.models import CardUsage, PaperDestruction, PaperIssue, StockTake
from organizations.models import CardPurchase


@dataclass(frozen=True)
class Movements:
    """One purchase's cards in and out."""

    bought: int
    used: int = 0
    voided: int = 0
    issued: int = 0
    returned: int = 0
    issue_voided: int = 0
    destroyed: int = 0
    adjusted: int = 0  # the stock-takes' differences, counted − expected

    @property
    def on_hand(self) -> int:
        return (
            self.bought
            - self.used
            - self.voided
            - self.issued
            + self.returned
            - self.destroyed
            + self.adjusted
        )

    @property
    def at_the_door(self) -> int:
        """Issued, less what came back or was voided: sold, or still out."""
        return self.issued - self.returned - self.issue_voided


def _sum(rows: QuerySet, key: str, **totals: object) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = {}
    for row in rows.values(key).annotate(**totals):
        out[row[key]] = {k: row[k] or 0 for k in totals}
    return out


def movements_of(purchase_ids: Iterable[int]) -> dict[int, Movements]:
    """Each purchase's movements, in five queries."""
    ids = list(purchase_ids)
    bought = dict(CardPurchase.objects.filter(pk__in=ids).values_list("pk", "quantity"))
    usages = _sum(
        CardUsage.objects.filter(purchase_id__in=ids),
        "purchase_id",
        used=Sum("quantity_used"),
        voided=Sum("quantity_voided"),
    )
    issues = _sum(
        PaperIssue.objects.filter(purchase_id__in=ids),
        "purchase_id",
        issued=Sum(F("serial_to") - F("serial_from") + 1),
        returned=Sum("returned"),
        issue_voided=Sum("voided"),
    )
    destroyed = _sum(
        PaperDestruction.objects.filter(purchase_id__in=ids),
        "purchase_id",
        destroyed=Sum("quantity"),
    )
    adjusted = _sum(
        StockTake.objects.filter(purchase_id__in=ids),
        "purchase_id",
        adjusted=Sum(F("counted") - F("expected")),
    )
    return {
        pk: Movements(
            bought=quantity,
            **usages.get(pk, {}),
            **issues.get(pk, {}),
            **destroyed.get(pk, {}),
            **adjusted.get(pk, {}),
        )
        for pk, quantity in bought.items()
    }


def _total(model: type, expression: object) -> Coalesce:
    rows = (
        model.objects.filter(purchase=OuterRef("pk"))
        .order_by()
        .values("purchase")
        .annotate(total=Sum(expression))
        .values("total")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), Value(0))


def with_movements(purchases: QuerySet[CardPurchase]) -> QuerySet[CardPurchase]:
    """The purchases annotated with ``used``, ``voided``, ``issued``, ``returned``,
    ``issue_voided``, ``destroyed``, ``adjusted`` and ``on_hand``, one subquery per kind (no
    join multiplies another's rows)."""
    return purchases.annotate(
        used=_total(CardUsage, F("quantity_used")),
        voided=_total(CardUsage, F("quantity_voided")),
        issued=_total(PaperIssue, F("serial_to") - F("serial_from") + 1),
        returned=_total(PaperIssue, F("returned")),
        issue_voided=_total(PaperIssue, F("voided")),
        destroyed=_total(PaperDestruction, F("quantity")),
        adjusted=_total(StockTake, F("counted") - F("expected")),
    ).annotate(
        on_hand=F("quantity")
        - F("used")
        - F("voided")
        - F("issued")
        + F("returned")
        - F("destroyed")
        + F("adjusted")
    )

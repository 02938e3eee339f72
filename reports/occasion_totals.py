"""Each occasion's figures, computed in the database as annotations so that a list of any length
costs the same queries: admissions sold and gross receipts at the door (voided sales left out),
the attendance announced (961 CMR 3.04(5)(c)), the games and the prizes awarded to winners, and
the net proceeds of the filed report.

``with_figures`` computes them from the records (what ``reports.kept`` keeps at each close,
filing and amendment); ``with_kept_figures`` reads a closed occasion's as kept and computes only
the others' (an open night's, or a closed one not yet kept), for the lists and exports that show
them: the same figures, without totalling a closed night's sale lines and winners again."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from beano.rules.money import money_column
from games.models import Game, Winner
from occasions.models import Occasion, PriceListItem, SaleLine
from reports.models import FinancialReport

MONEY = money_column()


def _total(queryset: QuerySet, group: str, field: str, *, money: bool) -> Coalesce:
    """The sum of ``field`` over ``queryset`` rows of the outer occasion, 0 when there are none."""
    subquery = queryset.order_by().values(group).annotate(total=Sum(field)).values("total")[:1]
    output = MONEY if money else IntegerField()
    zero = Value(Decimal("0.00")) if money else Value(0)
    return Coalesce(Subquery(subquery, output_field=output), zero, output_field=output)


#: The figures each occasion is annotated with, and their type.
FIGURES = {
    "admissions": IntegerField(),
    "gross_receipts": MONEY,
    "prizes": MONEY,
    "games_played": IntegerField(),
    "attendance": IntegerField(),
    "net_proceeds": MONEY,
}


def with_figures(occasions: QuerySet[Occasion]) -> QuerySet[Occasion]:
    """Each occasion's figures (``FIGURES``) computed from its records."""
    return occasions.annotate(**_computed())


def with_kept_figures(occasions: QuerySet[Occasion]) -> QuerySet[Occasion]:
    """Each occasion's figures (``FIGURES``): a closed occasion's as kept (``reports.kept``),
    any other's computed from its records. One CASE per figure, whose computing branch the
    database evaluates only for the rows without kept figures: the same one query."""
    kept = Q(status=Occasion.Status.CLOSED, kept_figures__isnull=False)
    return occasions.annotate(
        **{
            name: Case(
                When(kept, then=F(f"kept_figures__{name}")),
                default=computed,
                output_field=FIGURES[name],
            )
            for name, computed in _computed().items()
        }
    )


def _computed() -> dict[str, Any]:
    live_lines = SaleLine.objects.filter(
        sale__occasion=OuterRef("pk"), sale__voided_at__isnull=True
    )
    games = (
        Game.objects.filter(occasion=OuterRef("pk"))
        .order_by()
        .values("occasion")
        .annotate(n=Count("pk"))
        .values("n")[:1]
    )
    return {
        "admissions": _total(
            live_lines.filter(category=PriceListItem.Category.ADMISSION),
            "sale__occasion",
            "quantity",
            money=False,
        ),
        "gross_receipts": _total(live_lines, "sale__occasion", "amount", money=True),
        "prizes": _total(
            Winner.objects.filter(claim__game__occasion=OuterRef("pk")),
            "claim__game__occasion",
            "share",
            money=True,
        ),
        "games_played": Coalesce(Subquery(games, output_field=IntegerField()), Value(0)),
        # Net proceeds as the current version of the filed report states them (none until filed).
        "net_proceeds": Subquery(
            FinancialReport.objects.filter(occasion=OuterRef("pk"))
            .order_by("-version")
            .annotate(net=Cast(KT("figures__net__net_proceeds"), MONEY))
            .values("net")[:1],
            output_field=MONEY,
        ),
        "attendance": F("attendance_announcement__players"),
    }

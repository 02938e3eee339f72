"""Reads for an occasion's prizes and other sales (961 CMR 3.04(3)(e), (8)(d)-(f), (9)), always
given the occasion or the organization."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import DecimalField, F, OuterRef, QuerySet, Subquery, Sum

from beano.prepared import Prepared
from beano.rules import LimitName, limits_in_force
from beano.rules.names import same_person
from beano.text import one_line
from occasions.extensions import KeptPage
from occasions.models import (
    CharityRedemption,
    CharityTicketSale,
    CharityTicketSerialAssignment,
    DoorPrize,
    Gift,
    Occasion,
    OtherSale,
    PoliceDetail,
    PrevailingPoliceRate,
    PriceListItem,
    Raffle,
    RafflePermit,
    RaffleTicketSale,
    Refund,
    Sale,
    TransportationArrangement,
    VaryingPrizesAnnouncement,
)
from organizations.models import Organization, WorkerListEntry

ZERO = Decimal("0.00")


def _sum(queryset: QuerySet, expression: str) -> Decimal:
    return queryset.aggregate(total=Sum(expression))["total"] or ZERO


def admission_receipt_exists(occasion: Occasion, number: int) -> bool:
    """Is ``number`` a standing (not voided) admission receipt of ``occasion`` (3.04(5)(b))?"""
    return Sale.objects.filter(
        occasion=occasion,
        number=number,
        voided_at__isnull=True,
        lines__category=PriceListItem.Category.ADMISSION,
    ).exists()


def door_prizes_total(occasion: Occasion) -> Decimal:
    return _sum(DoorPrize.objects.filter(occasion=occasion), "value")


def door_prize_limit(occasion: Occasion) -> Decimal | None:
    """The aggregate value of door prizes per occasion in force on its date (3.04(8)(e))."""
    return limits_in_force(occasion.date).get(LimitName.MAX_DOOR_PRIZES_OCCASION)


def prevailing_police_rate(town: str, on: dt.date) -> PrevailingPoliceRate | None:
    """The town's prevailing police rate in force on ``on`` (3.04(3)(e))."""
    return (
        PrevailingPoliceRate.objects.filter(town__iexact=one_line(town), effective_from__lte=on)
        .order_by("-effective_from")
        .first()
    )


def on_worker_list(organization: Organization, name: str, on: dt.date) -> bool:
    """Is a person of this name on the organization's worker list for the year of ``on`` and
    not removed by then? (3.04(3)(e): the police officer holds no other capacity.)"""
    names = WorkerListEntry.objects.filter(
        worker_list__organization=organization, worker_list__year=on.year
    ).exclude(removed_on__lte=on)
    return any(same_person(name, n) for n in names.values_list("person__legal_name", flat=True))


def serial_assigned(organization: Organization, serial: str, on: dt.date) -> bool:
    """Did the Commission assign ``serial`` to the organization by ``on`` (3.04(8)(f))?"""
    assignments = CharityTicketSerialAssignment.objects.filter(
        organization=organization, assigned_on__lte=on
    )
    return any(a.covers(serial) for a in assignments)


def latest_charity_sale(
    organization: Organization, serial: str, on: dt.date
) -> CharityTicketSale | None:
    """The organization's latest sale of tickets with this serial on or before ``on``: the one
    a winning ticket is matched to for the year of 3.04(8)(f)."""
    return (
        CharityTicketSale.objects.filter(
            occasion__organization=organization,
            serial_number__iexact=serial.strip(),
            sold_at__date__lte=on,
        )
        .select_related("occasion")
        .order_by("-sold_at")
        .first()
    )


def raffle_permits(organization: Organization) -> QuerySet[RafflePermit]:
    return RafflePermit.objects.filter(organization=organization)


@dataclass
class RaffleRow:
    raffle: Raffle
    tickets: int
    amount: Decimal


@dataclass
class ExtrasSummary:
    """Everything recorded at the occasion besides the games, with the running totals."""

    occasion: Occasion
    door_prize_limit: Decimal | None
    varying_prizes: VaryingPrizesAnnouncement | None
    refunds: list[Refund] = field(default_factory=list)
    door_prizes: list[DoorPrize] = field(default_factory=list)
    gifts: list[Gift] = field(default_factory=list)
    raffles: list[RaffleRow] = field(default_factory=list)
    raffle_ticket_sales: list[RaffleTicketSale] = field(default_factory=list)
    charity_sales: list[CharityTicketSale] = field(default_factory=list)
    charity_redemptions: list[CharityRedemption] = field(default_factory=list)
    other_sales: list[OtherSale] = field(default_factory=list)
    police_details: list[PoliceDetail] = field(default_factory=list)
    transportation: list[TransportationArrangement] = field(default_factory=list)

    @property
    def door_prizes_total(self) -> Decimal:
        return sum((p.value for p in self.door_prizes), ZERO)

    @property
    def door_prizes_left(self) -> Decimal | None:
        if self.door_prize_limit is None:
            return None
        return max(self.door_prize_limit - self.door_prizes_total, ZERO)

    @property
    def door_prizes_percent(self) -> int:
        if not self.door_prize_limit:
            return 0
        return min(int(self.door_prizes_total * 100 / self.door_prize_limit), 100)

    @property
    def gifts_total(self) -> Decimal:
        return sum((g.value for g in self.gifts), ZERO)

    @property
    def refunds_total(self) -> Decimal:
        return sum((r.amount for r in self.refunds), ZERO)

    @property
    def raffle_tickets_total(self) -> Decimal:
        return sum((r.amount for r in self.raffles), ZERO)

    @property
    def charity_sales_total(self) -> Decimal:
        return sum((s.amount for s in self.charity_sales), ZERO)

    @property
    def charity_tickets_sold(self) -> int:
        return sum(s.quantity for s in self.charity_sales)

    @property
    def charity_redemptions_total(self) -> Decimal:
        return sum((r.prize_amount for r in self.charity_redemptions), ZERO)

    @property
    def other_sales_total(self) -> Decimal:
        return sum((s.amount for s in self.other_sales), ZERO)

    @property
    def other_sales_by_kind(self) -> list[tuple[str, Decimal]]:
        totals: dict[str, Decimal] = {}
        for s in self.other_sales:
            label = s.get_kind_display()
            totals[label] = totals.get(label, ZERO) + s.amount
        return sorted(totals.items())

    @property
    def police_total(self) -> Decimal:
        return sum((p.amount for p in self.police_details), ZERO)


def extras_summary(occasion: Occasion) -> ExtrasSummary:
    """The occasion's prizes and other sales, in a fixed number of queries."""
    raffles = Raffle.objects.filter(occasion=occasion).select_related("permit")
    raffle_rows = [
        RaffleRow(r, r.tickets or 0, r.amount or ZERO)
        for r in raffles.annotate(
            tickets=Sum("ticket_sales__quantity"), amount=Sum("ticket_sales__amount")
        )
    ]
    return ExtrasSummary(
        occasion=occasion,
        door_prize_limit=door_prize_limit(occasion),
        varying_prizes=VaryingPrizesAnnouncement.objects.filter(occasion=occasion).first(),
        refunds=list(Refund.objects.filter(occasion=occasion)),
        door_prizes=list(DoorPrize.objects.filter(occasion=occasion)),
        gifts=list(Gift.objects.filter(occasion=occasion).select_related("authorization")),
        raffles=raffle_rows,
        raffle_ticket_sales=list(
            RaffleTicketSale.objects.filter(raffle__occasion=occasion).select_related("raffle")
        ),
        charity_sales=list(CharityTicketSale.objects.filter(occasion=occasion)),
        charity_redemptions=list(CharityRedemption.objects.filter(occasion=occasion)),
        other_sales=list(OtherSale.objects.filter(occasion=occasion)),
        police_details=list(PoliceDetail.objects.filter(occasion=occasion)),
        transportation=list(
            TransportationArrangement.objects.filter(occasion=occasion).select_related(
                "authorization"
            )
        ),
    )


@dataclass(frozen=True)
class ExtrasTotals:
    """What the occasion page's card shows of the prizes and other sales: the totals only."""

    door_prize_limit: Decimal | None
    door_prizes_total: Decimal
    raffle_tickets_total: Decimal
    charity_sales_total: Decimal
    other_sales_total: Decimal
    police_total: Decimal


#: The totals of ``ExtrasTotals`` read from the records (and kept with a closed night's figures).
EXTRAS_TOTALS = tuple(name for name in ExtrasTotals.__dataclass_fields__ if name.endswith("_total"))


def extras_totals(occasion: Occasion, kept: KeptPage | None = None) -> ExtrasTotals:
    """The card's totals: a closed night's as kept with its figures (``kept``: what the page has
    read of them), else totalled in one query (``extras_summary`` reads every row of twelve
    kinds, for the extras page that lists them; the same sums, tested against it)."""
    totals = kept.extras if kept is not None else None
    if totals is None:
        totals = _cents(_EXTRAS_TOTALS.all(occasion.pk)[0])
    return ExtrasTotals(door_prize_limit=door_prize_limit(occasion), **totals)


def extras_totals_of(occasions: QuerySet[Occasion]) -> dict[int, dict[str, Decimal]]:
    """Each occasion's totals, in one query whatever their number (what ``reports.kept``
    keeps)."""
    return {row.pop("pk"): _cents(row) for row in occasions.order_by().values("pk", **_totals())}


def extras_as_json(totals: dict[str, Decimal]) -> dict[str, str]:
    return {name: str(totals[name]) for name in EXTRAS_TOTALS}


def extras_from_json(data: dict[str, str]) -> dict[str, Decimal] | None:
    """The totals kept by ``extras_as_json``; None when none were kept."""
    return {name: Decimal(data[name]) for name in EXTRAS_TOTALS} if data else None


def _cents(row: dict[str, Any]) -> dict[str, Decimal]:
    return {name: Decimal(str(row[name] or 0)).quantize(ZERO) for name in EXTRAS_TOTALS}


_MONEY = DecimalField(max_digits=14, decimal_places=2)


def _total(model: type, path: str, amount: Any) -> Subquery:
    """The sum of ``amount`` over ``model``'s rows of the outer occasion."""
    rows = (
        model.objects.filter(**{path: OuterRef("pk")})
        .order_by()
        .values(path)
        .annotate(total=Sum(amount, output_field=_MONEY))
        .values("total")
    )
    return Subquery(rows, output_field=_MONEY)


def _totals() -> dict[str, Subquery]:
    return {
        "door_prizes_total": _total(DoorPrize, "occasion", "value"),
        "raffle_tickets_total": _total(RaffleTicketSale, "raffle__occasion", "amount"),
        "charity_sales_total": _total(CharityTicketSale, "occasion", F("price") * F("quantity")),
        "other_sales_total": _total(OtherSale, "occasion", "amount"),
        "police_total": _total(PoliceDetail, "occasion", "amount"),
    }


#: Read on every view of an open occasion's page: compiled once per process.
_EXTRAS_TOTALS = Prepared(
    lambda occasion_id: Occasion.objects.filter(pk=occasion_id).values(**_totals())
)


def charity_tickets_sold(organization: Organization, serial: str, on: dt.date) -> int:
    """How many tickets of this serial the organization sold on or before ``on``."""
    return (
        CharityTicketSale.objects.filter(
            occasion__organization=organization,
            serial_number__iexact=serial.strip(),
            sold_at__date__lte=on,
        ).aggregate(n=Sum("quantity"))["n"]
        or 0
    )


def charity_redemptions(organization: Organization, serial: str) -> int:
    """How many tickets of this serial the organization has redeemed."""
    return CharityRedemption.objects.filter(
        organization=organization, serial_number__iexact=serial.strip()
    ).count()

"""The sections of an occasion's financial report, each computed from the rows the night
recorded (and the bookkeeper's close-out) into its typed record (``reports.figure_records``).
The definitions they follow are stated once, in ``reports.figures``."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, Sum
from django.utils import timezone

from beano.rules.money import cents, usd
from beano.rules.workers import WorkerRole
from equipment.models import STOCK_CATEGORY, CardUsage, CountCategory
from games.models import Game, JackpotLedgerEntry, Winner
from occasions.models import (
    AttendanceAnnouncement,
    CharityRedemption,
    CharityTicketSale,
    DoorPrize,
    Gift,
    Occasion,
    OtherSale,
    PaperRecord,
    PoliceDetail,
    PriceListItem,
    RaffleTicketSale,
    Refund,
    SaleLine,
    WorkerPresence,
)
from reports.figure_records import (
    Attendance,
    CharityTickets,
    ClosedLate,
    CountFigure,
    DoorPrizeFigure,
    DoorPrizes,
    ExpenseLine,
    Expenses,
    GameFigure,
    JackpotFigure,
    Memo,
    OccasionPart,
    OrganizationPart,
    PaperFigure,
    PartFigure,
    Prizes,
    Provenance,
    Receipts,
    SaleLineFigure,
    ShareFigure,
    StockFigure,
    VarianceFigure,
    WinnerFigure,
    WorkerFigure,
)
from reports.models import CloseOut, Expense, ExpenseKind

ZERO = Decimal("0.00")


def total(values: Iterable[Any]) -> Decimal:
    return sum((Decimal(v) for v in values), ZERO)


def person_time(value: dt.datetime | None) -> str | None:
    return timezone.localtime(value).isoformat(timespec="minutes") if value else None


def _name(user: Any) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else "system"


def organization_part(occasion: Occasion) -> OrganizationPart:
    organization, license = occasion.organization, occasion.license
    return OrganizationPart(
        name=organization.name,
        street=organization.street,
        town=organization.town,
        zip=organization.zip_code,
        telephone=organization.telephone,
        federal_id=organization.federal_id,
        license_number=license.number,
        premises=f"{license.premises_name}, {license.premises_address}",
        local_licensing_authority=license.local_licensing_authority,
    )


def occasion_part(occasion: Occasion, workers: list[WorkerFigure]) -> OccasionPart:
    return OccasionPart(
        id=occasion.pk,
        date=occasion.date.isoformat(),
        played=occasion.status != Occasion.Status.NOT_PLAYED,
        status=occasion.status,
        not_played_reason=occasion.not_played_reason,
        members_in_charge=[w.name for w in workers if w.role_code == WorkerRole.MEMBER_IN_CHARGE],
        opened_at=person_time(occasion.opened_at),
        closed_at=person_time(occasion.closed_at),
    )


def _sale_lines(occasion: Occasion) -> list[SaleLineFigure]:
    """Door sales by posted price (number sold × price), voided sales left out."""
    rows = (
        SaleLine.objects.filter(sale__occasion=occasion, sale__voided_at__isnull=True)
        .values("category", "price_item__label", "unit_price")
        .annotate(quantity=Sum("quantity"), amount=Sum("amount"))
        .order_by("category", "price_item__label")
    )
    order = {value: i for i, value in enumerate(PriceListItem.Category.values)}
    labels = dict(PriceListItem.Category.choices)
    return sorted(
        (
            SaleLineFigure(
                category=r["category"],
                category_label=labels.get(r["category"], r["category"]),
                label=r["price_item__label"],
                unit_price=cents(r["unit_price"]),
                quantity=r["quantity"] or 0,
                amount=cents(r["amount"] or ZERO),
            )
            for r in rows
        ),
        key=lambda line: (order.get(line.category, 99), line.label),
    )


def receipts(occasion: Occasion) -> Receipts:
    """Door sales and charity game tickets sold, less refunds paid to patrons (3.04(8)(d))."""
    lines = _sale_lines(occasion)
    sold = list(CharityTicketSale.objects.filter(occasion=occasion).values("price", "quantity"))
    charity = CharityTickets(
        quantity=sum(c["quantity"] for c in sold),
        amount=cents(total(c["price"] * c["quantity"] for c in sold)),
    )
    door_total = total(line.amount for line in lines)
    refunded = Refund.objects.filter(occasion=occasion).values_list("amount", flat=True)
    refunds = cents(total(refunded))
    return Receipts(
        lines=lines,
        door_total=cents(door_total),
        charity_game_tickets=charity,
        refunds=refunds,
        gross_receipts=cents(door_total + charity.amount - refunds),
    )


def quantities_sold(receipts: Receipts) -> dict[str, int]:
    """Cards sold by category, and charity game tickets, as the close-out counts them."""
    quantities: dict[str, int] = defaultdict(int)
    for line in receipts.lines:
        quantities[line.category] += line.quantity
    quantities[CountCategory.CHARITY_TICKETS] = receipts.charity_game_tickets.quantity
    return dict(quantities)


def _unit_values(receipts: Receipts) -> dict[str, Decimal]:
    """The money one card of a category stands for, to value a count's difference."""
    totals: dict[str, list[Decimal]] = defaultdict(lambda: [ZERO, ZERO])
    for line in receipts.lines:
        totals[line.category][0] += line.amount
        totals[line.category][1] += line.quantity
    values = {c: (a / q if q else ZERO) for c, (a, q) in totals.items()}
    charity = receipts.charity_game_tickets
    if charity.quantity:
        values[CountCategory.CHARITY_TICKETS] = charity.amount / charity.quantity
    return values


class _PrizeTally:
    """The prize totals by kind and the cash paid out to winners, added up game by game."""

    def __init__(self) -> None:
        self.cash = self.merchandise_at_cost = self.donated_fair_value = ZERO
        self.cash_paid = ZERO

    def add(self, winner: Winner, donated: bool) -> None:
        if winner.kind == Winner.Kind.CASH:
            self.cash += winner.share
        elif donated:
            self.donated_fair_value += winner.share
        else:
            self.merchandise_at_cost += winner.share
        payout = getattr(winner, "payout", None)
        if payout is not None and winner.kind == Winner.Kind.CASH:
            self.cash_paid += payout.amount

    def prizes(self) -> Prizes:
        expensed = self.cash + self.merchandise_at_cost
        return Prizes(
            cash=cents(self.cash),
            merchandise_at_cost=cents(self.merchandise_at_cost),
            donated_fair_value=cents(self.donated_fair_value),
            total=cents(total((self.cash, self.merchandise_at_cost, self.donated_fair_value))),
            expensed=cents(expensed),
        )


def _winner(w: Winner) -> WinnerFigure:
    payout = getattr(w, "payout", None)
    shares = list(payout.form5754_shares.all()) if payout is not None else []
    return WinnerFigure(
        name=w.player_name,
        share=cents(w.share),
        kind=w.kind,
        substitute=w.substitute_description,
        paid=payout is not None,
        w2g=bool(payout and payout.w2g_required),
        form5754=[ShareFigure(s.legal_name, cents(s.amount)) for s in shares] if shares else None,
    )


def _game(game: Game, tally: _PrizeTally) -> GameFigure:
    won: dict[int, list[Winner]] = defaultdict(list)
    for claim in game.claims.all():
        winner = getattr(claim, "winner", None)
        if winner is not None:
            won[claim.part_id].append(winner)
    parts = []
    for part in sorted(game.parts.all(), key=lambda p: p.order):
        for w in won.get(part.pk, []):
            tally.add(w, part.donated)
        parts.append(
            PartFigure(
                order=part.order,
                arrangement=part.arrangement.name,
                kind=part.kind,
                bonus=part.is_bonus,
                donated=part.donated,
                description=part.description,
                amount=cents(part.amount) if part.amount is not None else None,
                winners=[_winner(w) for w in won.get(part.pk, [])],
            )
        )
    return GameFigure(
        number=game.number,
        half=game.half,
        kind=game.kind,
        kind_label=game.get_kind_display(),
        status=game.status,
        calls=game.calls_made,
        parts=parts,
    )


def games(occasion: Occasion) -> tuple[list[GameFigure], Prizes, Decimal]:
    """Every game with its arrangements, prizes and winners; the prize totals by kind; the cash
    paid out to winners."""
    winners = Winner.objects.select_related("claim", "payout").order_by("claim__claimed_at", "pk")
    rows = (
        Game.objects.filter(occasion=occasion)
        .order_by("number")
        .annotate(calls_made=Count("calls", distinct=True))
        .prefetch_related(
            "parts__arrangement",
            Prefetch("claims__winner", queryset=winners),
            "claims__winner__payout__form5754_shares",
        )
    )
    tally = _PrizeTally()
    out = [_game(game, tally) for game in rows]
    return out, tally.prizes(), tally.cash_paid


def door_prizes(occasion: Occasion) -> DoorPrizes:
    items = [
        DoorPrizeFigure(
            description=d.description,
            winner=d.winner_name,
            value=cents(d.value),
            donated=d.donated,
            kind="door prize",
        )
        for d in DoorPrize.objects.filter(occasion=occasion)
    ] + [
        DoorPrizeFigure(
            description=g.description,
            winner=g.recipient,
            value=cents(g.value),
            donated=False,
            kind=g.get_kind_display().lower(),
        )
        for g in Gift.objects.filter(occasion=occasion)
    ]
    return DoorPrizes(
        items=items,
        total=cents(total(d.value for d in items)),
        expensed=cents(total(d.value for d in items if not d.donated)),
    )


def charity_redemptions(occasion: Occasion) -> Decimal:
    redeemed = CharityRedemption.objects.filter(occasion=occasion)
    return cents(total(redeemed.values_list("prize_amount", flat=True)))


def jackpots(occasion: Occasion) -> list[JackpotFigure]:
    entries = JackpotLedgerEntry.objects.filter(occasion=occasion).select_related(
        "series", "game__game"
    )
    return [
        JackpotFigure(
            series=e.series.name,
            game=e.game.game.number,
            carried_in=cents(e.carried_in),
            added=cents(e.added),
            paid=cents(e.paid),
            paid_kind=e.paid_kind,
            carried_out=cents(e.carried_out),
        )
        for e in entries
    ]


def expenses(occasion: Occasion) -> Expenses:
    """The close-out's expenses and the police details' bills."""
    police_kind = ExpenseKind.objects.filter(source=ExpenseKind.Source.POLICE).first()
    lines = [
        ExpenseLine(
            kind=e.kind.code,
            kind_label=e.kind.name,
            payee=e.payee,
            description=e.description,
            reference=e.invoice_reference,
            amount=cents(e.amount),
            source="close-out",
        )
        for e in Expense.objects.filter(occasion=occasion).select_related("kind")
    ]
    lines += [
        ExpenseLine(
            kind=police_kind.code if police_kind else "police_detail",
            kind_label=police_kind.name if police_kind else "Police detail",
            payee=p.officer_name,
            description=f"{p.hours} h × {usd(p.hourly_rate)} ({p.department_town})",
            reference="",
            amount=cents(p.amount),
            source="police detail",
        )
        for p in PoliceDetail.objects.filter(occasion=occasion)
    ]
    return Expenses(lines=lines, total=cents(total(e.amount for e in lines)))


def counts(closeout: CloseOut | None, receipts: Receipts) -> list[CountFigure]:
    """Each category sold or counted: the records against the close-out's count."""
    recorded = quantities_sold(receipts)
    unit_values = _unit_values(receipts)
    counted = {c.category: c.counted for c in closeout.counts.all()} if closeout else {}
    out = []
    for value, label in CountCategory.choices:
        sold = recorded.get(value, 0)
        if not sold and value not in counted:
            continue
        count = counted.get(value)
        difference = None if count is None else count - sold
        out.append(
            CountFigure(
                category=value,
                label=label,
                recorded=sold,
                counted=count,
                difference=difference,
                value_difference=(
                    None if difference is None else cents(difference * unit_values.get(value, ZERO))
                ),
            )
        )
    return out


def above_threshold(
    counts: list[CountFigure], cash_variance: Decimal | None, threshold: Decimal
) -> list[VarianceFigure]:
    """The differences, in money, above the threshold the close-out must explain."""
    above = [
        VarianceFigure(c.label, c.value_difference)
        for c in counts
        if c.value_difference is not None and abs(c.value_difference) > threshold
    ]
    if cash_variance is not None and abs(cash_variance) > threshold:
        above.append(VarianceFigure("Cash", cash_variance))
    return above


def attendance(occasion: Occasion, receipts: Receipts) -> Attendance:
    announcement = AttendanceAnnouncement.objects.filter(occasion=occasion).first()
    admissions = quantities_sold(receipts).get(PriceListItem.Category.ADMISSION, 0)
    return Attendance(
        announced=announcement.players if announcement else None,
        admissions_sold=admissions,
        difference=(announcement.players - admissions) if announcement else None,
    )


def workers(occasion: Occasion) -> list[WorkerFigure]:
    presences = WorkerPresence.objects.filter(occasion=occasion).select_related("entry__person")
    return [
        WorkerFigure(
            name=p.entry.person.legal_name,
            worker_id=p.entry.person.commission_worker_id,
            role=p.get_role_display(),
            role_code=p.role,
            identification=p.identification,
            signed_in=person_time(p.signed_in_at),
            signed_out=person_time(p.signed_out_at),
        )
        for p in presences
    ]


def memo(occasion: Occasion) -> Memo:
    raffle = RaffleTicketSale.objects.filter(raffle__occasion=occasion)
    other = OtherSale.objects.filter(occasion=occasion)
    return Memo(
        raffle_tickets=cents(total(raffle.values_list("amount", flat=True))),
        other_sales=cents(total(other.values_list("amount", flat=True))),
    )


def provenance(occasion: Occasion) -> Provenance:
    """What of the night was entered after the fact: each part entered from its paper control
    sheets (the period, the sheets, why, who entered it and when), and a close recorded after
    the night (when the night ended, when and by whom the close was recorded, and why). Part of
    the figures, so it is frozen at filing and printed with them (DESIGN, "Moments and
    provenance")."""
    records = PaperRecord.objects.filter(occasion=occasion).select_related("entered_by")
    closed_late = None
    if occasion.close_recorded_at is not None:
        closed_late = ClosedLate(
            closed_at=person_time(occasion.closed_at),
            recorded_at=person_time(occasion.close_recorded_at),
            recorded_by=_name(occasion.closed_by),
            reason=occasion.close_reason,
        )
    return Provenance(
        from_paper=[
            PaperFigure(
                scope=r.scope,
                period=r.period_label,
                starts_at=person_time(r.starts_at),
                ends_at=person_time(r.ends_at),
                sheets=r.sheets,
                reason=r.reason,
                source=r.get_source_display(),
                file_name=r.file_name,
                entered_by=_name(r.entered_by),
                entered_at=person_time(r.created_at),
            )
            for r in records
        ],
        closed_late=closed_late,
    )


def stock(occasion: Occasion) -> list[StockFigure]:
    """Cards taken out of the inventory for this occasion at its close-out (3.04(4)(e))."""

    rows = (
        CardUsage.objects.filter(occasion=occasion)
        .select_related("purchase")
        .order_by("purchase__card_type", "pk")
    )
    return [
        StockFigure(
            card_type=u.purchase.card_type,
            category=STOCK_CATEGORY.get(u.purchase.card_type, ""),
            stock=str(u.purchase),
            used=u.quantity_used,
            voided=u.quantity_voided,
        )
        for u in rows
    ]

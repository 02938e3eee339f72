"""CSV exports of the inspector's lists: exactly the rows the current filter selects, streamed
row by row so that a large export never sits in memory. Payouts carry the TIN's last four
digits only; the sealed TIN and ID numbers never leave the database."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import (
    DateTimeField,
    Exists,
    IntegerField,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from beano.rules.cards import ball_label
from beano.rules.models import RefusedAction
from beano.rules.money import usd
from games.models import BallCall, Game, Payout, PrizePart
from occasions.models import Occasion, SaleLine
from reports import obligations as owed
from reports.models import CloseOut, FinancialReport
from reports.occasion_totals import MONEY, with_kept_figures

CHUNK = 2000


def _who(user: Any) -> str:
    return user.get_username() if user is not None else "system"


def _with_report(occasions: QuerySet[Occasion]) -> QuerySet[Occasion]:
    """The current filed version of each occasion's report, and its Beano tax as filed."""
    current = FinancialReport.objects.filter(occasion=OuterRef("pk")).order_by("-version")
    first = FinancialReport.objects.filter(occasion=OuterRef("pk")).order_by("version")
    return occasions.annotate(
        report_version=Subquery(current.values("version")[:1], output_field=IntegerField()),
        first_filed_at=Subquery(first.values("filed_at")[:1], output_field=DateTimeField()),
        report_tax=Subquery(
            current.annotate(tax=Cast(KT("figures__tax__total_due"), MONEY)).values("tax")[:1],
            output_field=MONEY,
        ),
        amendment_open=Exists(
            CloseOut.objects.filter(occasion=OuterRef("pk"), amendment_opened_at__isnull=False)
        ),
    )


def report_status(o: Occasion, due_on: Callable[[dt.date], dt.date], today: dt.date) -> str:
    """The state of the occasion's report as every page says it (``reports.obligations``), with
    its versions: "late", "filed late, amended (version 2)", "filed, amendment open"."""
    filed_on = timezone.localtime(o.first_filed_at).date() if o.first_filed_at else None
    state = owed.state_of_occasion(o, due_on=due_on, today=today, filed_on=filed_on)
    said = owed.OCCASION_LABELS[state].lower()
    if o.report_version is None:
        return said
    if o.amendment_open:
        return f"{said}, amendment open (version {o.report_version} filed)"
    return said if o.report_version == 1 else f"{said}, amended (version {o.report_version})"


def occasion_rows(occasions: QuerySet[Occasion]) -> Iterator[list[Any]]:
    rows = _with_report(
        with_kept_figures(occasions.select_related("organization", "license"))
    ).order_by("-date", "organization__name")
    due_on, today = owed.due_dates(), timezone.localdate()
    for o in rows.iterator(chunk_size=CHUNK):
        yield [
            o.organization.name,
            o.organization.town,
            o.license.number,
            o.date.isoformat(),
            o.get_status_display(),
            o.opened_at,
            o.closed_at,
            o.admissions,
            o.attendance,
            o.gross_receipts,
            o.games_played,
            o.prizes,
            report_status(o, due_on, today),
            o.report_tax,
            o.net_proceeds,
        ]


def _void_witness(sale: Any) -> str:
    if sale.void_witness_worker_id:
        return f"{sale.void_witness_worker.entry.person.legal_name} (attested on paper)"
    return sale.void_witness.get_username() if sale.void_witness_id else ""


def sale_rows(occasions: QuerySet[Occasion]) -> Iterator[list[Any]]:
    lines = (
        SaleLine.objects.filter(sale__occasion__in=occasions)
        .select_related(
            "sale__occasion__organization",
            "sale__sold_by",
            "sale__admission_sale",
            "sale__voided_by",
            "sale__void_witness",
            "sale__void_witness_worker__entry__person",
            "price_item",
        )
        .order_by(
            "-sale__occasion__date", "sale__occasion__organization__name", "sale__number", "pk"
        )
    )
    for line in lines.iterator(chunk_size=CHUNK):
        sale = line.sale
        yield [
            sale.occasion.organization.name,
            sale.occasion.date.isoformat(),
            sale.number,
            sale.admission_sale.number if sale.admission_sale else "",
            sale.sold_at,
            _who(sale.sold_by),
            line.get_category_display(),
            line.price_item.label,
            line.quantity,
            line.unit_price,
            line.amount,
            sale.is_voided,
            sale.void_reason,
            _who(sale.voided_by) if sale.is_voided else "",
            _void_witness(sale),
        ]


def game_rows(occasions: QuerySet[Occasion]) -> Iterator[list[Any]]:
    games = (
        Game.objects.filter(occasion__in=occasions)
        .select_related("occasion__organization")
        .prefetch_related(
            Prefetch("parts", queryset=PrizePart.objects.select_related("arrangement")),
            Prefetch("claims__winner"),
        )
        .order_by("-occasion__date", "occasion__organization__name", "number")
    )
    for game in games.iterator(chunk_size=CHUNK):
        parts = list(game.parts.all())
        winners = [c.winner for c in game.claims.all() if hasattr(c, "winner")]
        yield [
            game.occasion.organization.name,
            game.occasion.date.isoformat(),
            game.number,
            game.half,
            game.get_kind_display(),
            game.get_status_display(),
            "; ".join(
                f"{p.arrangement.name} {usd(p.amount)}{' (bonus)' if p.is_bonus else ''}"
                for p in parts
            ),
            game.balls_confirmed_at,
            game.started_at,
            game.finished_at,
            len(winners),
            sum((w.share for w in winners), Decimal("0.00")),
        ]


def call_rows(occasions: QuerySet[Occasion]) -> Iterator[list[Any]]:
    calls = (
        BallCall.objects.filter(game__occasion__in=occasions)
        .select_related("game__occasion__organization", "called_by", "voided_by")
        .order_by(
            "-game__occasion__date",
            "game__occasion__organization__name",
            "game__number",
            "sequence",
        )
    )
    for call in calls.iterator(chunk_size=CHUNK):
        yield [
            call.game.occasion.organization.name,
            call.game.occasion.date.isoformat(),
            call.game.number,
            call.sequence,
            ball_label(call.number),
            call.called_at,
            _who(call.called_by),
            call.voided_at is not None,
            call.voided_at,
            call.void_reason,
        ]


def payout_rows(occasions: QuerySet[Occasion]) -> Iterator[list[Any]]:
    payouts = (
        Payout.objects.filter(winner__claim__game__occasion__in=occasions)
        .select_related(
            "winner__claim__game__occasion__organization",
            "winner__claim__part__arrangement",
            "paid_by",
            "verified_by",
        )
        .order_by(
            "-winner__claim__game__occasion__date",
            "winner__claim__game__occasion__organization__name",
            "winner__claim__game__number",
            "paid_at",
            "pk",
        )
    )
    for p in payouts.iterator(chunk_size=CHUNK):
        game = p.winner.claim.game
        yield [
            game.occasion.organization.name,
            game.occasion.date.isoformat(),
            game.number,
            p.winner.claim.part.arrangement.name,
            p.winner.player_name,
            p.winner.share,
            p.amount,
            p.paid_at,
            _who(p.paid_by),
            _who(p.verified_by),
            p.w2g_required,
            p.w2g_legal_name,
            p.tin_last4,
            p.backup_withholding,
        ]


def refused_rows(refusals: QuerySet[RefusedAction]) -> Iterator[list[Any]]:
    for r in refusals.iterator(chunk_size=CHUNK):
        yield [
            r.created_at,
            r.username,
            r.organization_name,
            r.action,
            r.on_date.isoformat(),
            r.citations,
            " | ".join(v.get("message", "") for v in r.violations),
        ]


@dataclass(frozen=True)
class Export:
    header: tuple[str, ...]
    rows: Callable[[QuerySet[Any]], Iterator[list[Any]]]


#: Every export of occasions' records; each takes the filtered occasions.
OCCASION_EXPORTS: dict[str, Export] = {
    "occasions": Export(
        (
            "organization",
            "town",
            "license",
            "date",
            "status",
            "opened at",
            "closed at",
            "admissions sold",
            "attendance announced",
            "gross receipts (door sales)",
            "games",
            "prizes awarded",
            "report status",
            "Beano tax (as filed)",
            "net proceeds (as filed)",
        ),
        occasion_rows,
    ),
    "sales": Export(
        (
            "organization",
            "occasion",
            "receipt",
            "against receipt",
            "sold at",
            "sold by",
            "category",
            "item",
            "quantity",
            "unit price",
            "amount",
            "voided",
            "void reason",
            "voided by",
            "void witness",
        ),
        sale_rows,
    ),
    "games": Export(
        (
            "organization",
            "occasion",
            "game",
            "half",
            "kind",
            "status",
            "prizes announced",
            "75 balls confirmed at",
            "started at",
            "finished at",
            "winners",
            "prizes awarded",
        ),
        game_rows,
    ),
    "calls": Export(
        (
            "organization",
            "occasion",
            "game",
            "sequence",
            "ball",
            "called at",
            "called by",
            "voided",
            "voided at",
            "void reason",
        ),
        call_rows,
    ),
    "payouts": Export(
        (
            "organization",
            "occasion",
            "game",
            "arrangement",
            "winner",
            "share",
            "paid",
            "paid at",
            "paid by",
            "verified by",
            "W-2G required",
            "W-2G name",
            "TIN (last four)",
            "backup withholding",
        ),
        payout_rows,
    ),
}
REFUSED_EXPORT = Export(
    ("when", "who", "organization", "action", "judged for", "citations", "messages"),
    refused_rows,
)

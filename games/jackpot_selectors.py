"""Reads of progressive jackpot series: the terms the next occasion carries, the ledger with its
running totals, and an occasion's progressive games. Always given the organization (or an
object of it already checked by the caller)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import QuerySet

from beano.rules import LimitName, Limits, limits_in_force
from beano.rules.jackpots import next_calls, next_jackpot
from games.models import Game, JackpotLedgerEntry, ProgressiveGame, ProgressiveSeries
from occasions.models import Occasion
from organizations.models import Organization

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Terms:
    """What a series' game carries at an occasion: the jackpot and the calls allowed."""

    carried_in: Decimal
    jackpot: Decimal
    calls_allowed: int


def last_entry(series: ProgressiveSeries) -> JackpotLedgerEntry | None:
    return (
        JackpotLedgerEntry.objects.filter(series=series)
        .select_related("game", "occasion")
        .order_by("-occasion__date")
        .first()
    )


def next_terms(series: ProgressiveSeries, on: dt.date, limits: Limits | None = None) -> Terms:
    """The terms of the series' next game, on ``on``, from its ledger and announced rules: the
    starting amount and calls at the first occasion; after one not won, the amount carried out
    plus the increment (stopped at the cap and the maximum in force that day) and the calls
    plus their increase (3.04(6)(h))."""
    last = last_entry(series)
    if last is None:
        return Terms(ZERO, series.starting_amount, series.calls_allowed)
    limits = limits if limits is not None else limits_in_force(on)
    maximum = limits.get(LimitName.MAX_PROGRESSIVE_JACKPOT)
    return Terms(
        carried_in=last.carried_out,
        jackpot=next_jackpot(last.carried_out, series.increment, series.cap, maximum),
        calls_allowed=next_calls(last.game.calls_allowed, series.calls_increment),
    )


def pending_game(series: ProgressiveSeries) -> ProgressiveGame | None:
    """The series' game attached to an occasion whose outcome is not yet recorded."""
    return (
        ProgressiveGame.objects.filter(series=series, outcome=ProgressiveGame.Outcome.PENDING)
        .select_related("game", "occasion")
        .first()
    )


@dataclass(frozen=True)
class SeriesLine:
    series: ProgressiveSeries
    jackpot: Decimal | None  # the jackpot now (tonight's, or the next occasion's); None if won
    calls_allowed: int | None
    pending: ProgressiveGame | None
    occasions: int


def series_lines(organization: Organization, today: dt.date) -> list[SeriesLine]:
    """Every series of the organization with its jackpot now, newest first."""
    lines = []
    limits = limits_in_force(today)
    series_qs = ProgressiveSeries.objects.filter(organization=organization).select_related(
        "arrangement"
    )
    for series in series_qs:
        pending = pending_game(series)
        jackpot: Decimal | None = None
        calls: int | None = None
        if pending is not None:
            jackpot, calls = pending.jackpot_amount, pending.calls_allowed
        elif series.is_active:
            terms = next_terms(series, today, limits)
            jackpot, calls = terms.jackpot, terms.calls_allowed
        lines.append(
            SeriesLine(series, jackpot, calls, pending, series.ledger.count())  # type: ignore[attr-defined]
        )
    return lines


@dataclass(frozen=True)
class LedgerRow:
    entry: JackpotLedgerEntry
    total_added: Decimal
    total_paid: Decimal

    @property
    def balanced(self) -> bool:
        e = self.entry
        return e.carried_in + e.added - e.paid == e.carried_out


def ledger(series: ProgressiveSeries) -> list[LedgerRow]:
    """The series' ledger occasion by occasion, with running totals of what was added and paid
    (their difference is always the amount carried out of the last row)."""
    rows = []
    added = paid = ZERO
    entries = (
        JackpotLedgerEntry.objects.filter(series=series)
        .select_related("occasion", "game__game", "recorded_by")
        .order_by("occasion__date")
    )
    for entry in entries:
        added += entry.added
        paid += entry.paid
        rows.append(LedgerRow(entry, added, paid))
    return rows


def progressive_games(occasion: Occasion) -> QuerySet[Game]:
    """The occasion's progressive games, each with its series' terms if attached."""
    return (
        Game.objects.filter(occasion=occasion, kind=Game.Kind.PROGRESSIVE)
        .select_related("progressive__series", "progressive__ledger_entry")
        .order_by("number")
    )


def attachable_series(organization: Organization) -> QuerySet[ProgressiveSeries]:
    return ProgressiveSeries.objects.filter(
        organization=organization, status=ProgressiveSeries.Status.ACTIVE
    ).order_by("name")

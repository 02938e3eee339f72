"""The legal figures in force on a date. Figures are dated rows (LawLimit), never constants:
a 2025 occasion is judged by the figures in force in 2025."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import models


class LimitName(models.TextChoices):
    BEANO_TAX_RATE = "beano_tax_rate", "Beano tax, share of gross receipts"
    REPORT_DUE_DAYS = "report_due_days", "Financial report due, days after the occasion"
    MAX_PRIZE_SINGLE_GAME = "max_prize_single_game", "Maximum prize, single game"
    MAX_BONUS_PRIZE = "max_bonus_prize", "Maximum bonus prize"
    MAX_PROGRESSIVE_JACKPOT = "max_progressive_jackpot", "Maximum progressive jackpot"
    MAX_TOTAL_PRIZES_OCCASION = "max_total_prizes_occasion", "Maximum total prizes per occasion"
    MAX_PROGRESSIVE_GAMES = "max_progressive_games", "Progressive jackpot games per occasion"
    HOURS_START = "hours_start", "Earliest hour of play (hour of day)"
    HOURS_END = "hours_end", "Latest hour of play (hour of day)"
    RECORDS_RETENTION_YEARS = "records_retention_years", "Retention of records, years"
    MAX_DOOR_PRIZES_OCCASION = (
        "max_door_prizes_occasion",
        "Door prizes, aggregate per occasion",
    )
    MIN_ADMISSION = "min_admission", "Minimum admission charge"
    MAX_ORGANIZATIONS_PER_WORKER = "max_orgs_per_worker", "Organizations a worker may assist a year"
    MIN_FAMILY_WORKER_AGE = "min_family_worker_age", "Minimum age of a family member on the list"
    CALLER_CONVICTION_YEARS = "caller_conviction_years", "Caller: years without a conviction"
    CHARITY_TICKET_MAX_KEEP = "charity_max_keep", "Charity game tickets: licensee keeps at most"
    CHARITY_TICKET_MIN_PRIZES = "charity_min_prizes", "Charity game tickets: prizes at least"
    W2G_THRESHOLD = "w2g_threshold", "Single win needing Form W-2G"
    LATE_INTEREST_RATE = "late_interest_rate", "Interest on late payment, a year"
    LICENSE_FEE = "license_fee", "License fee, a year"


@dataclass(frozen=True)
class Limits:
    """The figures in force on ``on``. A missing or blank figure means "no limit known"."""

    on: dt.date
    values: dict[str, Decimal | None] = field(default_factory=dict)

    def get(self, name: str) -> Decimal | None:
        return self.values.get(name)

    def require(self, name: str) -> Decimal:
        value = self.values.get(name)
        if value is None:
            raise LookupError(f"no figure for {name} is in force on {self.on}")
        return value


#: The cache key of every dated figure (the LawLimit table is a few dozen rows, read by nearly
#: every write): kept in the shared cache, dropped whenever a row is saved or deleted
#: (``forget_limits``, connected in ``RulesConfig.ready``), and after ``LIMITS_TTL`` anyway.
LIMITS_KEY = "rules:law-limits:v1"
LIMITS_TTL = 10 * 60


def _limit_rows() -> list[tuple[str, dt.date, Decimal | None]]:
    """Every figure as (name, effective_from, value), by name and date: from the cache, else
    one query (and kept). A cache that cannot be reached costs the query, nothing else."""
    from django.core.cache import cache

    from beano.rules.models import LawLimit

    try:
        rows = cache.get(LIMITS_KEY)
    except Exception:
        rows = None
    if rows is None:
        rows = list(
            LawLimit.objects.order_by("name", "effective_from").values_list(
                "name", "effective_from", "value"
            )
        )
        with contextlib.suppress(Exception):  # the cache down: read again next time
            cache.set(LIMITS_KEY, rows, LIMITS_TTL)
    return rows


def forget_limits(**kwargs: object) -> None:
    """A figure was changed: the next reader reads the table again."""
    from django.core.cache import cache

    with contextlib.suppress(Exception):  # the cache down: read again next time
        cache.delete(LIMITS_KEY)


def limits_in_force(on: dt.date) -> Limits:
    """For each figure, the row of the LawLimit table with the latest effective date ≤ ``on``."""
    values: dict[str, Decimal | None] = {}
    for name, effective_from, value in _limit_rows():
        if effective_from <= on:
            values[name] = value
    return Limits(on=on, values=values)


def limits_history() -> Callable[[dt.date], Limits]:
    """Every dated figure read in one query, for judging many dates (a list of occasions): the
    function returned gives the figures in force on a date, as ``limits_in_force`` would."""
    from beano.rules.models import LawLimit

    rows = list(
        LawLimit.objects.order_by("name", "effective_from").values_list(
            "name", "effective_from", "value"
        )
    )

    def on(day: dt.date) -> Limits:
        values: dict[str, Decimal | None] = {}
        for name, effective_from, value in rows:
            if effective_from <= day:
                values[name] = value
        return Limits(on=day, values=values)

    return on

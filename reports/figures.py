"""The figures of an occasion's financial report, computed from the rows the night recorded and
the bookkeeper's close-out; nothing is typed twice.

Layout follows the Commission's own return for a Beano occasion: receipts by category
and the tax on gross receipts (M.G.L. c. 10 § 39), then prizes and expenses, then net proceeds.

Definitions, stated once here and printed on the report:

- Gross receipts: what the door sold by category (961 CMR 3.04(4)(d)2), voided sales left out,
  plus charity game tickets sold, less refunds paid to patrons (3.04(8)(d)).
- Beano tax: gross receipts × the rate in force on the occasion's date, to the cent (half up);
  interest for a late filing: tax × the yearly rate in force × days late / 365.
- Prizes: cash; merchandise at cost; donated merchandise at fair market value. All count toward
  the prize totals; donated merchandise is never an expense (3.04(8)(c)).
- Net proceeds: gross receipts − prizes paid for (cash and merchandise at cost) − door prizes
  and gifts bought − charity game prizes redeemed − expenses − tax (and interest).
- Cash expected in the box: the opening bank + door sales + charity tickets sold − refunds −
  cash prizes paid − charity game prizes redeemed at the occasion.

Money is carried as Decimal and written to JSON as strings with two decimals.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import asdict, dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings

from beano.rules.limits import LimitName, limits_in_force
from beano.rules.money import cents
from equipment.models import STOCK_CATEGORY
from occasions.models import Occasion
from reports import cash_figures, extensions
from reports import figure_sections as section
from reports.figure_records import Cash, CharityGame, Figures, Net, Receipts, Tax, Variance
from reports.figure_sections import ZERO
from reports.models import CloseOut

__all__ = [
    "SCHEMA",
    "STOCK_CATEGORY",
    "ZERO",
    "cents",
    "compute_figures",
    "differences",
    "digest",
    "figures_of",
    "late_filing",
    "to_json",
    "variance_threshold",
]

SCHEMA = "beano-financial-report/1"
DAYS_A_YEAR = Decimal(365)


def variance_threshold() -> Decimal:
    """Above this many dollars a difference between the records and the counts is explained."""
    return Decimal(str(settings.CLOSEOUT_VARIANCE_THRESHOLD))


@dataclass(frozen=True)
class LateFiling:
    days_late: int
    interest_rate: Decimal | None


def late_filing(due_on: dt.date, filed_on: dt.date, on: dt.date) -> LateFiling:
    """Days late and the yearly interest rate in force on the occasion's date."""
    days = max((filed_on - due_on).days, 0)
    rate = limits_in_force(on).get(LimitName.LATE_INTEREST_RATE) if days else None
    return LateFiling(days, rate)


def _tax(
    occasion: Occasion, gross: Decimal, filed_on: dt.date | None, due_on: dt.date | None
) -> Tax:
    """The Beano tax on gross receipts at the rate in force, and the interest of a late filing
    (without ``filed_on`` and ``due_on``, none)."""
    rate = limits_in_force(occasion.date).get(LimitName.BEANO_TAX_RATE) or ZERO
    tax = cents(gross * rate)
    interest = ZERO
    late = LateFiling(0, None)
    if filed_on is not None and due_on is not None:
        late = late_filing(due_on, filed_on, occasion.date)
        if late.days_late and late.interest_rate:
            interest = cents(tax * late.interest_rate * late.days_late / DAYS_A_YEAR)
    return Tax(
        rate=rate,
        gross_receipts=gross,
        tax=tax,
        days_late=late.days_late,
        interest_rate=late.interest_rate,
        interest=interest,
        total_due=cents(tax + interest),
    )


def _cash(
    closeout: CloseOut | None, receipts: Receipts, cash_paid: Decimal, redemptions: Decimal
) -> Cash:
    """The cash expected in the box against the cash counted."""
    opening_bank = closeout.opening_bank if closeout else ZERO
    charity = receipts.charity_game_tickets.amount
    expected = cents(
        opening_bank + receipts.door_total + charity - receipts.refunds - cash_paid - redemptions
    )
    counted = closeout.cash_counted if closeout else None
    return Cash(
        opening_bank=cents(opening_bank),
        door_sales=receipts.door_total,
        charity_tickets=charity,
        refunds=receipts.refunds,
        cash_prizes_paid=cents(cash_paid),
        charity_prizes_redeemed=redemptions,
        expected=expected,
        counted=None if counted is None else cents(counted),
        variance=None if counted is None else cents(counted - expected),
    )


def figures_of(
    occasion: Occasion, *, filed_on: dt.date | None = None, due_on: dt.date | None = None
) -> Figures:
    """The report's figures, section by section. ``filed_on`` and ``due_on`` decide the
    interest on a late filing; without them no interest is computed."""
    closeout = CloseOut.objects.filter(occasion=occasion).prefetch_related("counts").first()
    receipts = section.receipts(occasion)
    gross = receipts.gross_receipts
    tax = _tax(occasion, gross, filed_on, due_on)
    games, prizes, cash_paid = section.games(occasion)
    door_prizes = section.door_prizes(occasion)
    redemptions = section.charity_redemptions(occasion)
    expenses = section.expenses(occasion)
    net = Net(
        gross_receipts=gross,
        prizes=prizes.expensed,
        door_prizes=door_prizes.expensed,
        charity_prizes=redemptions,
        expenses=expenses.total,
        tax=tax.total_due,
        net_proceeds=cents(
            gross
            - prizes.expensed
            - door_prizes.expensed
            - redemptions
            - expenses.total
            - tax.total_due
        ),
    )
    counts = section.counts(closeout, receipts)
    cash = _cash(closeout, receipts, cash_paid, redemptions)
    threshold = variance_threshold()
    workers = section.workers(occasion)
    return Figures(
        schema=SCHEMA,
        organization=section.organization_part(occasion),
        occasion=section.occasion_part(occasion, workers),
        receipts=receipts,
        tax=tax,
        games=games,
        prizes=prizes,
        door_prizes=door_prizes,
        jackpots=section.jackpots(occasion),
        charity_game_tickets=CharityGame(
            sold=receipts.charity_game_tickets.quantity,
            receipts=receipts.charity_game_tickets.amount,
            prizes_redeemed=redemptions,
        ),
        expenses=expenses,
        net=net,
        counts=counts,
        stock=section.stock(occasion),
        cash=cash,
        variance=Variance(
            threshold=threshold,
            above_threshold=section.above_threshold(counts, cash.variance, threshold),
            explanation=closeout.explanation if closeout else "",
        ),
        attendance=section.attendance(occasion, receipts),
        workers=workers,
        memo=section.memo(occasion),
        provenance=section.provenance(occasion),
        voids=cash_figures.voids(occasion),
        drawer=extensions.cash().drawer_figure(occasion),
        deposit=extensions.cash().deposit_figure(occasion),
    )


def compute_figures(
    occasion: Occasion, *, filed_on: dt.date | None = None, due_on: dt.date | None = None
) -> dict[str, Any]:
    """The report's figures as plain data (Decimals, ints, strings): what is filed, hashed and
    printed."""
    return asdict(figures_of(occasion, filed_on=filed_on, due_on=due_on))


def to_json(figures: dict[str, Any]) -> Any:
    """Plain JSON: money as strings with two decimals, rates as given."""

    def plain(value: Any) -> Any:
        if isinstance(value, Decimal):
            return f"{value:.2f}" if value.as_tuple().exponent == -2 else str(value.normalize())
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return value

    return plain(figures)


def digest(figures_json: Any) -> str:
    """The SHA-256 of the figures in canonical JSON: what the filing and the PDF are tied to."""
    canonical = json.dumps(figures_json, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


SUMMARY_KEYS = ("kind_label", "label", "name", "payee", "description", "reference", "amount")


def summary(item: Any) -> Any:
    """One line for a row of a list (an expense, a worker, a disbursement) in a change list."""
    if not isinstance(item, dict):
        return item
    parts = [str(item[k]) for k in SUMMARY_KEYS if item.get(k) not in (None, "")]
    return " · ".join(parts) if parts else json.dumps(item, sort_keys=True)


def differences(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """What changed between two versions' figures, as paths with the old and new values. Rows
    added to or taken from a list are named by a one-line summary."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[dict[str, Any]] = []
        for key in sorted(set(old) | set(new)):
            out += differences(old.get(key), new.get(key), f"{path}.{key}" if path else key)
        return out
    if isinstance(old, list) and isinstance(new, list):
        if len(old) == len(new):
            out = []
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                name = a.get("label") if isinstance(a, dict) and a.get("label") else i
                out += differences(a, b, f"{path}[{name}]")
            return out
        key = lambda item: json.dumps(item, sort_keys=True)  # noqa: E731
        before, after = {key(i) for i in old}, {key(i) for i in new}
        return [
            {"path": path, "old": summary(i), "new": None} for i in old if key(i) not in after
        ] + [{"path": path, "old": None, "new": summary(i)} for i in new if key(i) not in before]
    if old != new:
        return [{"path": path, "old": old, "new": new}]
    return []

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
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Count, Prefetch, Sum
from django.utils import timezone

from beano.rules.limits import LimitName, limits_in_force
from beano.rules.money import cents
from beano.rules.workers import WorkerRole
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
from reports.models import CloseOut, CountCategory, Expense, ExpenseKind

SCHEMA = "beano-financial-report/1"
ZERO = Decimal("0.00")
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


def _m(value: Decimal) -> str:
    return f"{cents(value):.2f}"


def _sum(values: Any) -> Decimal:
    return sum((Decimal(v) for v in values), ZERO)


def _person_time(value: dt.datetime | None) -> str | None:
    return timezone.localtime(value).isoformat(timespec="minutes") if value else None


def _receipts(occasion: Occasion) -> tuple[list[dict[str, Any]], dict[str, int], dict[str, Any]]:
    """Door sales by posted price (number sold × price), voided sales left out."""
    rows = (
        SaleLine.objects.filter(sale__occasion=occasion, sale__voided_at__isnull=True)
        .values("category", "price_item__label", "unit_price")
        .annotate(quantity=Sum("quantity"), amount=Sum("amount"))
        .order_by("category", "price_item__label")
    )
    order = {value: i for i, value in enumerate(PriceListItem.Category.values)}
    labels = dict(PriceListItem.Category.choices)
    lines = sorted(
        (
            {
                "category": r["category"],
                "category_label": labels.get(r["category"], r["category"]),
                "label": r["price_item__label"],
                "unit_price": cents(r["unit_price"]),
                "quantity": r["quantity"] or 0,
                "amount": cents(r["amount"] or ZERO),
            }
            for r in rows
        ),
        key=lambda line: (order.get(line["category"], 99), line["label"]),
    )
    quantities: dict[str, int] = defaultdict(int)
    for line in lines:
        quantities[line["category"]] += line["quantity"]
    charity = CharityTicketSale.objects.filter(occasion=occasion).values("price", "quantity")
    charity_lines = list(charity)
    charity_quantity = sum(c["quantity"] for c in charity_lines)
    charity_amount = _sum(c["price"] * c["quantity"] for c in charity_lines)
    quantities[CountCategory.CHARITY_TICKETS] = charity_quantity
    return lines, dict(quantities), {"quantity": charity_quantity, "amount": cents(charity_amount)}


def _unit_values(lines: list[dict[str, Any]], charity: dict[str, Any]) -> dict[str, Decimal]:
    """The money one card of a category stands for, to value a count's difference."""
    totals: dict[str, list[Decimal]] = defaultdict(lambda: [ZERO, ZERO])
    for line in lines:
        totals[line["category"]][0] += line["amount"]
        totals[line["category"]][1] += line["quantity"]
    values = {c: (a / q if q else ZERO) for c, (a, q) in totals.items()}
    if charity["quantity"]:
        values[CountCategory.CHARITY_TICKETS] = charity["amount"] / charity["quantity"]
    return values


def _games(occasion: Occasion) -> tuple[list[dict[str, Any]], dict[str, Decimal], Decimal]:
    """Every game with its arrangements, prizes and winners; the prize totals by kind; the cash
    paid out to winners."""
    winners = Winner.objects.select_related("claim", "payout").order_by("claim__claimed_at", "pk")
    games = (
        Game.objects.filter(occasion=occasion)
        .order_by("number")
        .annotate(calls_made=Count("calls", distinct=True))
        .prefetch_related("parts__arrangement", Prefetch("claims__winner", queryset=winners))
    )
    totals = {"cash": ZERO, "merchandise_at_cost": ZERO, "donated_fair_value": ZERO}
    cash_paid = ZERO
    out: list[dict[str, Any]] = []
    for game in games:
        won: dict[int, list[Winner]] = defaultdict(list)
        for claim in game.claims.all():
            winner = getattr(claim, "winner", None)
            if winner is not None:
                won[claim.part_id].append(winner)
        parts = []
        for part in sorted(game.parts.all(), key=lambda p: p.order):
            part_winners = []
            for w in won.get(part.pk, []):
                if w.kind == Winner.Kind.CASH:
                    totals["cash"] += w.share
                elif part.donated:
                    totals["donated_fair_value"] += w.share
                else:
                    totals["merchandise_at_cost"] += w.share
                payout = getattr(w, "payout", None)
                if payout is not None and w.kind == Winner.Kind.CASH:
                    cash_paid += payout.amount
                part_winners.append(
                    {
                        "name": w.player_name,
                        "share": cents(w.share),
                        "kind": w.kind,
                        "substitute": w.substitute_description,
                        "paid": payout is not None,
                        "w2g": bool(payout and payout.w2g_required),
                    }
                )
            parts.append(
                {
                    "order": part.order,
                    "arrangement": part.arrangement.name,
                    "kind": part.kind,
                    "bonus": part.is_bonus,
                    "donated": part.donated,
                    "description": part.description,
                    "amount": cents(part.amount) if part.amount is not None else None,
                    "winners": part_winners,
                }
            )
        out.append(
            {
                "number": game.number,
                "half": game.half,
                "kind": game.kind,
                "kind_label": game.get_kind_display(),
                "status": game.status,
                "calls": game.calls_made,
                "parts": parts,
            }
        )
    return out, totals, cash_paid


def _expenses(occasion: Occasion) -> list[dict[str, Any]]:
    police_kind = ExpenseKind.objects.filter(source=ExpenseKind.Source.POLICE).first()
    lines = [
        {
            "kind": e.kind.code,
            "kind_label": e.kind.name,
            "payee": e.payee,
            "description": e.description,
            "reference": e.invoice_reference,
            "amount": cents(e.amount),
            "source": "close-out",
        }
        for e in Expense.objects.filter(occasion=occasion).select_related("kind")
    ]
    for p in PoliceDetail.objects.filter(occasion=occasion):
        lines.append(
            {
                "kind": police_kind.code if police_kind else "police_detail",
                "kind_label": police_kind.name if police_kind else "Police detail",
                "payee": p.officer_name,
                "description": f"{p.hours} h × ${p.hourly_rate} ({p.department_town})",
                "reference": "",
                "amount": cents(p.amount),
                "source": "police detail",
            }
        )
    return lines


def _counts(
    closeout: CloseOut | None,
    recorded: dict[str, int],
    unit_values: dict[str, Decimal],
) -> list[dict[str, Any]]:
    counted = {c.category: c.counted for c in closeout.counts.all()} if closeout else {}
    out = []
    for value, label in CountCategory.choices:
        sold = recorded.get(value, 0)
        if not sold and value not in counted:
            continue
        count = counted.get(value)
        difference = None if count is None else count - sold
        out.append(
            {
                "category": value,
                "label": label,
                "recorded": sold,
                "counted": count,
                "difference": difference,
                "value_difference": (
                    None if difference is None else cents(difference * unit_values.get(value, ZERO))
                ),
            }
        )
    return out


def _name(user: Any) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else "system"


def _provenance(occasion: Occasion) -> dict[str, Any]:
    """What of the night was entered after the fact: each part entered from its paper control
    sheets (the period, the sheets, why, who entered it and when), and a close recorded after
    the night (when the night ended, when and by whom the close was recorded, and why). Part of
    the figures, so it is frozen at filing and printed with them (DESIGN, "Moments and
    provenance")."""
    records = PaperRecord.objects.filter(occasion=occasion).select_related("entered_by")
    closed_late = None
    if occasion.close_recorded_at is not None:
        closed_late = {
            "closed_at": _person_time(occasion.closed_at),
            "recorded_at": _person_time(occasion.close_recorded_at),
            "recorded_by": _name(occasion.closed_by),
            "reason": occasion.close_reason,
        }
    return {
        "from_paper": [
            {
                "scope": r.scope,
                "period": r.period_label,
                "starts_at": _person_time(r.starts_at),
                "ends_at": _person_time(r.ends_at),
                "sheets": r.sheets,
                "reason": r.reason,
                "source": r.get_source_display(),
                "file_name": r.file_name,
                "entered_by": _name(r.entered_by),
                "entered_at": _person_time(r.created_at),
            }
            for r in records
        ],
        "closed_late": closed_late,
    }


#: The card inventory's types, as the close-out counts them.
STOCK_CATEGORY = {
    "admission": "admission",
    "extra_regular": "extra_regular",
    "bonus": "bonus",
    "special_game": "special",
    "winner_take_all": "winner_take_all",
}


def _stock(occasion: Occasion) -> list[dict[str, Any]]:
    """Cards taken out of the inventory for this occasion at its close-out (3.04(4)(e))."""
    from organizations.models import CardUsage

    label = f"Occasion of {occasion.date:%a %b %-d, %Y}"
    rows = (
        CardUsage.objects.filter(purchase__organization=occasion.organization, occasion_label=label)
        .select_related("purchase")
        .order_by("purchase__card_type", "pk")
    )
    return [
        {
            "card_type": u.purchase.card_type,
            "category": STOCK_CATEGORY.get(u.purchase.card_type, ""),
            "stock": str(u.purchase),
            "used": u.quantity_used,
            "voided": u.quantity_voided,
        }
        for u in rows
    ]


def compute_figures(
    occasion: Occasion, *, filed_on: dt.date | None = None, due_on: dt.date | None = None
) -> dict[str, Any]:
    """The report's figures as plain data (Decimals, ints, strings). ``filed_on`` and ``due_on``
    decide the interest on a late filing; without them no interest is computed."""
    organization = occasion.organization
    license = occasion.license
    limits = limits_in_force(occasion.date)
    closeout = CloseOut.objects.filter(occasion=occasion).prefetch_related("counts").first()
    played = occasion.status != Occasion.Status.NOT_PLAYED

    lines, recorded, charity = _receipts(occasion)
    door_total = _sum(line["amount"] for line in lines)
    refunds = cents(_sum(Refund.objects.filter(occasion=occasion).values_list("amount", flat=True)))
    gross = cents(door_total + charity["amount"] - refunds)

    rate = limits.get(LimitName.BEANO_TAX_RATE) or ZERO
    tax = cents(gross * rate)
    interest = ZERO
    days_late = 0
    interest_rate = None
    if filed_on is not None and due_on is not None:
        late = late_filing(due_on, filed_on, occasion.date)
        days_late, interest_rate = late.days_late, late.interest_rate
        if days_late and interest_rate:
            interest = cents(tax * interest_rate * days_late / DAYS_A_YEAR)

    games, prize_totals, cash_paid = _games(occasion)
    prizes_total = _sum(prize_totals.values())
    prizes_expensed = prize_totals["cash"] + prize_totals["merchandise_at_cost"]

    door_prizes = [
        {
            "description": d.description,
            "winner": d.winner_name,
            "value": cents(d.value),
            "donated": d.donated,
            "kind": "door prize",
        }
        for d in DoorPrize.objects.filter(occasion=occasion)
    ] + [
        {
            "description": g.description,
            "winner": g.recipient,
            "value": cents(g.value),
            "donated": False,
            "kind": g.get_kind_display().lower(),
        }
        for g in Gift.objects.filter(occasion=occasion)
    ]
    door_total_value = _sum(d["value"] for d in door_prizes)
    door_expensed = _sum(d["value"] for d in door_prizes if not d["donated"])

    redemptions = cents(
        _sum(
            CharityRedemption.objects.filter(occasion=occasion).values_list(
                "prize_amount", flat=True
            )
        )
    )

    jackpots = [
        {
            "series": e.series.name,
            "game": e.game.game.number,
            "carried_in": cents(e.carried_in),
            "added": cents(e.added),
            "paid": cents(e.paid),
            "paid_kind": e.paid_kind,
            "carried_out": cents(e.carried_out),
        }
        for e in JackpotLedgerEntry.objects.filter(occasion=occasion).select_related(
            "series", "game__game"
        )
    ]

    expenses = _expenses(occasion)
    expenses_total = _sum(e["amount"] for e in expenses)

    net = cents(
        gross - prizes_expensed - door_expensed - redemptions - expenses_total - tax - interest
    )

    counts = _counts(closeout, recorded, _unit_values(lines, charity))
    opening_bank = closeout.opening_bank if closeout else ZERO
    expected_cash = cents(
        opening_bank + door_total + charity["amount"] - refunds - cash_paid - redemptions
    )
    counted_cash = closeout.cash_counted if closeout else None
    cash_variance = None if counted_cash is None else cents(counted_cash - expected_cash)

    announcement = AttendanceAnnouncement.objects.filter(occasion=occasion).first()
    admissions = recorded.get(PriceListItem.Category.ADMISSION, 0)

    workers = [
        {
            "name": p.entry.person.legal_name,
            "worker_id": p.entry.person.commission_worker_id,
            "role": p.get_role_display(),
            "role_code": p.role,
            "identification": p.identification,
            "signed_in": _person_time(p.signed_in_at),
            "signed_out": _person_time(p.signed_out_at),
        }
        for p in WorkerPresence.objects.filter(occasion=occasion).select_related("entry__person")
    ]

    memo = {
        "raffle_tickets": cents(
            _sum(
                RaffleTicketSale.objects.filter(raffle__occasion=occasion).values_list(
                    "amount", flat=True
                )
            )
        ),
        "other_sales": cents(
            _sum(OtherSale.objects.filter(occasion=occasion).values_list("amount", flat=True))
        ),
    }

    threshold = variance_threshold()
    above = [
        c
        for c in counts
        if c["value_difference"] is not None and abs(c["value_difference"]) > threshold
    ]
    if cash_variance is not None and abs(cash_variance) > threshold:
        above.append({"label": "Cash", "value_difference": cash_variance})

    return {
        "schema": SCHEMA,
        "organization": {
            "name": organization.name,
            "street": organization.street,
            "town": organization.town,
            "zip": organization.zip_code,
            "telephone": organization.telephone,
            "federal_id": organization.federal_id,
            "license_number": license.number,
            "premises": f"{license.premises_name}, {license.premises_address}",
            "local_licensing_authority": license.local_licensing_authority,
        },
        "occasion": {
            "id": occasion.pk,
            "date": occasion.date.isoformat(),
            "played": played,
            "status": occasion.status,
            "not_played_reason": occasion.not_played_reason,
            "members_in_charge": [
                w["name"] for w in workers if w["role_code"] == WorkerRole.MEMBER_IN_CHARGE
            ],
            "opened_at": _person_time(occasion.opened_at),
            "closed_at": _person_time(occasion.closed_at),
        },
        "receipts": {
            "lines": lines,
            "door_total": cents(door_total),
            "charity_game_tickets": charity,
            "refunds": refunds,
            "gross_receipts": gross,
        },
        "tax": {
            "rate": rate,
            "gross_receipts": gross,
            "tax": tax,
            "days_late": days_late,
            "interest_rate": interest_rate,
            "interest": interest,
            "total_due": cents(tax + interest),
        },
        "games": games,
        "prizes": {
            "cash": cents(prize_totals["cash"]),
            "merchandise_at_cost": cents(prize_totals["merchandise_at_cost"]),
            "donated_fair_value": cents(prize_totals["donated_fair_value"]),
            "total": cents(prizes_total),
            "expensed": cents(prizes_expensed),
        },
        "door_prizes": {
            "items": door_prizes,
            "total": cents(door_total_value),
            "expensed": cents(door_expensed),
        },
        "jackpots": jackpots,
        "charity_game_tickets": {
            "sold": charity["quantity"],
            "receipts": charity["amount"],
            "prizes_redeemed": redemptions,
        },
        "expenses": {"lines": expenses, "total": cents(expenses_total)},
        "net": {
            "gross_receipts": gross,
            "prizes": cents(prizes_expensed),
            "door_prizes": cents(door_expensed),
            "charity_prizes": redemptions,
            "expenses": cents(expenses_total),
            "tax": cents(tax + interest),
            "net_proceeds": net,
        },
        "counts": counts,
        "stock": _stock(occasion),
        "cash": {
            "opening_bank": cents(opening_bank),
            "door_sales": cents(door_total),
            "charity_tickets": charity["amount"],
            "refunds": refunds,
            "cash_prizes_paid": cents(cash_paid),
            "charity_prizes_redeemed": redemptions,
            "expected": expected_cash,
            "counted": None if counted_cash is None else cents(counted_cash),
            "variance": cash_variance,
        },
        "variance": {
            "threshold": threshold,
            "above_threshold": [
                {"label": a["label"], "value": a["value_difference"]} for a in above
            ],
            "explanation": closeout.explanation if closeout else "",
        },
        "attendance": {
            "announced": announcement.players if announcement else None,
            "admissions_sold": admissions,
            "difference": (announcement.players - admissions) if announcement else None,
        },
        "workers": workers,
        "memo": memo,
        "provenance": _provenance(occasion),
    }


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

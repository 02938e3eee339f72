"""Writing a night file (``beano-night/1``): ``export`` writes an occasion as the control-sheet
pages would take it, times relative to its date, with its computed figures under ``"figures"``
(ignored on import)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from beano.rules.cards import ball_label
from games.models import Game, JackpotLedgerEntry, Payout, ProgressiveGame
from games.sealed import unseal
from nightfile.format import (
    FORMAT,
    write_money,
    write_time,
)
from occasions.models import (
    AttendanceAnnouncement,
    CharityRedemption,
    CharityTicketSale,
    DoorPrize,
    Occasion,
    OpeningCheck,
    OtherSale,
    PoliceDetail,
    RaffleTicketSale,
    Refund,
    Sale,
    VaryingPrizesAnnouncement,
    WorkerPresence,
)
from organizations.models import OrganizationRole

# Writing ---------------------------------------------------------------------------------------


def _user_name(user: Any, organization_id: int) -> str:
    """A user as the night's sheets would name them: the person they stand for."""
    if user is None:
        return ""
    role = (
        OrganizationRole.objects.filter(user=user, organization_id=organization_id)
        .exclude(person=None)
        .select_related("person")
        .first()
    )
    if role is not None:
        return role.person.legal_name
    return user.get_full_name() or user.get_username()


def export(
    occasion: Occasion, *, with_tins: bool = False, with_payees: bool = True
) -> dict[str, Any]:
    """The occasion as a night file: every act as its sheet would give it, times relative to
    its date, the door as tallies between announcements so each prize sees the door it saw.
    ``with_payees`` False: a W-2G's payee (legal name, address) is left out, as the API gives
    it (personal data is shown only to a person who passed a second factor)."""
    day = occasion.date

    def t(moment: dt.datetime | None) -> str | None:
        return write_time(moment, day)

    games = list(
        Game.objects.filter(occasion=occasion)
        .prefetch_related("parts__arrangement", "claims__winner__payout", "calls")
        .order_by("number")
    )
    attendance = AttendanceAnnouncement.objects.filter(occasion=occasion).first()
    data: dict[str, Any] = {
        "format": FORMAT,
        "license": occasion.license.number,
        "date": day.isoformat(),
        "sheets": f"Night of {day:%B %-d, %Y}, exported from the records",
        "reason": "Imported from a night file",
        **_export_opening(occasion, t),
        "door": _export_door(occasion, games, t),
        "attendance": {"players": attendance.players, "at": t(attendance.announced_at)}
        if attendance is not None
        else None,
        "second_half_at": t(occasion.second_half_started_at),
        "games": [
            _export_game(g, occasion.organization_id, t, with_tins, with_payees) for g in games
        ],
        **_export_extras(occasion, t),
        "closed_at": t(occasion.closed_at),
        "closeout": _export_closeout(occasion),
        "figures": summary_figures(occasion),
    }
    return _compact(data)


def _export_opening(occasion: Occasion, t: Any) -> dict[str, Any]:
    """The sign-in sheet, the opening checklist, the price list, the opening, varying prizes."""
    presences = WorkerPresence.objects.filter(occasion=occasion).select_related("entry__person")
    checks = list(OpeningCheck.objects.filter(occasion=occasion).order_by("confirmed_at"))
    varying = VaryingPrizesAnnouncement.objects.filter(occasion=occasion).first()
    return {
        "workers": [
            {
                "name": p.entry.person.legal_name,
                "role": p.role,
                "identification": p.identification,
                "in": t(p.signed_in_at),
                "out": t(p.signed_out_at),
            }
            for p in presences
        ],
        "opening": {
            "at": t(checks[-1].confirmed_at) if checks else None,
            "items": [c.item for c in checks],
        },
        "prices": [
            {
                "category": i.category,
                "label": i.label,
                "price": write_money(i.price),
                "package_contents": i.package_contents,
            }
            for i in occasion.price_items.order_by("pk")
        ],
        "opened_at": t(occasion.opened_at),
        "varying_prizes": {
            "at": t(varying.announced_at),
            "persons_entitled_to_play": varying.persons_entitled_to_play,
            "prizes_announced": varying.prizes_announced,
            "refunds_offered": varying.refunds_offered,
        }
        if varying is not None
        else None,
    }


def _export_extras(occasion: Occasion, t: Any) -> dict[str, Any]:
    """The extras sheet: door prizes, refunds, charity tickets, other sales, police, raffles."""
    return {
        "door_prizes": [
            {
                "at": t(p.awarded_at),
                "description": p.description,
                "value": write_money(p.value),
                "donated": p.donated,
                "winner": p.winner_name,
            }
            for p in DoorPrize.objects.filter(occasion=occasion).order_by("awarded_at", "pk")
        ],
        "refunds": [
            {"at": t(f.refunded_at), "amount": write_money(f.amount), "player": f.player_reference}
            for f in Refund.objects.filter(occasion=occasion).order_by("refunded_at", "pk")
        ],
        "charity_tickets": [
            {
                "at": t(c.sold_at),
                "game_name": c.game_name,
                "serial_number": c.serial_number,
                "quantity": c.quantity,
                "price": write_money(c.price),
                "on_premises": c.sold_on_premises,
            }
            for c in CharityTicketSale.objects.filter(occasion=occasion).order_by("sold_at", "pk")
        ],
        "charity_redemptions": [
            {
                # A redemption keeps only its date: it is written at the close of the night.
                "at": t(occasion.closed_at),
                "serial_number": r.serial_number,
                "prize_amount": write_money(r.prize_amount),
            }
            for r in CharityRedemption.objects.filter(occasion=occasion).order_by("pk")
        ],
        "other_sales": [
            {
                "at": t(o.sold_at),
                "kind": o.kind,
                "description": o.description,
                "amount": write_money(o.amount),
                "on_beano_portion": o.on_beano_portion,
            }
            for o in OtherSale.objects.filter(occasion=occasion).order_by("sold_at", "pk")
        ],
        "police_details": [
            {
                "officer": p.officer_name,
                "department": p.department_town,
                "hours": write_money(p.hours),
                "rate": write_money(p.hourly_rate),
            }
            for p in PoliceDetail.objects.filter(occasion=occasion).order_by("pk")
        ],
        "raffles": [
            {
                "permit": r.permit.permit_number,
                "prize_description": r.prize_description,
                "prize_kind": r.prize_kind,
                "ticket_price": write_money(r.ticket_price),
                "sales": [
                    {"at": t(s.sold_at), "quantity": s.quantity}
                    for s in RaffleTicketSale.objects.filter(raffle=r).order_by("sold_at", "pk")
                ],
            }
            for r in occasion.raffles.select_related("permit").order_by("pk")
        ],
    }


def _export_closeout(occasion: Occasion) -> dict[str, Any] | None:
    from reports.models import CloseOut, Expense

    closeout = CloseOut.objects.filter(occasion=occasion).prefetch_related("counts").first()
    if closeout is None:
        return None
    return {
        "opening_bank": write_money(closeout.opening_bank),
        "cash_counted": write_money(closeout.cash_counted),
        "counts": {c.category: c.counted for c in closeout.counts.all()},
        "explanation": closeout.explanation,
        "cash_verified_by": _cash_verifier(closeout),
        "expenses": [
            {
                "kind": e.kind.code,
                "payee": e.payee,
                "amount": write_money(e.amount),
                "description": e.description,
                "invoice": e.invoice_reference,
                "equipment": e.equipment.serial_number if e.equipment_id else None,
                "worker": e.worker_entry.person.legal_name if e.worker_entry_id else None,
            }
            for e in Expense.objects.filter(occasion=occasion)
            .select_related("kind", "equipment", "worker_entry__person")
            .order_by("pk")
        ],
    }


def _cash_verifier(closeout: Any) -> str | None:
    """Who verified the cash count, as the sheet names them: the worker of the night."""
    if closeout.cash_verified_by_worker_id:
        return closeout.cash_verified_by_worker.entry.person.legal_name
    if closeout.cash_verified_by_id:
        return _user_name(closeout.cash_verified_by, closeout.occasion.organization_id)
    return None


def _compact(value: Any) -> Any:
    """Leave out what the night does not have (a time not written, a ball in hand not held)."""
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


def _export_door(occasion: Occasion, games: list[Game], t: Any) -> dict[str, Any]:
    """The door's counts as tallies: the sales between two announcements counted together, at
    the time of the last of them, so that a prize announced from the door's receipts (a
    winner-take-all) sees on import the door it saw on the night; each voided receipt a void."""
    cuts = sorted(
        {p.announced_at for g in games for p in g.parts.all() if p.announced_at is not None}
    )
    segments: dict[int, dict[str, Any]] = {}
    voids = []
    sales = Sale.objects.filter(occasion=occasion).prefetch_related("lines").order_by("sold_at")
    for sale in sales:
        lines = [(line.category, line.quantity, line) for line in sale.lines.all()]
        if sale.is_voided:
            voids.append(
                {
                    "at": t(sale.voided_at),
                    "sold_at": t(sale.sold_at),
                    "lines": [{"category": c, "quantity": q} for c, q, _ in lines],
                    "reason": sale.void_reason,
                    "witness": sale.void_witness_worker.entry.person.legal_name
                    if sale.void_witness_worker_id
                    else _user_name(sale.void_witness, occasion.organization_id),
                }
            )
            continue
        index = sum(1 for c in cuts if c < sale.sold_at)
        segment = segments.setdefault(index, {"at": sale.sold_at, "counts": defaultdict(int)})
        segment["at"] = max(segment["at"], sale.sold_at)
        for category, quantity, _ in lines:
            segment["counts"][category] += quantity
    tallies = [
        {
            "at": t(seg["at"]),
            "lines": [{"category": c, "quantity": q} for c, q in sorted(seg["counts"].items())],
        }
        for _, seg in sorted(segments.items())
    ]
    return {"tallies": tallies, "voids": voids}


def _export_game(
    game: Game, org_id: int, t: Any, with_tins: bool, with_payees: bool = True
) -> dict[str, Any]:
    parts = list(game.parts.all().order_by("order"))
    order_of = {p.pk: p.order for p in parts}
    balls = sorted((b for b in game.calls.all() if b.voided_at is None), key=lambda b: b.sequence)
    out: dict[str, Any] = {
        "number": game.number,
        "half": game.half,
        "kind": game.kind,
        "parts": [],
        "balls_confirmed_at": t(game.balls_confirmed_at),
        "started_at": t(game.started_at),
        "finished_at": t(game.finished_at),
        "balls": [{"ball": ball_label(b.number), "at": t(b.called_at)} for b in balls],
        "claims": [],
    }
    winners_at: dict[int, dt.datetime] = {}
    for claim in sorted(game.claims.all(), key=lambda c: (c.claimed_at, c.pk)):
        winner = getattr(claim, "winner", None)
        row: dict[str, Any] = {
            "part": order_of[claim.part_id],
            "at": t(claim.claimed_at),
            "player": claim.player_name,
            "table": claim.table,
            "ball_in_hand": claim.ball_in_hand,
            "calling_begun": claim.calling_begun,
            "won": winner is not None,
        }
        card = claim.card_verifications.order_by("-verified_at", "-pk").first()
        if card is not None:
            if card.numbers:
                row["card"] = card.numbers
                row["whole_card"] = card.scope == "whole_card"
            row["witnesses"] = [
                {"name": w.get("name", ""), "table": w.get("table", "")} for w in card.witnesses
            ]
        if winner is not None:
            row["player"] = winner.player_name
            if winner.person_id:
                row["person"] = winner.person.legal_name
            row["substitute"] = winner.substitute_description
            winners_at[claim.part_id] = winner.recorded_at
            payout = getattr(winner, "payout", None)
            if payout is not None:
                row["payout"] = _export_payout(payout, org_id, t, with_tins, with_payees)
        out["claims"].append(row)
    for part in parts:
        out["parts"].append(
            {
                "arrangement": part.arrangement.code,
                "kind": part.kind,
                "amount": write_money(part.amount),
                "description": part.description,
                "donated": part.donated,
                "bonus": part.is_bonus,
                "announced_at": t(part.announced_at),
                "winners_at": t(winners_at.get(part.pk)),
            }
        )
    jackpot = ProgressiveGame.objects.filter(game=game).select_related("series").first()
    if jackpot is not None:
        entry = JackpotLedgerEntry.objects.filter(game=jackpot).first()
        out["jackpot"] = {
            "series": jackpot.series.name,
            "won_within_calls": bool(entry and entry.paid_kind == JackpotLedgerEntry.Paid.JACKPOT),
            "consolation_paid": bool(
                entry and entry.paid_kind == JackpotLedgerEntry.Paid.CONSOLATION
            ),
        }
    return out


def _export_payout(
    payout: Payout, org_id: int, t: Any, with_tins: bool, with_payees: bool = True
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "at": t(payout.paid_at),
        "paid_by": payout.paid_by_worker.entry.person.legal_name
        if payout.paid_by_worker_id
        else _user_name(payout.paid_by, org_id),
        "verified_by": payout.verified_by_worker.entry.person.legal_name
        if payout.verified_by_worker_id
        else _user_name(payout.verified_by, org_id),
    }
    if payout.w2g_required:
        row["w2g"] = {
            "legal_name": payout.w2g_legal_name,
            "address": payout.w2g_address,
            "backup_withholding": payout.backup_withholding,
            "id1_kind": payout.id1_kind,
            "id2_kind": payout.id2_kind,
        }
        if not with_payees:
            del row["w2g"]["legal_name"], row["w2g"]["address"]
        elif with_tins:
            row["w2g"] |= {
                "tin": unseal(payout.tin_sealed),
                "id1_number": unseal(payout.id1_number_sealed),
                "id2_number": unseal(payout.id2_number_sealed),
            }
    return row


def summary_figures(occasion: Occasion) -> dict[str, Any]:
    """The night's headline figures as dollar strings ("834.00"), from the report's figures."""
    from reports.figures import compute_figures

    f = compute_figures(occasion)
    return {
        "door_total": write_money(f["receipts"]["door_total"]),
        "gross_receipts": write_money(f["receipts"]["gross_receipts"]),
        "beano_tax": write_money(f["tax"]["tax"]),
        "prizes_total": write_money(f["prizes"]["total"]),
        "expenses_total": write_money(f["expenses"]["total"]),
        "net_proceeds": write_money(f["net"]["net_proceeds"]),
    }

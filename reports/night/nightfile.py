"""Reading and writing a night file (``beano-night/1``): ``read`` turns parsed JSON into a
``Night`` (or one ``NightFormatError``), ``export`` writes an occasion as the entry pages would
take it, with its computed figures under ``"figures"`` (ignored on import)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from beano.rules.opening import ITEMS
from beano.rules.workers import WorkerRole
from games.cards import ball_label
from games.models import Game, JackpotLedgerEntry, Payout, ProgressiveGame
from occasions.models import (
    AttendanceAnnouncement,
    CharityRedemption,
    CharityTicketSale,
    DoorPrize,
    Occasion,
    OpeningCheck,
    OtherSale,
    PoliceDetail,
    PriceListItem,
    RaffleTicketSale,
    Refund,
    Sale,
    VaryingPrizesAnnouncement,
    WorkerPresence,
)
from organizations.models import OrganizationRole
from reports.night.format import (
    FORMAT,
    Ball,
    CharitySaleRow,
    ClaimRow,
    CloseOutSheet,
    CountLine,
    DoorPrizeRow,
    DoorTally,
    DoorVoid,
    ExpenseRow,
    GameSheet,
    Jackpot,
    Night,
    NightFormatError,
    OtherSaleRow,
    Part,
    Payment,
    PoliceRow,
    PriceRow,
    RaffleRow,
    RaffleTickets,
    Reader,
    RedemptionRow,
    RefundRow,
    VaryingPrizes,
    WorkerRow,
    write_money,
    write_time,
)

CATEGORIES = set(PriceListItem.Category.values)
BALL = __import__("re").compile(r"^\s*([BINGObingo])?\s*-?\s*(\d{1,2})\s*$")
W2G_KEYS = (
    "legal_name",
    "address",
    "tin",
    "backup_withholding",
    "id1_kind",
    "id1_number",
    "id2_kind",
    "id2_number",
)


# Reading ---------------------------------------------------------------------------------------


def read(data: Any) -> Night:
    """The night a parsed night file holds, or NightFormatError saying what and where."""
    if not isinstance(data, dict):
        raise NightFormatError("The night file is not a JSON object.")
    if data.get("format") != FORMAT:
        raise NightFormatError(f'"format" must be "{FORMAT}" (found {data.get("format")!r}).')
    license_number = data.get("license")
    if not isinstance(license_number, str) or not license_number.strip():
        raise NightFormatError('"license": give the license number as text.')
    try:
        day = dt.date.fromisoformat(data.get("date") or "")
    except (TypeError, ValueError):
        raise NightFormatError(
            f'"date": {data.get("date")!r} is not a date; write it as "2026-12-04".'
        ) from None
    r = Reader(data, "night", day).only(
        "format",
        "license",
        "date",
        "sheets",
        "reason",
        "workers",
        "opening",
        "prices",
        "opened_at",
        "varying_prizes",
        "door",
        "attendance",
        "second_half_at",
        "games",
        "door_prizes",
        "refunds",
        "charity_tickets",
        "charity_redemptions",
        "other_sales",
        "police_details",
        "raffles",
        "closed_at",
        "closeout",
        "figures",
    )
    opening = Reader(data.get("opening") or {}, "night.opening", day).only("at", "items")
    items = opening.raw("items")
    if items is not None and (
        not isinstance(items, list) or any(not isinstance(i, str) or i not in ITEMS for i in items)
    ):
        raise NightFormatError(
            "night.opening.items: each item is one of " + ", ".join(sorted(ITEMS)) + "."
        )
    door = Reader(data.get("door") or {}, "night.door", day).only("tallies", "voids")
    attendance = Reader(data.get("attendance") or {}, "night.attendance", day).only("players", "at")
    return Night(
        license=license_number.strip(),
        date=day,
        sheets=r.text("sheets", required=False, limit=300) or "Night file",
        reason=r.text("reason", required=False, limit=300) or "Entered from the night file",
        workers=tuple(_worker(w) for w in r.objects("workers")),
        checklist_at=opening.time("at", required=False),
        checklist=tuple(items) if items is not None else None,
        prices=tuple(_price(p) for p in r.objects("prices")),
        opened_at=r.time("opened_at", required=False),
        varying_prizes=_varying(data.get("varying_prizes"), day),
        door=tuple(DoorTally(at=t.time("at"), lines=_lines(t)) for t in door.objects("tallies")),
        voids=tuple(_void(v) for v in door.objects("voids")),
        attendance=attendance.whole("players", high=100_000, required=False),
        attendance_at=attendance.time("at", required=False),
        second_half_at=r.time("second_half_at", required=False),
        games=tuple(_game(g) for g in r.objects("games")),
        door_prizes=tuple(
            DoorPrizeRow(
                at=p.time("at"),
                description=p.text("description"),
                value=p.money("value"),
                donated=p.flag("donated"),
                winner=p.text("winner", required=False),
            )
            for p in r.objects("door_prizes")
        ),
        refunds=tuple(
            RefundRow(at=f.time("at"), amount=f.money("amount"), player_reference=f.text("player"))
            for f in r.objects("refunds")
        ),
        charity_sales=tuple(
            CharitySaleRow(
                at=c.time("at"),
                game_name=c.text("game_name", limit=100),
                serial_number=c.text("serial_number", limit=40),
                quantity=c.whole("quantity", low=1, high=100_000),
                price=c.money("price"),
                on_premises=c.flag("on_premises", True),
            )
            for c in r.objects("charity_tickets")
        ),
        redemptions=tuple(
            RedemptionRow(
                at=c.time("at"),
                serial_number=c.text("serial_number", limit=40),
                prize_amount=c.money("prize_amount"),
            )
            for c in r.objects("charity_redemptions")
        ),
        other_sales=tuple(
            OtherSaleRow(
                at=o.time("at"),
                kind=o.text("kind", limit=30),
                description=o.text("description"),
                amount=o.money("amount"),
                on_beano_portion=o.flag("on_beano_portion"),
            )
            for o in r.objects("other_sales")
        ),
        police=tuple(
            PoliceRow(
                officer=p.text("officer"),
                department=p.text("department", limit=100),
                hours=p.money("hours"),
                rate=p.money("rate"),
            )
            for p in r.objects("police_details")
        ),
        raffles=tuple(_raffle(f) for f in r.objects("raffles")),
        closed_at=r.time("closed_at", required=False),
        closeout=_closeout(data.get("closeout"), day),
    )


def _closeout(data: Any, day: dt.date) -> CloseOutSheet | None:
    if data is None:
        return None
    c = Reader(data, "night.closeout", day).only(
        "opening_bank", "cash_counted", "counts", "explanation", "expenses"
    )
    counts = c.raw("counts") or {}
    if not isinstance(counts, dict) or any(
        isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in counts.values()
    ):
        raise NightFormatError("night.closeout.counts: whole numbers by category.")
    return CloseOutSheet(
        opening_bank=c.money("opening_bank"),
        cash_counted=c.money("cash_counted", required=False),
        counts=dict(counts),
        explanation=c.text("explanation", required=False, limit=2000),
        expenses=tuple(
            ExpenseRow(
                kind=e.only(
                    "kind", "payee", "amount", "description", "invoice", "equipment", "worker"
                ).text("kind", limit=40),
                payee=e.text("payee", required=False),
                amount=e.money("amount"),
                description=e.text("description", required=False, limit=300),
                invoice=e.text("invoice", required=False, limit=100),
                equipment=e.text("equipment", required=False, limit=100),
                worker=e.text("worker", required=False),
            )
            for e in c.objects("expenses")
        ),
    )


def _worker(w: Reader) -> WorkerRow:
    w.only("name", "role", "identification", "in", "out")
    role = w.text("role", limit=30)
    if role not in WorkerRole.values:
        raise NightFormatError(
            f"{w.where}.role: {role!r} is not a worker role (" + ", ".join(WorkerRole.values) + ")."
        )
    return WorkerRow(
        name=w.text("name"),
        role=role,
        identification=w.text("identification", required=False, limit=60),
        signed_in=w.time("in"),
        signed_out=w.time("out", required=False),
    )


def _price(p: Reader) -> PriceRow:
    category = p.text("category", limit=30)
    if category not in CATEGORIES:
        raise NightFormatError(f"{p.where}.category: {category!r} is not a price category.")
    return PriceRow(
        category=category,
        label=p.text("label", limit=100),
        price=p.money("price"),
        package_contents=p.text("package_contents", required=False),
    )


def _lines(r: Reader) -> tuple[CountLine, ...]:
    lines = []
    for line in r.objects("lines"):
        line.only("category", "quantity", "first_serial", "last_serial", "excluded")
        category = line.text("category", limit=30)
        if category not in CATEGORIES:
            raise NightFormatError(f"{line.where}.category: {category!r} is not a category.")
        excluded = line.raw("excluded") or []
        if not isinstance(excluded, list) or any(
            isinstance(n, bool) or not isinstance(n, int) for n in excluded
        ):
            raise NightFormatError(f"{line.where}.excluded: a list of serial numbers.")
        counted = CountLine(
            category=category,
            quantity=line.whole("quantity", high=100_000, required=False),
            first_serial=line.whole("first_serial", required=False),
            last_serial=line.whole("last_serial", required=False),
            excluded=tuple(excluded),
        )
        if counted.quantity is None and counted.first_serial is None:
            raise NightFormatError(f"{line.where}: give a quantity or the first and last serial.")
        lines.append(counted)
    if not lines:
        raise NightFormatError(f"{r.where}.lines: at least one category.")
    return tuple(lines)


def _void(v: Reader) -> DoorVoid:
    v.only("at", "sold_at", "lines", "reason", "witness")
    return DoorVoid(
        at=v.time("at"),
        sold_at=v.time("sold_at", required=False),
        lines=_lines(v),
        reason=v.text("reason", limit=300),
        witness=v.text("witness"),
    )


def _varying(data: Any, day: dt.date) -> VaryingPrizes | None:
    if data is None:
        return None
    v = Reader(data, "night.varying_prizes", day)
    return VaryingPrizes(
        at=v.time("at"),
        persons_entitled_to_play=v.whole("persons_entitled_to_play", high=100_000),
        prizes_announced=v.text("prizes_announced", limit=1000),
        refunds_offered=v.flag("refunds_offered", True),
    )


def _ball(value: Any, where: str, day: dt.date) -> Ball:
    at = None
    if isinstance(value, dict):
        b = Reader(value, where, day)
        at = b.time("at", required=False)
        value = value.get("ball")
    if isinstance(value, int) and not isinstance(value, bool):
        number, letter = value, ""
    else:
        match = BALL.match(value) if isinstance(value, str) else None
        if match is None:
            raise NightFormatError(f'{where}: {value!r} is not a ball (42 or "N42").')
        letter, number = (match.group(1) or "").upper(), int(match.group(2))
    return Ball(number=number, letter=letter, at=at)


def _game(g: Reader) -> GameSheet:
    g.only(
        "number",
        "half",
        "kind",
        "parts",
        "balls_confirmed_at",
        "started_at",
        "finished_at",
        "balls",
        "claims",
        "jackpot",
    )
    kind = g.text("kind", limit=30)
    if kind not in Game.Kind.values:
        raise NightFormatError(f"{g.where}.kind: {kind!r} is not a kind of game.")
    balls = g.raw("balls") or []
    if not isinstance(balls, list):
        raise NightFormatError(f"{g.where}.balls: expected a list.")
    jackpot = None
    if g.has("jackpot"):
        j = Reader(g.raw("jackpot"), f"{g.where}.jackpot", g.day)
        jackpot = Jackpot(
            series=j.text("series", limit=100),
            won_within_calls=j.flag("won_within_calls"),
            consolation_paid=j.flag("consolation_paid"),
        )
    return GameSheet(
        number=g.whole("number", low=1, high=99),
        half=g.whole("half", low=1, high=2),
        kind=kind,
        parts=tuple(_part(p) for p in g.objects("parts")),
        balls_confirmed_at=g.time("balls_confirmed_at", required=False),
        started_at=g.time("started_at", required=False),
        finished_at=g.time("finished_at", required=False),
        balls=tuple(_ball(b, f"{g.where}.balls[{i}]", g.day) for i, b in enumerate(balls)),
        claims=tuple(_claim(c) for c in g.objects("claims")),
        jackpot=jackpot,
    )


def _part(p: Reader) -> Part:
    p.only(
        "arrangement",
        "kind",
        "amount",
        "description",
        "donated",
        "bonus",
        "announced_at",
        "winners_at",
        "substitute_value",
    )
    kind = p.text("kind", limit=20) if p.has("kind") else "cash"
    if kind not in ("cash", "merchandise"):
        raise NightFormatError(f'{p.where}.kind: "cash" or "merchandise".')
    return Part(
        arrangement=p.text("arrangement", limit=50),
        kind=kind,
        amount=p.money("amount"),
        description=p.text("description", required=False),
        donated=p.flag("donated"),
        bonus=p.flag("bonus"),
        announced_at=p.time("announced_at", required=False),
        winners_at=p.time("winners_at", required=False),
        substitute_value=p.money("substitute_value", required=False),
    )


def _claim(c: Reader) -> ClaimRow:
    c.only(
        "part",
        "at",
        "player",
        "table",
        "ball_in_hand",
        "calling_begun",
        "won",
        "person",
        "substitute",
        "card",
        "whole_card",
        "witnesses",
        "payout",
    )
    card = c.raw("card")
    if card is not None and (
        not isinstance(card, dict)
        or any(isinstance(v, bool) or not isinstance(v, int) for v in card.values())
    ):
        raise NightFormatError(f'{c.where}.card: the numbers read by square, {{"B1": 7, …}}.')
    payout = None
    if c.has("payout"):
        p = Reader(c.raw("payout"), f"{c.where}.payout", c.day).only(
            "at", "paid_by", "verified_by", "w2g"
        )
        w2g = p.raw("w2g")
        if w2g is not None and (not isinstance(w2g, dict) or any(k not in W2G_KEYS for k in w2g)):
            raise NightFormatError(f"{p.where}.w2g: keys " + ", ".join(W2G_KEYS) + ".")
        payout = Payment(
            at=p.time("at"),
            paid_by=p.text("paid_by"),
            verified_by=p.text("verified_by"),
            w2g=w2g,
        )
    return ClaimRow(
        part=c.whole("part", low=1, high=20),
        at=c.time("at"),
        player=c.text("player", required=False),
        table=c.text("table", required=False, limit=40),
        ball_in_hand=c.whole("ball_in_hand", low=1, high=75, required=False),
        calling_begun=c.flag("calling_begun"),
        won=c.flag("won", True),
        person=c.text("person", required=False),
        substitute=c.text("substitute", required=False),
        card=card,
        whole_card=c.flag("whole_card"),
        witnesses=tuple(
            (w.text("name"), w.text("table", required=False, limit=40))
            for w in c.objects("witnesses")
        ),
        payout=payout,
    )


def _raffle(f: Reader) -> RaffleRow:
    return RaffleRow(
        permit=f.text("permit", limit=60),
        prize_description=f.text("prize_description"),
        prize_kind=f.text("prize_kind", limit=30),
        ticket_price=f.money("ticket_price"),
        sales=tuple(
            RaffleTickets(
                at=s.time("at"),
                quantity=s.whole("quantity", low=1, high=100_000),
                admission_receipt=s.whole("admission_receipt", low=1, required=False),
            )
            for s in f.objects("sales")
        ),
    )


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


def export(occasion: Occasion, *, with_tins: bool = False) -> dict[str, Any]:
    """The occasion as a night file: every act as its sheet would give it, times relative to
    its date, the door as tallies between announcements so each prize sees the door it saw."""
    day = occasion.date

    def t(moment: dt.datetime | None) -> str | None:
        return write_time(moment, day)

    org_id = occasion.organization_id
    presences = list(
        WorkerPresence.objects.filter(occasion=occasion).select_related("entry__person")
    )
    checks = list(OpeningCheck.objects.filter(occasion=occasion).order_by("confirmed_at"))
    data: dict[str, Any] = {
        "format": FORMAT,
        "license": occasion.license.number,
        "date": day.isoformat(),
        "sheets": f"Night of {day:%B %-d, %Y}, exported from the records",
        "reason": "Imported from a night file",
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
    }
    varying = VaryingPrizesAnnouncement.objects.filter(occasion=occasion).first()
    if varying is not None:
        data["varying_prizes"] = {
            "at": t(varying.announced_at),
            "persons_entitled_to_play": varying.persons_entitled_to_play,
            "prizes_announced": varying.prizes_announced,
            "refunds_offered": varying.refunds_offered,
        }
    games = list(
        Game.objects.filter(occasion=occasion)
        .prefetch_related("parts__arrangement", "claims__winner__payout", "calls")
        .order_by("number")
    )
    data["door"] = _export_door(occasion, games, t)
    attendance = AttendanceAnnouncement.objects.filter(occasion=occasion).first()
    if attendance is not None:
        data["attendance"] = {"players": attendance.players, "at": t(attendance.announced_at)}
    data["second_half_at"] = t(occasion.second_half_started_at)
    data["games"] = [_export_game(g, org_id, t, with_tins) for g in games]
    data["door_prizes"] = [
        {
            "at": t(p.awarded_at),
            "description": p.description,
            "value": write_money(p.value),
            "donated": p.donated,
            "winner": p.winner_name,
        }
        for p in DoorPrize.objects.filter(occasion=occasion).order_by("awarded_at", "pk")
    ]
    data["refunds"] = [
        {"at": t(f.refunded_at), "amount": write_money(f.amount), "player": f.player_reference}
        for f in Refund.objects.filter(occasion=occasion).order_by("refunded_at", "pk")
    ]
    data["charity_tickets"] = [
        {
            "at": t(c.sold_at),
            "game_name": c.game_name,
            "serial_number": c.serial_number,
            "quantity": c.quantity,
            "price": write_money(c.price),
            "on_premises": c.sold_on_premises,
        }
        for c in CharityTicketSale.objects.filter(occasion=occasion).order_by("sold_at", "pk")
    ]
    data["charity_redemptions"] = [
        {
            "at": t(_noon_or_close(occasion, r.redeemed_on)),
            "serial_number": r.serial_number,
            "prize_amount": write_money(r.prize_amount),
        }
        for r in CharityRedemption.objects.filter(occasion=occasion).order_by("pk")
    ]
    data["other_sales"] = [
        {
            "at": t(o.sold_at),
            "kind": o.kind,
            "description": o.description,
            "amount": write_money(o.amount),
            "on_beano_portion": o.on_beano_portion,
        }
        for o in OtherSale.objects.filter(occasion=occasion).order_by("sold_at", "pk")
    ]
    data["police_details"] = [
        {
            "officer": p.officer_name,
            "department": p.department_town,
            "hours": write_money(p.hours),
            "rate": write_money(p.hourly_rate),
        }
        for p in PoliceDetail.objects.filter(occasion=occasion).order_by("pk")
    ]
    data["raffles"] = [
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
    ]
    data["closed_at"] = t(occasion.closed_at)
    data["closeout"] = _export_closeout(occasion)
    data["figures"] = summary_figures(occasion)
    return _compact(data)


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


def _compact(value: Any) -> Any:
    """Leave out what the night does not have (a time not written, a ball in hand not held)."""
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


def _noon_or_close(occasion: Occasion, day: dt.date) -> dt.datetime | None:
    """A redemption keeps only its date: it is written at the close of the night."""
    return occasion.closed_at


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


def _export_game(game: Game, org_id: int, t: Any, with_tins: bool) -> dict[str, Any]:
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
                row["payout"] = _export_payout(payout, org_id, t, with_tins)
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


def _export_payout(payout: Payout, org_id: int, t: Any, with_tins: bool) -> dict[str, Any]:
    from beano.sealed import unseal

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
        if with_tins:
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

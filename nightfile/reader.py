"""Reading a night file (``beano-night/1``): ``read`` turns parsed JSON into a ``Night``, or one
``NightFormatError`` that says what is wrong and where. The format is docs/formats/night-file.md."""

from __future__ import annotations

import datetime as dt
from typing import Any

from beano.rules.money import (
    CASH,
    DOOR_PRIZE,
    EXPENSE,
    HOURLY_RATE,
    PRICE,
    PRIZE,
    REFUND,
    SALE,
    TICKET_PRICE,
)
from beano.rules.opening import ITEMS
from beano.rules.workers import WorkerRole
from games.models import Game
from nightfile.format import (
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
)
from occasions.models import (
    PriceListItem,
)

CATEGORIES = set(PriceListItem.Category.values)
BALL = __import__("re").compile(r"^\s*([BINGObingo])?\s*-?\s*([0-9]{1,2})\s*$")
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


TOP_KEYS = (
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


def read(data: Any) -> Night:
    """The night a parsed night file holds, or NightFormatError saying what and where."""
    license_number, day = _header(data)
    r = Reader(data, "night", day).only(*TOP_KEYS)
    return Night(
        license=license_number,
        date=day,
        sheets=r.text("sheets", required=False, limit=300) or "Night file",
        reason=r.text("reason", required=False, limit=300) or "Entered from the night file",
        **_floor(r, data, day),
        games=tuple(_game(g) for g in r.objects("games", most=99)),
        **_extras(r),
        raffles=tuple(_raffle(f) for f in r.objects("raffles")),
        closed_at=r.time("closed_at", required=False),
        closeout=_closeout(data.get("closeout"), day),
    )


def _header(data: Any) -> tuple[str, dt.date]:
    """The format, the license and the date, which every other value depends on."""
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
    return license_number.strip(), day


def _floor(r: Reader, data: dict[str, Any], day: dt.date) -> dict[str, Any]:
    """The floor's sheets: sign-in, checklist, prices, opening, door, attendance."""
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
    return {
        "workers": tuple(_worker(w) for w in r.objects("workers")),
        "checklist_at": opening.time("at", required=False),
        "checklist": tuple(items) if items is not None else None,
        "prices": tuple(_price(p) for p in r.objects("prices")),
        "opened_at": r.time("opened_at", required=False),
        "varying_prizes": _varying(data.get("varying_prizes"), day),
        "door": tuple(
            DoorTally(at=t.only("at", "lines").time("at"), lines=_lines(t))
            for t in door.objects("tallies")
        ),
        "voids": tuple(_void(v) for v in door.objects("voids")),
        "attendance": attendance.whole("players", high=100_000, required=False),
        "attendance_at": attendance.time("at", required=False),
        "second_half_at": r.time("second_half_at", required=False),
    }


def _extras(r: Reader) -> dict[str, Any]:
    """The extras sheet: door prizes, refunds, charity tickets, other sales, police."""
    return {
        "door_prizes": tuple(
            DoorPrizeRow(
                at=p.only("at", "description", "value", "donated", "winner").time("at"),
                description=p.text("description"),
                value=p.money("value", DOOR_PRIZE),
                donated=p.flag("donated"),
                winner=p.text("winner", required=False),
            )
            for p in r.objects("door_prizes")
        ),
        "refunds": tuple(
            RefundRow(
                at=f.only("at", "amount", "player").time("at"),
                amount=f.money("amount", REFUND),
                player_reference=f.text("player"),
            )
            for f in r.objects("refunds")
        ),
        "charity_sales": tuple(
            CharitySaleRow(
                at=c.only(
                    "at", "game_name", "serial_number", "quantity", "price", "on_premises"
                ).time("at"),
                game_name=c.text("game_name", limit=100),
                serial_number=c.text("serial_number", limit=40),
                quantity=c.whole("quantity", low=1, high=100_000),
                price=c.money("price", TICKET_PRICE),
                on_premises=c.flag("on_premises", True),
            )
            for c in r.objects("charity_tickets")
        ),
        "redemptions": tuple(
            RedemptionRow(
                at=c.only("at", "serial_number", "prize_amount").time("at"),
                serial_number=c.text("serial_number", limit=40),
                prize_amount=c.money("prize_amount", PRIZE),
            )
            for c in r.objects("charity_redemptions")
        ),
        "other_sales": tuple(
            OtherSaleRow(
                at=o.only("at", "kind", "description", "amount", "on_beano_portion").time("at"),
                kind=o.text("kind", limit=30),
                description=o.text("description"),
                amount=o.money("amount", SALE),
                on_beano_portion=o.flag("on_beano_portion"),
            )
            for o in r.objects("other_sales")
        ),
        "police": tuple(
            PoliceRow(
                officer=p.only("officer", "department", "hours", "rate").text("officer"),
                department=p.text("department", limit=100),
                hours=p.hours("hours"),
                rate=p.money("rate", HOURLY_RATE),
            )
            for p in r.objects("police_details")
        ),
    }


def _closeout(data: Any, day: dt.date) -> CloseOutSheet | None:
    if data is None:
        return None
    c = Reader(data, "night.closeout", day).only(
        "opening_bank", "cash_counted", "counts", "explanation", "expenses", "cash_verified_by"
    )
    counts = c.raw("counts") or {}
    if not isinstance(counts, dict) or any(
        isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in counts.values()
    ):
        raise NightFormatError("night.closeout.counts: whole numbers by category.")
    return CloseOutSheet(
        opening_bank=c.money("opening_bank", CASH),
        cash_counted=c.money("cash_counted", CASH, required=False),
        counts=dict(counts),
        explanation=c.text("explanation", required=False, limit=2000),
        cash_verified_by=c.text("cash_verified_by", required=False),
        expenses=tuple(
            ExpenseRow(
                kind=e.only(
                    "kind", "payee", "amount", "description", "invoice", "equipment", "worker"
                ).text("kind", limit=40),
                payee=e.text("payee", required=False),
                amount=e.money("amount", EXPENSE),
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
        price=p.money("price", PRICE),
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


def read_ball(value: Any, where: str, day: dt.date) -> Ball:
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
    if not isinstance(balls, list) or len(balls) > 75:
        raise NightFormatError(f"{g.where}.balls: a list of at most the 75 balls.")
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
        balls=tuple(read_ball(b, f"{g.where}.balls[{i}]", g.day) for i, b in enumerate(balls)),
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
        amount=p.money("amount", PRIZE),
        description=p.text("description", required=False),
        donated=p.flag("donated"),
        bonus=p.flag("bonus"),
        announced_at=p.time("announced_at", required=False),
        winners_at=p.time("winners_at", required=False),
        substitute_value=p.money("substitute_value", PRIZE, required=False),
        written=True,
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
    f.only("permit", "prize_description", "prize_kind", "ticket_price", "sales")
    return RaffleRow(
        permit=f.text("permit", limit=60),
        prize_description=f.text("prize_description"),
        prize_kind=f.text("prize_kind", limit=30),
        ticket_price=f.money("ticket_price", TICKET_PRICE),
        sales=tuple(
            RaffleTickets(
                at=s.only("at", "quantity", "admission_receipt").time("at"),
                quantity=s.whole("quantity", low=1, high=100_000),
                admission_receipt=s.whole("admission_receipt", low=1, required=False),
            )
            for s in f.objects("sales")
        ),
    )

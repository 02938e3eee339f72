"""Recording a night, or a part of one, from its control sheets: each act of the sheets becomes
a call of the same service the floor uses, at the moment written on the sheet, in the order of
those moments, inside ``occasions.paper.entering`` so the rules judge it as of that moment and
its audit event says it was entered after the fact. Nothing here decides what is allowed: the
services and the rules do, exactly as they do live.

``acts_of(night)`` turns a night into its acts; ``record(...)`` runs acts in one transaction
(all or nothing), and ``import_night`` records a whole night file on its authorized day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q

from beano import rules
from beano.rules.claims import Witness
from beano.rules.opening import CHECKLIST
from games import claims_services, draw_services, jackpot_services, payout_services
from games import program_services as program
from games.claims_services import PlayerEntry
from games.models import Arrangement, Claim, Game, PrizePart, Winner
from games.payout_services import W2GDetails
from games.program_selectors import winner_take_all_prize
from occasions import extras_services, floor_services, paper, raffle_services, sales_services
from occasions import services as occasion_services
from occasions.models import Occasion, PaperRecord, PriceListItem, Sale, WorkerPresence
from occasions.sales_services import TallyLine
from organizations.audit import acting_user, record_event
from organizations.models import License, Person, WorkerListEntry
from reports.night import format as fmt

#: The order of acts written at the same moment: what must come first on the night.
RANK = {
    name: i
    for i, name in enumerate(
        [
            "sign_in",
            "checklist",
            "open",
            "varying",
            "tally",
            "sold_void",
            "void",
            "attendance",
            "second_half",
            "announce",
            "balls",
            "start",
            "ball",
            "claim",
            "card",
            "winners",
            "payout",
            "finish",
            "settle",
            "door_prize",
            "charity",
            "redeem",
            "refund",
            "other_sale",
            "raffle",
            "police",
            "close",
            "sign_out",  # at the moment of the close, the close itself signs everyone out
            "closeout",
        ]
    )
}


def key(name: str) -> str:
    """A person's name as the sheets may write it: case and spacing do not matter."""
    return " ".join(name.split()).casefold()


@dataclass
class Night:
    """What the acts of one recording share: the occasion, who enters, and the records made so
    far that later acts name (workers by name, games by number, claims by their place)."""

    occasion: Occasion
    by: Any
    record: PaperRecord
    presences: dict[str, WorkerPresence] = field(default_factory=dict)
    games: dict[int, Game] = field(default_factory=dict)
    claims: dict[tuple[int, int], Claim] = field(default_factory=dict)
    winners: dict[tuple[int, int], Winner] = field(default_factory=dict)
    admission_receipt: int | None = None

    def refresh(self) -> None:
        self.occasion = Occasion.objects.select_related("organization", "license").get(
            pk=self.occasion.pk
        )

    def worker(self, name: str, *, what: str) -> WorkerPresence:
        """The worker of the night the sheet names (signed in at this occasion)."""
        found = self.presences.get(key(name))
        if found is None:
            for presence in (
                WorkerPresence.objects.filter(occasion=self.occasion)
                .select_related("entry__person")
                .order_by("-signed_in_at")
            ):
                if key(presence.entry.person.legal_name) == key(name):
                    found = presence
                    break
        if found is None:
            raise ValidationError(f"{what}: {name} is not signed in at this occasion.")
        return found

    def game(self, number: int) -> Game:
        found = (
            self.games.get(number)
            or Game.objects.filter(occasion=self.occasion, number=number).first()
        )
        if found is None:
            raise ValidationError(f"Game {number} is not in the program.")
        self.games[number] = found
        return found


@dataclass
class Act:
    """One act of a control sheet: its moment (None for the sheets without one: the price list
    and the program, recorded first), the sheet it is read from, and what records it."""

    at: dt.datetime | None
    kind: str
    sheet: str
    what: str
    run: Callable[[Night], Any]
    #: When it is recorded in the replay, if not at its own moment: a sale of food an hour
    #: before the doors (3.04(9)(e) allows it) is written down once the occasion is open.
    order_at: dt.datetime | None = None

    @property
    def order(self) -> tuple[Any, ...]:
        moment = self.order_at or self.at
        return (
            moment is not None,
            moment or dt.datetime.min.replace(tzinfo=dt.UTC),
            RANK[self.kind],
        )


class NightRefused(ValidationError):
    """An act of the sheets the services refused: which act, and every reason with its
    citation (a RuleViolation's, or the service's own message)."""

    def __init__(self, act: Act, error: ValidationError) -> None:
        self.act = act
        self.error = error
        if isinstance(error, rules.RuleViolation):
            self.reasons = [(v.citation, v.message) for v in error.violations]
        else:
            self.reasons = [("", m) for m in error.messages]
        when = f" at {act.at:%-I:%M %p}" if act.at else ""
        super().__init__(
            [f"{act.sheet}, {act.what}{when}: " + _reason(c, m) for c, m in self.reasons]
        )


def _reason(citation: str, message: str) -> str:
    return f"{message} ({citation})" if citation else message


def run(night: Night, acts: Iterable[Act]) -> None:
    """Record ``acts`` in the order of their moments, each from its sheet; stop at the first
    refusal (the caller's transaction then saves nothing)."""
    ordered = sorted(
        ((a.order, i, a) for i, a in enumerate(acts)), key=lambda item: (item[0], item[1])
    )
    for _, _, act in ordered:
        try:
            with paper.entering(night.record, sheet=act.sheet, by=night.by):
                act.run(night)
        except ValidationError as error:
            raise NightRefused(act, error) from error
        night.refresh()


# The acts of each sheet -----------------------------------------------------------------------


def worker_acts(rows: Sequence[fmt.WorkerRow], *, sign_outs: bool = True) -> list[Act]:
    acts = []
    for row in rows:

        def sign_in(n: Night, row: fmt.WorkerRow = row) -> None:
            entry = _listed_entry(n.occasion, row.name)
            n.presences[key(row.name)] = floor_services.sign_in_worker(
                occasion=n.occasion,
                entry=entry,
                role=row.role,
                identification=row.identification,
                by=n.by,
                at=row.signed_in,
            )

        acts.append(Act(row.signed_in, "sign_in", "Sign-in sheet", f"{row.name} in", sign_in))
        if sign_outs and row.signed_out is not None:

            def sign_out(n: Night, row: fmt.WorkerRow = row) -> None:
                presence = n.worker(row.name, what="Signing out")
                presence.refresh_from_db()
                if presence.signed_out_at is None:
                    floor_services.sign_out_worker(presence=presence, by=n.by, at=row.signed_out)

            acts.append(
                Act(row.signed_out, "sign_out", "Sign-in sheet", f"{row.name} out", sign_out)
            )
    return acts


def _listed_entry(occasion: Occasion, name: str) -> WorkerListEntry:
    """The person of the occasion's year's worker list the sign-in sheet names."""
    for entry in WorkerListEntry.objects.filter(
        worker_list__organization=occasion.organization, worker_list__year=occasion.date.year
    ).select_related("person", "worker_list"):
        if key(entry.person.legal_name) == key(name):
            return entry
    raise ValidationError(
        f"{name} is not on the worker list of {occasion.date.year}: only listed persons "
        "conduct or assist in Beano (961 CMR 3.04(1)(b))."
    )


def checklist_acts(at: dt.datetime | None, items: Sequence[str] | None) -> list[Act]:
    if at is None:
        return []
    codes = list(items) if items is not None else [item.code for item in CHECKLIST]

    def confirm(n: Night) -> None:
        for code in codes:
            floor_services.confirm_check(occasion=n.occasion, item=code, by=n.by, at=at)

    return [Act(at, "checklist", "Opening checklist", "checklist confirmed", confirm)]


def price_acts(rows: Sequence[fmt.PriceRow]) -> list[Act]:
    if not rows:
        return []

    def post(n: Night) -> None:
        occasion_services.set_price_list(
            occasion=n.occasion,
            items=[
                {
                    "category": r.category,
                    "label": r.label,
                    "price": str(r.price),
                    "package_contents": r.package_contents,
                }
                for r in rows
            ],
            by=n.by,
        )

    return [Act(None, "sign_in", "Price list", "price list posted", post)]


def open_acts(at: dt.datetime | None) -> list[Act]:
    if at is None:
        return []
    return [
        Act(
            at,
            "open",
            "Opening checklist",
            "occasion opened",
            lambda n: floor_services.open_occasion(occasion=n.occasion, by=n.by, at=at),
        )
    ]


def _tally_lines(occasion: Occasion, lines: Sequence[fmt.CountLine]) -> list[TallyLine]:
    items = {}
    for item in PriceListItem.objects.filter(occasion=occasion).order_by("pk"):
        items.setdefault(item.category, item)
    out = []
    for line in lines:
        item = items.get(line.category)
        if item is None:
            raise ValidationError(
                f"Nothing of the category {PriceListItem.Category(line.category).label.lower()} "
                "is on the posted price list (961 CMR 3.04(4)(c))."
            )
        out.append(
            TallyLine(
                item=item,
                quantity=line.quantity,
                serial_first=line.first_serial,
                serial_last=line.last_serial,
                serials_excluded=tuple(line.excluded),
            )
        )
    return out


def door_acts(tallies: Sequence[fmt.DoorTally], voids: Sequence[fmt.DoorVoid]) -> list[Act]:
    acts = []
    for i, tally in enumerate(tallies, 1):

        def count(n: Night, tally: fmt.DoorTally = tally) -> None:
            sale = sales_services.record_door_tally(
                occasion=n.occasion,
                lines=_tally_lines(n.occasion, tally.lines),
                by=n.by,
                at=tally.at,
            )
            if n.admission_receipt is None and sale.has_admission:
                n.admission_receipt = sale.number

        acts.append(Act(tally.at, "tally", "Door tally", f"count {i}", count))
    for i, void in enumerate(voids, 1):
        holder: dict[str, Sale] = {}

        def sell(n: Night, void: fmt.DoorVoid = void, holder: dict = holder) -> None:
            holder["sale"] = sales_services.record_door_tally(
                occasion=n.occasion,
                lines=_tally_lines(n.occasion, void.lines),
                by=n.by,
                at=void.sold_at or void.at,
            )

        def cancel(n: Night, void: fmt.DoorVoid = void, holder: dict = holder) -> None:
            sales_services.void_sale(
                sale=holder["sale"],
                reason=void.reason,
                witness=None,
                witness_worker=n.worker(void.witness, what="The void's witness"),
                by=n.by,
                at=void.at,
            )

        acts.append(Act(void.sold_at or void.at, "sold_void", "Door tally", f"void {i}", sell))
        acts.append(Act(void.at, "void", "Door tally", f"void {i}", cancel))
    return acts


def attendance_acts(
    players: int | None, at: dt.datetime | None, second_half: dt.datetime | None
) -> list[Act]:
    acts = []
    if players is not None and at is not None:
        acts.append(
            Act(
                at,
                "attendance",
                "Attendance",
                f"{players} players announced",
                lambda n: sales_services.announce_attendance(
                    occasion=n.occasion, players=players, by=n.by, at=at
                ),
            )
        )
    if second_half is not None:
        acts.append(
            Act(
                second_half,
                "second_half",
                "Attendance",
                "second half started",
                lambda n: sales_services.start_second_half(
                    occasion=n.occasion, by=n.by, at=second_half
                ),
            )
        )
    return acts


def varying_acts(v: fmt.VaryingPrizes | None) -> list[Act]:
    if v is None:
        return []
    return [
        Act(
            v.at,
            "varying",
            "Extras",
            "prizes varying with attendance announced",
            lambda n: extras_services.announce_varying_prizes(
                occasion=n.occasion,
                persons_entitled_to_play=v.persons_entitled_to_play,
                prizes_announced=v.prizes_announced,
                applies_to_all_games=True,
                refunds_offered=v.refunds_offered,
                by=n.by,
                at=v.at,
            ),
        )
    ]


def program_acts(sheets: Sequence[fmt.GameSheet]) -> list[Act]:
    """The program: each game and its prizes, added before anything of the night (the price
    list and the program are posted before the doors open)."""

    def plan(n: Night) -> None:
        existing = {g.number: g for g in Game.objects.filter(occasion=n.occasion)}
        for sheet in sheets:
            game = existing.get(sheet.number)
            if game is not None:
                _same_game(game, sheet)
                n.games[sheet.number] = game
                continue
            game = program.add_game(
                occasion=n.occasion, number=sheet.number, half=sheet.half, kind=sheet.kind, by=n.by
            )
            n.games[sheet.number] = game
            parts = list(sheet.parts)
            if sheet.jackpot is not None:
                series = _series(n.occasion, sheet.jackpot.series)
                jackpot_services.attach_game(game=game, series=series, by=n.by)
                parts = parts[1:]
            for part in parts:
                program.add_prize_part(
                    game=game,
                    arrangement=_arrangement(part.arrangement),
                    kind=part.kind,
                    amount=winner_take_all_prize(n.occasion)
                    if sheet.kind == Game.Kind.WINNER_TAKE_ALL
                    else part.amount,
                    description=part.description,
                    donated=part.donated,
                    is_bonus=part.bonus,
                    by=n.by,
                )

    return [Act(None, "sign_in", "Program", "program", plan)] if sheets else []


def _same_game(game: Game, sheet: fmt.GameSheet) -> None:
    if game.half != sheet.half or game.kind != sheet.kind:
        raise ValidationError(
            f"Game {game.number} of the program is a {game.get_kind_display().lower()} game of "
            f"half {game.half}; the sheet says otherwise."
        )


def _arrangement(code: str) -> Arrangement:
    found = Arrangement.objects.filter(Q(code=code) | Q(name__iexact=code)).first()
    if found is None:
        raise ValidationError(f"{code!r} is not an arrangement known to the Commission.")
    return found


def _series(occasion: Occasion, name: str) -> Any:
    from games.models import ProgressiveSeries

    found = ProgressiveSeries.objects.filter(
        organization=occasion.organization, name__iexact=name
    ).first()
    if found is None:
        raise ValidationError(f"{name!r} is not one of the organization's jackpot series.")
    return found


def game_acts(sheet: fmt.GameSheet) -> list[Act]:
    """A game sheet: announcements, balls checked, start, balls called, claims with their card
    verification, winners of each prize, payouts, finish, and a jackpot's outcome."""
    label = f"Game {sheet.number} sheet"
    num = sheet.number
    acts: list[Act] = []
    for order, part in enumerate(sheet.parts, 1):
        if part.announced_at is not None:

            def announce(n: Night, order: int = order, at: dt.datetime = part.announced_at):
                game = n.game(num)
                target = PrizePart.objects.get(game=game, order=order)
                program.announce_prize_part(part=target, by=n.by, at=at)

            acts.append(Act(part.announced_at, "announce", label, f"prize {order}", announce))
    if sheet.balls_confirmed_at is not None:
        at_balls = sheet.balls_confirmed_at
        acts.append(
            Act(
                at_balls,
                "balls",
                label,
                "75 balls checked",
                lambda n: program.confirm_balls(game=n.game(num), by=n.by, at=at_balls),
            )
        )
    if sheet.started_at is not None:
        start = sheet.started_at
        acts.append(
            Act(
                start,
                "start",
                label,
                "game started",
                lambda n: program.start_game(game=n.game(num), by=n.by, at=start),
            )
        )
        for i, ball in enumerate(sheet.balls, 1):
            moment = ball.at or start

            def call(n: Night, ball: fmt.Ball = ball, moment: dt.datetime = moment) -> None:
                draw_services.record_ball_call(
                    game=n.game(num),
                    number=f"{ball.letter}{ball.number}" if ball.letter else ball.number,
                    by=n.by,
                    at=moment,
                )

            acts.append(Act(moment, "ball", label, f"ball {i} ({ball.number})", call))
    acts += _claim_acts(sheet, label)
    if sheet.finished_at is not None:
        end = sheet.finished_at
        acts.append(
            Act(
                end,
                "finish",
                label,
                "game finished",
                lambda n: program.finish_game(game=n.game(num), by=n.by, at=end),
            )
        )
    if sheet.jackpot is not None:
        jackpot = sheet.jackpot
        moment = sheet.finished_at or sheet.started_at

        def settle(n: Night) -> None:
            from games.models import ProgressiveGame

            jackpot_services.settle_game(
                progressive_game=ProgressiveGame.objects.get(game=n.game(num)),
                won_within_calls=jackpot.won_within_calls,
                consolation_paid=jackpot.consolation_paid,
                by=n.by,
            )

        acts.append(Act(moment, "settle", label, "jackpot's outcome", settle))
    return acts


def _claim_acts(sheet: fmt.GameSheet, label: str) -> list[Act]:
    num = sheet.number
    acts: list[Act] = []
    for i, row in enumerate(sheet.claims, 1):
        who = row.player or f"claim {i}"

        def claim(n: Night, row: fmt.ClaimRow = row, i: int = i) -> None:
            game = n.game(num)
            part = PrizePart.objects.filter(game=game, order=row.part).first()
            if part is None:
                raise ValidationError(f"Game {num} has no prize {row.part}.")
            n.claims[(num, i)] = claims_services.record_claim(
                game=game,
                part=part,
                ball_in_hand=row.ball_in_hand,
                calling_begun=row.calling_begun,
                player_name=row.player,
                table=row.table,
                by=n.by,
                at=row.at,
            )

        acts.append(Act(row.at, "claim", label, f"claim of {who}", claim))
        if row.won or row.card is not None:

            def card(n: Night, row: fmt.ClaimRow = row, i: int = i) -> None:
                witnesses = [Witness(name, table) for name, table in row.witnesses]
                target = n.claims[(num, i)]
                if row.card is not None:
                    claims_services.verify_card(
                        claim=target,
                        numbers=row.card,
                        witnesses=witnesses,
                        whole_card=row.whole_card,
                        by=n.by,
                        at=row.at,
                    )
                else:
                    claims_services.attest_card_on_paper(
                        claim=target, witnesses=witnesses, by=n.by, at=row.at
                    )

            acts.append(Act(row.at, "card", label, f"card of {who}", card))
    # Winners: each prize's winning claims, recorded together at the time the sheet gives.
    by_part: dict[int, list[int]] = {}
    for i, row in enumerate(sheet.claims, 1):
        if row.won:
            by_part.setdefault(row.part, []).append(i)
    for order, indexes in by_part.items():
        part_sheet = sheet.parts[order - 1] if order <= len(sheet.parts) else None
        moment = (part_sheet.winners_at if part_sheet else None) or max(
            sheet.claims[i - 1].at for i in indexes
        )

        def winners(
            n: Night,
            indexes: list[int] = indexes,
            order: int = order,
            moment: dt.datetime = moment,
            part_sheet: fmt.Part | None = part_sheet,
        ) -> None:
            rows = [sheet.claims[i - 1] for i in indexes]
            people = [
                PlayerEntry(
                    name=r.player,
                    person=_person(n.occasion, r.person) if r.person else None,
                    substitute=r.substitute,
                )
                for r in rows
            ]
            value = part_sheet.substitute_value if part_sheet else None
            recorded = claims_services.record_winners(
                claims=[n.claims[(num, i)] for i in indexes],
                players=people,
                substitute_value=value,
                by=n.by,
                at=moment,
            )
            for winner in recorded:
                n.winners[(num, _index_of(n, num, winner.claim_id))] = winner

        acts.append(Act(moment, "winners", label, f"winners of prize {order}", winners))
        for i in indexes:
            row = sheet.claims[i - 1]
            if row.payout is None:
                continue

            def pay(n: Night, i: int = i, payment: fmt.Payment = row.payout) -> None:
                winner = n.winners[(num, i)]
                payout_services.record_payout(
                    winner=winner,
                    by=n.by,
                    verified_by=None,
                    paid_by_worker=n.worker(payment.paid_by, what="The payout's payer"),
                    verified_by_worker=n.worker(payment.verified_by, what="The payout's verifier"),
                    w2g=_w2g(payment.w2g),
                    at=payment.at,
                )

            acts.append(Act(row.payout.at, "payout", "Payouts", f"payout to {row.player}", pay))
    return acts


def _index_of(n: Night, num: int, claim_id: int) -> int:
    return next(i for (g, i), c in n.claims.items() if g == num and c.pk == claim_id)


def _person(occasion: Occasion, name: str) -> Person:
    """A known person the sheet names as a winner: one of the organization's people."""
    for entry in WorkerListEntry.objects.filter(
        worker_list__organization=occasion.organization
    ).select_related("person"):
        if key(entry.person.legal_name) == key(name):
            return entry.person
    raise ValidationError(f"{name} is not a person the organization knows.")


def _w2g(values: dict[str, Any] | None) -> W2GDetails | None:
    if values is None:
        return None
    return W2GDetails(
        legal_name=str(values.get("legal_name", "")),
        address=str(values.get("address", "")),
        tin=str(values.get("tin", "")),
        backup_withholding=bool(values.get("backup_withholding", False)),
        id1_kind=str(values.get("id1_kind", "")),
        id1_number=str(values.get("id1_number", "")),
        id2_kind=str(values.get("id2_kind", "")),
        id2_number=str(values.get("id2_number", "")),
    )


def extras_acts(night: fmt.Night) -> list[Act]:
    acts: list[Act] = []
    for p in night.door_prizes:
        acts.append(
            Act(
                p.at,
                "door_prize",
                "Extras",
                f"door prize ({p.description})",
                lambda n, p=p: extras_services.award_door_prize(
                    occasion=n.occasion,
                    description=p.description,
                    value=p.value,
                    donated=p.donated,
                    winner_name=p.winner,
                    by=n.by,
                    at=p.at,
                ),
            )
        )
    for f in night.refunds:
        acts.append(
            Act(
                f.at,
                "refund",
                "Extras",
                f"refund to {f.player_reference}",
                lambda n, f=f: extras_services.record_refund(
                    occasion=n.occasion,
                    amount=f.amount,
                    player_reference=f.player_reference,
                    by=n.by,
                    at=f.at,
                ),
            )
        )
    for c in night.charity_sales:
        acts.append(
            Act(
                c.at,
                "charity",
                "Extras",
                f"charity game tickets ({c.serial_number})",
                lambda n, c=c: raffle_services.sell_charity_tickets(
                    occasion=n.occasion,
                    game_name=c.game_name,
                    serial_number=c.serial_number,
                    quantity=c.quantity,
                    price=c.price,
                    sold_on_premises=c.on_premises,
                    by=n.by,
                    at=c.at,
                ),
            )
        )
    for r in night.redemptions:
        acts.append(
            Act(
                r.at,
                "redeem",
                "Extras",
                f"charity ticket redeemed ({r.serial_number})",
                lambda n, r=r: raffle_services.redeem_charity_ticket(
                    occasion=n.occasion,
                    serial_number=r.serial_number,
                    prize_amount=r.prize_amount,
                    redeemed_on=_local_date(r.at),
                    by=n.by,
                ),
            )
        )
    for o in night.other_sales:
        opened = night.opened_at
        acts.append(
            Act(
                o.at,
                "other_sale",
                "Extras",
                f"other sale ({o.description})",
                lambda n, o=o: extras_services.record_other_sale(
                    occasion=n.occasion,
                    kind=o.kind,
                    description=o.description,
                    amount=o.amount,
                    on_beano_portion=o.on_beano_portion,
                    by=n.by,
                    at=o.at,
                ),
                order_at=max(o.at, opened) if opened is not None else None,
            )
        )
    for raffle in night.raffles:
        acts += _raffle_acts(raffle)
    close = night.closed_at
    for p in night.police:
        acts.append(
            Act(
                close,
                "police",
                "Extras",
                f"police detail ({p.officer})",
                lambda n, p=p: extras_services.record_police_detail(
                    occasion=n.occasion,
                    officer_name=p.officer,
                    department_town=p.department,
                    hours=p.hours,
                    hourly_rate=p.rate,
                    by=n.by,
                ),
            )
        )
    return acts


def _local_date(moment: dt.datetime) -> dt.date:
    from django.utils import timezone

    return timezone.localtime(moment).date()


def _raffle_acts(raffle: fmt.RaffleRow) -> list[Act]:
    holder: dict[str, Any] = {}
    first = min((s.at for s in raffle.sales), default=None)

    def hold(n: Night) -> None:
        from occasions.models import RafflePermit

        permit = RafflePermit.objects.filter(
            organization=n.occasion.organization, permit_number__iexact=raffle.permit
        ).first()
        if permit is None:
            raise ValidationError(f"Raffle permit {raffle.permit} is not on record.")
        holder["raffle"] = raffle_services.hold_raffle(
            occasion=n.occasion,
            permit=permit,
            prize_description=raffle.prize_description,
            prize_kind=raffle.prize_kind,
            ticket_price=raffle.ticket_price,
            by=n.by,
        )

    acts = [Act(first, "raffle", "Extras", f"raffle ({raffle.prize_description})", hold)]
    for s in raffle.sales:

        def sell(n: Night, s: fmt.RaffleTickets = s) -> None:
            receipt = s.admission_receipt or n.admission_receipt
            if receipt is None:
                raise ValidationError("Raffle tickets are sold to a player with an admission.")
            raffle_services.sell_raffle_tickets(
                raffle=holder["raffle"],
                admission_receipt_number=receipt,
                quantity=s.quantity,
                by=n.by,
                at=s.at,
            )

        acts.append(Act(s.at, "raffle", "Extras", f"{s.quantity} raffle tickets", sell))
    return acts


def close_acts(at: dt.datetime | None) -> list[Act]:
    if at is None:
        return []
    return [
        Act(
            at,
            "close",
            "Close",
            "occasion closed",
            lambda n: floor_services.close_occasion(occasion=n.occasion, by=n.by, at=at),
        )
    ]


def closeout_acts(sheet: fmt.CloseOutSheet | None, closed_at: dt.datetime | None) -> list[Act]:
    """The bookkeeper's close-out after the close: the counts, the cash, the expenses."""
    if sheet is None:
        return []

    def close_out(n: Night) -> None:
        from organizations.models import Equipment
        from reports import services
        from reports.models import ExpenseKind

        services.save_closeout(
            occasion=n.occasion,
            opening_bank=sheet.opening_bank,
            cash_counted=sheet.cash_counted,
            counts=sheet.counts,
            explanation=sheet.explanation,
            by=n.by,
        )
        for row in sheet.expenses:
            kind = ExpenseKind.objects.filter(code=row.kind).first()
            if kind is None:
                raise ValidationError(f"{row.kind!r} is not a kind of expense.")
            equipment = None
            if row.equipment:
                equipment = Equipment.objects.filter(
                    organization=n.occasion.organization, serial_number=row.equipment
                ).first()
                if equipment is None:
                    raise ValidationError(f"No equipment with serial {row.equipment} is on record.")
            services.record_expense(
                occasion=n.occasion,
                kind=kind,
                payee=row.payee,
                amount=row.amount,
                description=row.description,
                invoice_reference=row.invoice,
                equipment=equipment,
                worker_entry=_listed_entry(n.occasion, row.worker) if row.worker else None,
                by=n.by,
            )

    return [Act(closed_at, "closeout", "Close-out", "the bookkeeper's close-out", close_out)]


def acts_of(night: fmt.Night) -> list[Act]:
    """Every act of a whole night, from its sheets."""
    acts = (
        price_acts(night.prices)
        + program_acts(night.games)
        + worker_acts(night.workers)
        + checklist_acts(night.checklist_at, night.checklist)
        + open_acts(night.opened_at)
        + varying_acts(night.varying_prizes)
        + door_acts(night.door, night.voids)
        + attendance_acts(night.attendance, night.attendance_at, night.second_half_at)
        + [a for sheet in night.games for a in game_acts(sheet)]
        + extras_acts(night)
        + close_acts(night.closed_at)
        + closeout_acts(night.closeout, night.closed_at)
    )
    return acts


# A whole night from a file --------------------------------------------------------------------


def night_license(number: str) -> License:
    found = License.objects.select_related("organization").filter(number__iexact=number).first()
    if found is None:
        raise fmt.NightFormatError(f'"license": no license numbered {number!r} is on record.')
    return found


@rules.atomic()
def import_night(*, night: fmt.Night, by: Any, file_name: str = "") -> Occasion:
    """Record a whole night file on its authorized day, through the same services and rules
    as the floor, all or nothing. A day that already holds a night is refused."""
    license = night_license(night.license)
    organization = license.organization
    occasion = occasion_services.occasion_for_day(organization=organization, day=night.date, by=by)
    if occasion.license_id != license.pk:
        raise ValidationError(
            f"{night.date:%B %-d, %Y} is a day of license {occasion.license.number}, "
            f"not {license.number}."
        )
    if _holds_a_night(occasion):
        raise ValidationError(
            f"{night.date:%A, %B %-d, %Y} already holds a night of {organization}: a night "
            "file is imported only onto an authorized day with nothing recorded."
        )
    record = paper.begin(
        occasion=occasion,
        sheets=night.sheets,
        reason=night.reason,
        by=by,
        source=PaperRecord.Source.FILE,
        file_name=file_name,
    )
    state = Night(occasion=occasion, by=by, record=record)
    state.refresh()
    run(state, acts_of(night))
    record_event(
        organization=organization,
        actor=by,
        action="reports.night.imported",
        target=occasion,
        new={"file": file_name, "date": night.date, "by": _username(by)},
    )
    return state.occasion


def _holds_a_night(occasion: Occasion) -> bool:
    return (
        occasion.status != Occasion.Status.SCHEDULED
        or occasion.presences.exists()
        or occasion.price_items.exists()
        or occasion.opening_checks.exists()
        or Game.objects.filter(occasion=occasion).exists()
        or occasion.paper_records.exists()
    )


def _username(by: Any) -> str:
    user = acting_user(by)
    return user.get_username() if user else "system"

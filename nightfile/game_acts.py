"""The acts of the program and of each game's sheet: the games and their prizes, the
announcements, the balls checked, the start, the balls called, the claims with their card
verified, the winners of each prize, the payouts signed on the sheet, the finish, and a
progressive game's outcome."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q

from beano import rules
from beano.rules.claims import Witness
from games import (
    claims_services,
    draw_services,
    jackpot_services,
    jackpot_settlement,
    payout_services,
    winner_services,
)
from games import program_services as program
from games.models import Arrangement, Claim, Game, PrizePart, Winner
from games.payout_services import W2GDetails
from games.program_selectors import winner_take_all_prize
from games.winner_services import PlayerEntry
from nightfile import format as fmt
from nightfile import sheet_order
from nightfile.acts import Act, Night, key
from occasions.models import Occasion
from organizations.models import Person, WorkerListEntry


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
                    amount=_program_amount(n.occasion, sheet, part),
                    description=part.description,
                    donated=part.donated,
                    is_bonus=part.bonus,
                    by=n.by,
                )

    return [Act(None, "sign_in", "Program", "program", plan)] if sheets else []


def _program_amount(occasion: Occasion, sheet: fmt.GameSheet, part: fmt.Part) -> Decimal:
    """The amount a prize enters the program at. A winner-take-all prize is its receipts' share
    (3.04(8)(a)3), known once the cards are sold: one a night file announces on its sheet enters
    at the share of the moment and is judged as written at its announcement
    (``_announced_amount``). Any other prize, and a night file's winner-take-all prize never
    announced, enters as written and is judged as the program page judges a prize typed in."""
    if sheet.kind != Game.Kind.WINNER_TAKE_ALL:
        return part.amount
    if part.written and part.announced_at is None:
        return part.amount
    return winner_take_all_prize(occasion)


def _announced_amount(sheet: fmt.GameSheet, part: fmt.Part) -> Decimal | None:
    """The winner-take-all prize a night file's sheet says was announced, judged then."""
    return part.amount if part.written and sheet.kind == Game.Kind.WINNER_TAKE_ALL else None


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
    acts: list[Act] = sheet_order.order_act(sheet, label) + _announce_acts(sheet, label)
    if sheet.balls_confirmed_at is not None:
        at_balls = sheet.balls_confirmed_at
        acts.append(
            Act(
                at_balls,
                "balls",
                label,
                "75 balls checked",
                lambda n: program.confirm_balls(game=n.game(num), by=n.by, at=n.at(at_balls)),
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
                lambda n: program.start_game(game=n.game(num), by=n.by, at=n.at(start)),
            )
        )
        for i, ball in enumerate(sheet.balls, 1):
            moment = ball.at or start

            def call(n: Night, ball: fmt.Ball = ball, moment: dt.datetime = moment) -> None:
                draw_services.record_ball_call(
                    game=n.game(num),
                    number=f"{ball.letter}{ball.number}" if ball.letter else ball.number,
                    by=n.by,
                    at=n.at(moment),
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
                lambda n: program.finish_game(game=n.game(num), by=n.by, at=n.at(end)),
            )
        )
    if sheet.jackpot is not None:
        jackpot = sheet.jackpot
        moment = sheet.finished_at or sheet.started_at

        def settle(n: Night) -> None:
            from games.models import ProgressiveGame

            jackpot_settlement.settle_game(
                progressive_game=ProgressiveGame.objects.get(game=n.game(num)),
                won_within_calls=jackpot.won_within_calls,
                consolation_paid=jackpot.consolation_paid,
                by=n.by,
            )

        acts.append(Act(moment, "settle", label, "jackpot's outcome", settle))
    return acts


def _announce_acts(sheet: fmt.GameSheet, label: str) -> list[Act]:
    """Each prize announced at the time its sheet gives (a night file's winner-take-all prize
    judged then as written)."""
    num = sheet.number
    acts: list[Act] = []
    for order, part in enumerate(sheet.parts, 1):
        if part.announced_at is not None:
            written = _announced_amount(sheet, part)

            def announce(
                n: Night,
                order: int = order,
                at: dt.datetime = part.announced_at,
                amount: Decimal | None = written,
            ) -> None:
                game = n.game(num)
                target = PrizePart.objects.get(game=game, order=order)
                program.announce_prize_part(part=target, by=n.by, at=n.at(at), amount=amount)

            acts.append(Act(part.announced_at, "announce", label, f"prize {order}", announce))
    return acts


def _claim_acts(sheet: fmt.GameSheet, label: str) -> list[Act]:
    """Each claim and its card, then each prize's winners recorded together, then payouts."""
    acts: list[Act] = []
    for i, row in enumerate(sheet.claims, 1):
        acts += _one_claim(sheet.number, i, row, label)
    by_part: dict[int, list[int]] = {}
    for i, row in enumerate(sheet.claims, 1):
        if row.won:
            by_part.setdefault(row.part, []).append(i)
    for order, indexes in by_part.items():
        acts.append(_winners(sheet, order, indexes, label))
        acts += [
            _payout(sheet.number, i, sheet.claims[i - 1])
            for i in indexes
            if sheet.claims[i - 1].payout is not None
        ]
    return acts


def _one_claim(num: int, i: int, row: fmt.ClaimRow, label: str) -> list[Act]:
    """The claim, and the verification of its card: checked against the balls entered, or
    attested on paper when the sheet keeps no balls."""
    who = row.player or f"claim {i}"

    def claim(n: Night) -> None:
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
            at=n.at(row.at),
        )

    def card(n: Night) -> None:
        witnesses = [Witness(name, table) for name, table in row.witnesses]
        target = n.claims[(num, i)]
        if row.card is not None:
            claims_services.verify_card(
                claim=target,
                numbers=row.card,
                witnesses=witnesses,
                by=n.by,
                at=n.at(row.at),
            )
        else:
            claims_services.attest_card_on_paper(
                claim=target, witnesses=witnesses, by=n.by, at=n.at(row.at)
            )

    acts = [Act(row.at, "claim", label, f"claim of {who}", claim)]
    if row.won or row.card is not None:
        acts.append(Act(row.at, "card", label, f"card of {who}", card))
    return acts


def _winners(sheet: fmt.GameSheet, order: int, indexes: list[int], label: str) -> Act:
    """The winners of one prize, recorded together at the time the sheet gives (3.04(6)(f))."""
    num = sheet.number
    part_sheet = sheet.parts[order - 1] if order <= len(sheet.parts) else None
    moment = (part_sheet.winners_at if part_sheet else None) or max(
        sheet.claims[i - 1].at for i in indexes
    )

    def record(n: Night) -> None:
        people = [
            PlayerEntry(
                name=r.player,
                person=_person(n.occasion, r.person) if r.person else None,
                substitute=r.substitute,
            )
            for r in (sheet.claims[i - 1] for i in indexes)
        ]
        claims = [n.claims[(num, i)] for i in indexes]
        try:
            recorded = winner_services.record_winners(
                claims=claims,
                players=people,
                substitute_value=part_sheet.substitute_value if part_sheet else None,
                by=n.by,
                at=n.at(moment),
            )
        except rules.RuleViolation as error:
            error.explained = _why_not_winning(claims)  # type: ignore[attr-defined]
            raise
        for winner in recorded:
            n.winners[(num, _index_of(n, num, winner.claim_id))] = winner

    return Act(moment, "winners", label, f"winners of prize {order}", record)


def _why_not_winning(claims: Sequence[Claim]) -> list[tuple[str, str]]:
    """Why each card the sheet says won was found not winning when it was checked against the
    balls: the reasons the claims page shows under the card (the ball in the caller's hand not
    yet called, a number not drawn, an arrangement not complete), each with its citation."""
    reasons = []
    for claim in claims:
        card = claim.card_verifications.order_by("-verified_at", "-pk").first()
        if card is None or card.valid:
            continue
        who = claim.player_name or "The player"
        for reason in card.reasons:
            reasons.append((reason["citation"], f"{who}'s card, as read: {reason['message']}"))
    return reasons


def _payout(num: int, i: int, row: fmt.ClaimRow) -> Act:
    """A payout as the sheet is signed: the worker who paid and the one who verified."""
    assert row.payout is not None
    return _pay(lambda n: n.winners[(num, i)], row.player, row.payout)


def payout_to(winner: Winner, payment: fmt.Payment) -> Act:
    """The payout of a winner recorded on the night (live, or from an earlier entry) and not
    paid then, as the game's sheet is signed."""
    return _pay(lambda n: winner, winner.player_name, payment)


def _pay(winner_of: Callable[[Night], Winner], player: str, payment: fmt.Payment) -> Act:
    def pay(n: Night) -> None:
        payout_services.record_payout(
            winner=winner_of(n),
            by=n.by,
            verified_by=None,
            paid_by_worker=n.worker(payment.paid_by, what="The payout's payer"),
            verified_by_worker=n.worker(payment.verified_by, what="The payout's verifier"),
            w2g=_w2g(payment.w2g),
            at=n.at(payment.at),
        )

    return Act(payment.at, "payout", "Payouts", f"payout to {player}", pay)


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

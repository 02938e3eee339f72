"""The demo's games played as a real night, every step through the
services so that the rules judge it and the audit chain records it: each prize announced, the 75
balls confirmed, the game started, the balls called, Beano claimed with the ball in the caller's
hand, the draw verified before the member in charge and a player, the card verified before a
player at another table, the winners recorded and paid (paid by the member in charge, verified
by the head), the game finished; a progressive game's outcome recorded in its series' ledger.

The balls are chosen for the script: each winner's card completes the announced arrangement on
the ball the script names (or one drawn for it), the card's numbers fit their columns, and the
other balls called fill the game to the script's number of calls. Everything is drawn from a
generator seeded by the occasion's date and the game, so a night is the same every time.
Idempotent: a game already begun is left as it is."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from beano.demo import DEMO_PASSWORD
from beano.demo.sales import demo_user
from beano.rules.cards import COLUMNS, FREE, column_range, letter
from beano.rules.claims import Witness
from games import claims_services, draw_services, jackpot_settlement, payout_services
from games import program_services as services
from games.claims_services import PlayerEntry
from games.models import Game, PrizePart, ProgressiveGame
from occasions.models import Occasion
from organizations.models import OrganizationRole, Role

#: The pace of the night: seconds between two balls, and the steps after a claim.
BALL = dt.timedelta(seconds=10)
CLAIMED = dt.timedelta(seconds=5)  # Beano called as the last ball is being called
DRAW_VERIFIED = dt.timedelta(seconds=45)
CARD_VERIFIED = dt.timedelta(seconds=90)
WINNERS_RECORDED = dt.timedelta(minutes=2)
PAID = dt.timedelta(minutes=2, seconds=30)
FINISHED = dt.timedelta(minutes=3)
BETWEEN_GAMES = dt.timedelta(seconds=30)  # after a game finishes, before the next is announced
ANNOUNCED = dt.timedelta(minutes=1)  # the prizes announced, then the balls, then the start
BALLS_CONFIRMED = dt.timedelta(seconds=30)

#: Players in the hall who witness a verification (none of them is on a worker list).
WITNESSES = (
    Witness("Rose Medeiros", "12"),
    Witness("Albert Furtado", "6"),
    Witness("Celia Andrade", "17"),
)


@dataclass(frozen=True)
class Part:
    """One prize of a game won on the call that makes ``calls`` balls in the game (more if the
    winners' cards need more), by ``winners`` (player, table) all on that call; ``last`` is the
    ball they win on; ``bonus`` the winner holds a bonus card and wins the bonus part too."""

    calls: int
    winners: tuple[tuple[str, str], ...]
    last: int | None = None
    order: int = 1
    bonus: bool = False


@dataclass(frozen=True)
class Play:
    """A game of the night's script: its parts as won, or ``live`` balls called and the game
    left in play (the night still going on)."""

    number: int
    parts: tuple[Part, ...] = ()
    live: int = 0


def win(calls: int, *winners: tuple[str, str], **options: Any) -> tuple[Part, ...]:
    """A game won in one part: ``win(14, ("Dorothy Amaral", "4"))``."""
    return (Part(calls, winners, **options),)


#: Post 171's closed night: the sample program played in full.
FIRST_HALF = (
    Play(1, win(14, ("Dorothy Amaral", "4"))),
    Play(2, win(21, ("Frank Oliveira", "11"))),
    # Two players on the call of G52 share the $75: $38 and $37 (3.04(6)(f)).
    Play(3, win(24, ("Jean Cabral", "7"), ("Walter Sousa", "15"), last=52)),
    Play(4, win(31, ("Bernadette Rego", "2"), bonus=True)),  # she holds a bonus card
    Play(5, win(16, ("Manuel Furtado", "9"))),
    Play(6, win(40, ("Claire Tavares", "12"))),
    Play(7, win(12, ("Edward Raposo", "5"))),  # winner take all: the receipts less 10 %
    Play(8, win(29, ("Helen Vieira", "18"))),
)
SECOND_HALF = (
    Play(9, win(25, ("Arthur Leite", "6"))),
    Play(10, win(19, ("Rita Pimentel", "14"))),  # no bonus card: the bonus is not won
    Play(
        11,
        (
            Part(28, (("Francis Botelho", "3"),)),
            Part(54, (("Lorraine Mello", "10"),), order=2),  # coverall, announced after the H
        ),
    ),
    Play(12, win(22, ("Antonio Arruda", "16"))),
    # No coverall within 52 numbers: the $100 consolation to the first after them.
    Play(13, win(57, ("Gloria Santos", "8"), order=2)),
    Play(14, win(53, ("Richard Dupont", "13"))),
)
#: St. Anne's night still going on: three games played, the fourth in play.
OPEN_NIGHT = (
    Play(1, win(12, ("Theresa Couto", "3"))),
    Play(2, win(23, ("Raymond Medina", "8"))),
    Play(3, win(26, ("Joan Correia", "5"))),
    Play(4, live=11),
)


@dataclass
class _Night:
    occasion: Occasion
    in_charge: Any  # announces, starts, records the claims and winners, pays
    head: Any  # verifies each payout (a second user of the organization)
    caller: Any
    in_charge_name: str


def _people(occasion: Occasion) -> _Night:
    in_charge = demo_user(occasion, Role.MEMBER_IN_CHARGE, Role.HEAD)
    role = (
        OrganizationRole.objects.filter(organization=occasion.organization, user=in_charge)
        .select_related("person")
        .first()
    )
    person = getattr(role, "person", None)
    return _Night(
        occasion=occasion,
        in_charge=in_charge,
        head=demo_user(occasion, Role.HEAD, Role.BOOKKEEPER),
        caller=demo_user(occasion, Role.WORKER, Role.MEMBER_IN_CHARGE),
        in_charge_name=person.legal_name if person else in_charge.get_full_name(),
    )


def play_night(occasion: Occasion, script: Sequence[Play], start: dt.datetime) -> dt.datetime:
    """Play the script's games in order from ``start`` (the first game begins then) and return
    the moment the last one finished (or, for a game left in play, its last ball)."""
    night = _people(occasion)
    clock = start - ANNOUNCED - BETWEEN_GAMES
    for play in script:
        game = Game.objects.get(occasion=occasion, number=play.number)
        if game.status != Game.Status.PLANNED:
            clock = game.finished_at or clock
            continue
        clock = _play(night, game, play, clock + BETWEEN_GAMES)
    return clock


def _play(night: _Night, game: Game, play: Play, t: dt.datetime) -> dt.datetime:
    """One game from its announcement at ``t``; returns when it finished."""
    rng = random.Random(f"{night.occasion.date.isoformat()}/{game.number}")
    parts = {p.order: p for p in game.parts.select_related("arrangement").order_by("order")}
    first = play.parts[0].order if play.parts else 1
    for part in parts.values():
        if part.order <= first or part.is_bonus:
            services.announce_prize_part(part=part, by=night.in_charge, at=t)
    t += ANNOUNCED - BALLS_CONFIRMED
    services.confirm_balls(game=game, by=night.in_charge, at=t)
    t += BALLS_CONFIRMED
    game = services.start_game(game=game, by=night.in_charge, at=t)
    parts = {p.order: p for p in game.parts.select_related("arrangement").order_by("order")}
    called: list[int] = []
    if play.live:
        balls = rng.sample(range(1, 76), play.live)
        return _call(night, game, called, balls, t)
    for scripted in play.parts:
        part = parts[scripted.order]
        if part.announced_at is None:
            part = services.announce_prize_part(part=part, by=night.in_charge, at=t)
        cards, balls = _deal(rng, part.arrangement.variants, scripted, called)
        t = _call(night, game, called, balls, t)
        won = [part]
        if scripted.bonus:
            won += [p for p in parts.values() if p.is_bonus]
        t = _award(night, game, won, scripted, cards, balls[-1], t)
    t += FINISHED - PAID
    services.finish_game(game=game, by=night.in_charge, at=t)
    _settle_progressive(night, game)
    return t


def _call(
    night: _Night, game: Game, called: list[int], balls: list[int], t: dt.datetime
) -> dt.datetime:
    for number in balls:
        t += BALL
        draw_services.record_ball_call(game=game, number=number, by=night.caller, at=t)
        called.append(number)
    return t


def _deal(
    rng: random.Random, variants: list[list[str]], scripted: Part, called: list[int]
) -> tuple[list[dict[str, int]], list[int]]:
    """The winners' cards (the squares of the arrangement each completes) and the balls to call
    for this part, the last one completing every card."""
    done = set(called)
    first = rng.choice(variants)
    last = scripted.last
    if last is None:
        left = [n for c in sorted({s[0] for s in first if s != FREE}) for n in column_range(c)]
        last = rng.choice([n for n in left if n not in done])
    column = letter(last)
    cards = []
    for _ in scripted.winners:
        fitting = [v for v in variants if any(s[0] == column and s != FREE for s in v)]
        chosen = first if first in fitting and not cards else rng.choice(fitting)
        squares = sorted(set(chosen) - {FREE})
        on_last = rng.choice([s for s in squares if s[0] == column])
        card = {on_last: last}
        for square in squares:
            if square != on_last:
                free = [n for n in column_range(square[0]) if n != last]
                card[square] = rng.choice([n for n in free if n not in card.values()])
        cards.append(dict(sorted(card.items(), key=lambda sn: _square_order(sn[0]))))
    needed = sorted({n for c in cards for n in c.values()} - done - {last})
    others = [n for n in range(1, 76) if n not in done and n not in needed and n != last]
    filler = max(0, scripted.calls - len(called) - len(needed) - 1)
    balls = needed + rng.sample(others, min(filler, len(others)))
    rng.shuffle(balls)
    return cards, [*balls, last]


def _square_order(square: str) -> tuple[int, int]:
    return int(square[1:]), COLUMNS.index(square[0])


def _award(
    night: _Night,
    game: Game,
    parts: list[PrizePart],
    scripted: Part,
    cards: list[dict[str, int]],
    ball: int,
    t: dt.datetime,
) -> dt.datetime:
    """Beano claimed as ``ball`` is being called, for each part won (a bonus rides on the same
    call); the draw and each card verified; the winners of each part recorded together and paid
    by the member in charge, each payout verified by the head."""
    by = night.in_charge
    k = paid = 0
    for part in parts:
        claims = []
        for (player, table), card in zip(scripted.winners, cards, strict=True):
            at = t + CLAIMED + dt.timedelta(seconds=3 * k)
            k += 1
            claim = claims_services.record_claim(
                game=game,
                part=part,
                ball_in_hand=ball,
                calling_begun=True,
                player_name=player,
                table=table,
                by=by,
                at=at,
            )
            witness = next(w for w in WITNESSES if w.table != table)
            claims_services.verify_draw(
                claim=claim,
                member_in_charge=night.in_charge_name,
                witnesses=[witness.name],
                requested_by=witness.name,
                by=by,
                at=at + DRAW_VERIFIED,
            )
            claims_services.verify_card(
                claim=claim, numbers=card, witnesses=[witness], by=by, at=at + CARD_VERIFIED
            )
            claims.append(claim)
        winners = claims_services.record_winners(
            claims=claims,
            players=[PlayerEntry(name=player) for player, _ in scripted.winners],
            by=by,
            at=t + WINNERS_RECORDED,
        )
        for winner in winners:
            payout_services.record_payout(
                winner=winner,
                by=by,
                verified_by=night.head,
                verifier_secret=DEMO_PASSWORD,  # the verifier types their own password
                at=t + PAID + dt.timedelta(seconds=20 * paid),
            )
            paid += 1
    return t + PAID + dt.timedelta(seconds=20 * paid)


def _settle_progressive(night: _Night, game: Game) -> None:
    """A progressive game played to its end without its jackpot won within the calls: the
    consolation was paid, the jackpot carries to the next occasion (3.04(6)(h), (8)(a)2)."""
    pg = ProgressiveGame.objects.filter(game=game).first()
    if pg is None or pg.is_settled:
        return
    won = game.parts.filter(order=1, claims__winner__isnull=False).exists()
    consolation = game.parts.filter(order__gt=1, claims__winner__isnull=False).exists()
    jackpot_settlement.settle_game(
        progressive_game=pg,
        won_within_calls=won,
        consolation_paid=consolation and not won,
        by=night.in_charge,
    )

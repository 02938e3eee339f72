"""Writes to an occasion's program: games and their prize parts while planned, the
announcements, the 75 balls confirmed, each game's start and finish, and copying last week's
program. Each is one transaction that locks the occasion and then the game, gathers the facts,
lets the rules judge, saves and writes its audit event."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules.money import PRIZE, money, usd
from beano.rules.operation import ADD_PART, ANNOUNCE_PART, CONFIRM_BALLS, START_GAME
from beano.rules.prizes import PrizePartFacts
from beano.text import one_line
from games import program_selectors as selectors
from games.models import Arrangement, Game, PrizePart
from occasions import live, moments, on_floor
from occasions.floor_selectors import hours_facts
from occasions.models import Occasion
from occasions.sales_services import start_play
from occasions.services import lock_occasion, moment_of
from organizations.audit import record_event

#: The most games one program holds: a typo beyond it, not a night.
MAX_GAMES = 99
EDITABLE = (Occasion.Status.SCHEDULED, Occasion.Status.OPEN)


def _locked_occasion(occasion: Occasion) -> Occasion:
    return lock_occasion(occasion, related=("organization", "license"))


def _locked_game(game: Game) -> tuple[Occasion, Game]:
    occasion = _locked_occasion(game.occasion)
    game = locking.lock(Game.objects).get(pk=game.pk, occasion=occasion)
    game.occasion = occasion
    return occasion, game


def _locked_part(part: PrizePart) -> tuple[Occasion, Game, PrizePart]:
    occasion, game = _locked_game(part.game)
    part = locking.lock(PrizePart.objects).select_related("arrangement").get(pk=part.pk, game=game)
    part.game = game
    return occasion, game, part


def _require_editable(occasion: Occasion) -> None:
    if occasion.status not in EDITABLE:
        raise ValidationError(
            f"This occasion is {occasion.get_status_display().lower()}: its program is fixed."
        )


def _require_planned(game: Game, what: str) -> None:
    if game.status != Game.Status.PLANNED:
        raise ValidationError(f"Game {game.number} is {game.get_status_display().lower()}: {what}")


def _part_row(part: PrizePart) -> dict[str, Any]:
    return {
        "game": part.game.number,
        "order": part.order,
        "arrangement": part.arrangement.code,
        "kind": part.kind,
        "amount": part.amount,
        "description": part.description,
        "donated": part.donated,
        "is_bonus": part.is_bonus,
    }


@rules.atomic()
def add_game(*, occasion: Occasion, number: int, half: int, kind: str, by: Actor) -> Game:
    """Add a game to the program, planned, with its place, its half and its kind."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_GAMES:
        raise ValidationError({"number": f"A game's number is from 1 to {MAX_GAMES}."})
    if half not in (1, 2) or isinstance(half, bool):
        raise ValidationError({"half": "A game is in the first or the second half."})
    if kind not in Game.Kind.values:
        raise ValidationError({"kind": "Choose the kind of game."})
    occasion = _locked_occasion(occasion)
    _require_editable(occasion)
    games = Game.objects.filter(occasion=occasion)
    if games.filter(number=number).exists():
        raise ValidationError({"number": f"Game {number} is already in the program."})
    if kind == Game.Kind.WINNER_TAKE_ALL and games.filter(kind=kind).exists():
        raise ValidationError(
            {
                "kind": "The door counts winner-take-all cards in one category, so their receipts "
                "make the prize of one winner-take-all game an occasion."
            }
        )
    game = Game.objects.create(occasion=occasion, number=number, half=half, kind=kind)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.game.added",
        target=game,
        new={"number": number, "half": half, "kind": kind},
    )
    return game


@rules.atomic()
def add_prize_part(
    *,
    game: Game,
    arrangement: Arrangement,
    kind: str,
    amount: Decimal,
    description: str,
    donated: bool,
    is_bonus: bool,
    by: Actor,
) -> PrizePart:
    """Add a prize to a planned game: its arrangement (authorized, 3.04(6)(c)), cash or
    merchandise valued at cost or fair market value if donated (3.04(8)(c)), judged against the
    maximums in force (3.04(8)(a)1, (a)3, (b))."""
    if kind not in PrizePart.Kind.values:
        raise ValidationError({"kind": "Cash or merchandise."})
    if not isinstance(arrangement, Arrangement):
        raise ValidationError({"arrangement": "Choose an arrangement."})
    amount = money(amount, PRIZE, "amount")
    description = one_line(description)[:200]
    occasion, game = _locked_game(game)
    _require_editable(occasion)
    _require_planned(game, "prizes are added only before it begins.")
    if kind == PrizePart.Kind.CASH and amount == 0 and game.kind != Game.Kind.WINNER_TAKE_ALL:
        raise ValidationError({"amount": "A cash prize is more than $0.00."})
    _judge_prize(
        game,
        arrangement=arrangement,
        kind=kind,
        amount=amount,
        description=description,
        donated=bool(donated),
        is_bonus=bool(is_bonus),
        by=by,
    )
    last = game.parts.aggregate(last=Max("order"))["last"] or 0
    part = PrizePart.objects.create(
        game=game,
        order=last + 1,
        arrangement=arrangement,
        kind=kind,
        amount=amount,
        description=description,
        donated=bool(donated),
        is_bonus=bool(is_bonus),
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.prize_part.added",
        target=part,
        new=_part_row(part),
    )
    return part


def _judge_prize(
    game: Game,
    *,
    arrangement: Arrangement,
    kind: str,
    amount: Decimal,
    description: str,
    donated: bool,
    is_bonus: bool,
    by: Actor,
    instead_of: PrizePart | None = None,
) -> None:
    """Judge a prize of a game's program against the maximums in force (3.04(8)(a)1, (a)3,
    (b)) and the arrangements authorized (3.04(6)(c)): one being added, or ``instead_of`` one
    already in the program (a winner-take-all prize announced as a sheet gives it)."""
    occasion = game.occasion
    totals = selectors.prize_totals(game)
    others = game.parts.count()
    if instead_of is not None:
        others -= 1
        replaced = instead_of.amount
        totals = selectors.PrizeTotals(
            totals.game_prize - (selectors.ZERO if instead_of.is_bonus else replaced),
            totals.game_bonus - (replaced if instead_of.is_bonus else selectors.ZERO),
            totals.occasion_prizes - replaced,
        )
    rules.enforce(
        ADD_PART,
        [
            selectors.arrangement_facts(arrangement, occasion),
            PrizePartFacts(
                game_number=game.number,
                game_kind=game.kind,
                kind=kind,
                amount=amount,
                description=description,
                donated=donated,
                is_bonus=is_bonus,
                game_prize_before=totals.game_prize,
                game_bonus_before=totals.game_bonus,
                occasion_prizes_before=totals.occasion_prizes,
                bonus_card_price=selectors.bonus_card_price(occasion),
            ),
            selectors.winner_take_all_facts(game, amount, others),
        ],
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )


@rules.atomic()
def remove_prize_part(*, part: PrizePart, by: Actor) -> None:
    """Take a prize off a planned game, never once announced; the parts after it move up."""
    occasion, game, part = _locked_part(part)
    _require_editable(occasion)
    _require_planned(game, "its prizes stay as they were played.")
    if part.announced_at is not None:
        raise ValidationError(
            f"Game {game.number}'s part {part.order} was announced: it is no longer removed."
        )
    old = _part_row(part)
    part.delete()
    for order, later in enumerate(game.parts.order_by("order"), start=1):
        if later.order != order:
            later.order = order
            later.save(update_fields=["order"])
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.prize_part.removed",
        target=game,
        old=old,
    )


@rules.atomic()
def remove_game(*, game: Game, by: Actor) -> None:
    """Take a planned game out of the program, with its prizes, unless one was announced."""
    occasion, game = _locked_game(game)
    _require_editable(occasion)
    _require_planned(game, "it stays in the program.")
    parts = list(game.parts.select_related("arrangement").order_by("order"))
    if any(p.announced_at is not None for p in parts):
        raise ValidationError(f"Game {game.number}'s prize was announced: it stays in the program.")
    old = {
        "number": game.number,
        "half": game.half,
        "kind": game.kind,
        "parts": [_part_row(p) for p in parts],
    }
    for p in parts:
        p.delete()
    target_repr = str(game)
    game.delete()
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.game.removed",
        target=occasion,
        old=old | {"game": target_repr},
    )


@rules.atomic()
def announce_prize_part(
    *, part: PrizePart, by: Actor, at: moments.At = None, amount: Decimal | None = None
) -> PrizePart:
    """Record that a prize's arrangement and amount were announced to the players (3.04(6)(b)):
    before its game begins, or, for a later part of a game divided into several prizes, before
    that part is played. Announced again before the game begins, the time is renewed; a
    winner-take-all prize is announced at its receipts' share at that moment (3.04(8)(a)3).
    ``amount``: the prize a sheet says was announced. A winner-take-all prize so written is
    judged then as the program page judges a prize typed in (3.04(8)(a), (b)): recorded as
    written, or refused; never replaced by the share without a word. Any other prize's is the
    program's."""
    occasion, game, part = _locked_part(part)
    moment = moment_of(occasion, at, by=by, act="announcing a prize")
    if game.status == Game.Status.FINISHED:
        raise ValidationError(f"Game {game.number} is finished.")
    if game.status == Game.Status.IN_PLAY and part.announced_at is not None:
        raise ValidationError(
            f"Game {game.number}'s part {part.order} was announced at "
            f"{timezone.localtime(part.announced_at):%-I:%M %p} and the game has begun."
        )
    rules.enforce(
        ANNOUNCE_PART,
        [
            selectors.arrangement_facts(part.arrangement, occasion),
            selectors.occasion_play_facts(occasion, moment),
        ],
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )
    if amount is not None:
        _judge_announced(game, part, money(amount, PRIZE, "amount"), by)
    on_floor.require(occasion, by, moment, doing="announcing a prize")
    old = {"announced_at": part.announced_at, "amount": part.amount}
    if game.kind == Game.Kind.WINNER_TAKE_ALL:
        part.amount = selectors.winner_take_all_prize(occasion)
    part.announced_at = moment
    part.announced_by = by
    part.save(update_fields=["announced_at", "announced_by", "amount"])
    live.changed(occasion.pk)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.prize_part.announced",
        target=part,
        old=old,
        new={
            "game": game.number,
            "order": part.order,
            "arrangement": part.arrangement.code,
            "amount": part.amount,
            "announced_at": part.announced_at,
        },
    )
    return part


def _judge_announced(game: Game, part: PrizePart, amount: Decimal, by: Actor) -> None:
    """The prize a sheet says was announced: a winner-take-all game's judged as a prize typed
    on the program page then; any other game's is the program's, as posted."""
    if game.kind == Game.Kind.WINNER_TAKE_ALL:
        _judge_prize(
            game,
            arrangement=part.arrangement,
            kind=part.kind,
            amount=amount,
            description=part.description,
            donated=part.donated,
            is_bonus=part.is_bonus,
            by=by,
            instead_of=part,
        )
    elif amount != part.amount:
        raise ValidationError(
            f"Game {game.number}'s prize {part.order} is {usd(part.amount)} in the program; "
            f"the sheet says {usd(amount)} was announced."
        )


@rules.atomic()
def confirm_balls(*, game: Game, by: Actor, at: moments.At = None) -> Game:
    """Record that all 75 balls are in the receptacle before the game (3.04(4)(b)); confirmed
    again, the time is renewed."""
    occasion, game = _locked_game(game)
    _require_planned(game, "its balls were checked before it began.")
    moment = moment_of(occasion, at, by=by, act="confirming the balls")
    rules.enforce(
        CONFIRM_BALLS,
        [
            selectors.occasion_play_facts(occasion, moment),
            selectors.receptacle_facts(game, moment),
        ],
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )
    on_floor.require(occasion, by, moment, doing="confirming the balls")
    old = {"balls_confirmed_at": game.balls_confirmed_at}
    game.balls_confirmed_at = moment
    game.balls_confirmed_by = by
    game.save(update_fields=["balls_confirmed_at", "balls_confirmed_by"])
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.game.balls_confirmed",
        target=game,
        old=old,
        new={"balls_confirmed_at": game.balls_confirmed_at},
    )
    return game


@rules.atomic()
def start_game(*, game: Game, by: Actor, at: moments.At = None) -> Game:
    """Begin a game: the occasion open and within the hours in force (3.04(7)), its prize
    announced (3.04(6)(b)), all 75 balls confirmed after the last game (3.04(4)(b)), in its half
    (3.04(5)(c)) and a winner-take-all prize at its receipts' share (3.04(8)(a)3). The first
    game of the night starts play at the occasion."""
    occasion, game = _locked_game(game)
    _require_planned(game, "it cannot begin again.")
    moment = moment_of(occasion, at, by=by, act="starting a game")
    parts = list(game.parts.order_by("order"))
    first = parts[0] if parts else None
    rules.enforce(
        START_GAME,
        [
            selectors.occasion_play_facts(occasion, moment),
            selectors.start_facts(game),
            selectors.receptacle_facts(game, moment),
            selectors.half_facts(game, occasion, moment),
            hours_facts(occasion, moment),
            selectors.winner_take_all_facts(
                game, first.amount if first else None, max(len(parts) - 1, 0)
            ),
        ],
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )
    on_floor.require(occasion, by, moment, doing="starting a game")
    if occasion.play_started_at is None:
        start_play(occasion=occasion, by=by, at=moments.restated(at, moment))
    game.status = Game.Status.IN_PLAY
    game.started_at = moment
    game.save(update_fields=["status", "started_at"])
    live.changed(occasion.pk)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.game.started",
        target=game,
        old={"status": Game.Status.PLANNED},
        new={"status": game.status, "started_at": moment},
    )
    return game


@rules.atomic()
def finish_game(*, game: Game, by: Actor, at: moments.At = None) -> Game:
    """End a game in play: its balls may go back to the receptacle (3.04(6)(a))."""
    occasion, game = _locked_game(game)
    if game.status != Game.Status.IN_PLAY:
        raise ValidationError(
            f"Game {game.number} is {game.get_status_display().lower()}: only a game in play "
            "finishes."
        )
    moment = moment_of(occasion, at, by=by, act="finishing a game")
    if game.started_at is not None and moment < game.started_at:
        raise ValidationError(f"Game {game.number} cannot finish before it began.")
    on_floor.require(occasion, by, moment, doing="finishing a game")
    game.status = Game.Status.FINISHED
    game.finished_at = moment
    game.save(update_fields=["status", "finished_at"])
    live.changed(occasion.pk)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.game.finished",
        target=game,
        old={"status": Game.Status.IN_PLAY},
        new={"status": game.status, "finished_at": moment},
    )
    return game


@rules.atomic()
def copy_program(*, occasion: Occasion, from_occasion: Occasion, by: Actor) -> list[Game]:
    """Plan this occasion's program as another occasion's of the organization (last week's):
    the same games and prizes, each added through the services so that the rules judge it on
    this occasion's date; a winner-take-all prize is this occasion's receipts' share."""
    if from_occasion.organization_id != occasion.organization_id or from_occasion.pk == occasion.pk:
        raise ValidationError("Copy the program of another occasion of this organization.")
    occasion = _locked_occasion(occasion)
    _require_editable(occasion)
    if Game.objects.filter(occasion=occasion).exists():
        raise ValidationError("This occasion already has a program: copy only into an empty one.")
    source = selectors.program(from_occasion)
    if not source:
        raise ValidationError("That occasion has no program to copy.")
    games = []
    for old in source:
        game = add_game(occasion=occasion, number=old.number, half=old.half, kind=old.kind, by=by)
        for part in old.parts.all():
            add_prize_part(
                game=game,
                arrangement=part.arrangement,
                kind=part.kind,
                amount=selectors.winner_take_all_prize(occasion)
                if game.kind == Game.Kind.WINNER_TAKE_ALL
                else part.amount,
                description=part.description,
                donated=part.donated,
                is_bonus=part.is_bonus,
                by=by,
            )
        games.append(game)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.program.copied",
        target=occasion,
        new={"from_occasion": from_occasion.date, "games": len(games)},
    )
    return games

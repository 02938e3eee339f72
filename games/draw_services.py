"""Writes of the draw: each ball as the caller calls it, the correction of a mis-keyed entry,
and the flashboard's public link. Each is one transaction: the game row is locked first, always,
so that two consoles entering the same ball at once record it once (the database's unique index
over a game's live calls backs this), then the facts are gathered, the rules judge, the row is
saved and the audit event written."""

from __future__ import annotations

import functools
import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.db.models import Count, OuterRef, Subquery
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.prepared import Prepared
from beano.rules.cards import ball_label
from beano.rules.draw import CALL, CORRECT, BallCallFacts, CorrectionFacts, DrawGameFacts
from beano.rules.operation import OccasionPlayFacts
from beano.text import one_line
from games.models import BallCall, Flashboard, Game
from occasions import live, moments, on_floor, submissions
from occasions.floor_selectors import hours_facts
from occasions.models import FloorSubmission, Occasion
from occasions.services import lock_occasion, moment_of, refuse_if_sealed, status_at
from organizations.audit import CHAIN_PATH, acting_user, ensure_chain, record_event

BALL_ENTRY = re.compile(r"^\s*(?:([BINGObingo])\s*-?\s*)?([0-9]{1,3})\s*$")
REASON_MAX = BallCall._meta.get_field("void_reason").max_length


def read_ball(entry: int | str) -> tuple[str, int]:
    """The letter ("" when none was typed) and number of an entry: 42, "42", "N42" or "n 42".
    Anything else is not a ball entry at all; a number outside 1–75 is for the rules to refuse."""
    if isinstance(entry, int) and not isinstance(entry, bool):
        return "", entry
    match = BALL_ENTRY.match(entry) if isinstance(entry, str) else None
    if match is None:
        raise ValidationError("Enter the ball called: its number (42) or letter and number (N42).")
    return (match.group(1) or "").upper(), int(match.group(2))


#: From a game to its organization's audit chain head, locked with the game by a call.
_CHAIN = f"occasion__organization__{CHAIN_PATH}"


def _locked_game(game: Game, organization: Any = None, *, with_chain: bool = False) -> Game:
    """The game's row locked (its occasion's and organization's too, as ever), read fresh.
    ``organization``: the game must be this organization's, else Game.DoesNotExist.
    ``with_chain``: the organization's audit chain head locked in the same statement
    (``game.occasion.organization.audit_chain``, for ``record_event(chain=…)``)."""
    locking = _lock_statement(with_chain, organization is not None)
    keys = [game.pk, game.occasion_id]
    if organization is not None:
        keys.append(getattr(organization, "pk", organization))
    try:
        game = locking.get(*keys)
    except Game.DoesNotExist:
        if not with_chain or not _made_chain(game, organization):
            raise
        game = locking.get(*keys)
    refuse_if_sealed(game.occasion)
    return game


@functools.cache
def _lock_statement(with_chain: bool, by_organization: bool) -> locking.LockingStatement:
    """The statement that locks a game (pk, occasion's pk, then its organization's pk when
    ``by_organization``) with its occasion, license and organization and, ``with_chain``, the
    audit chain head: compiled once per process, since every ball called runs one."""

    def build(pk: int, occasion_id: int, organization_id: int | None = None) -> Any:
        games = Game.objects.select_related("occasion__organization", "occasion__license")
        if with_chain:
            games = games.select_related(_CHAIN).filter(**{f"{_CHAIN}__isnull": False})
        if by_organization:
            games = games.filter(occasion__organization_id=organization_id)
        return games.filter(pk=pk, occasion_id=occasion_id)

    locked = ("occasion", "occasion__organization", *((_CHAIN,) if with_chain else ()))
    return locking.LockingStatement(Game, build, *locked)


def _made_chain(game: Game, organization: Any) -> bool:
    """The chain of the game's organization made, when it had none (True): the locking
    statement then finds the game. False when there is no such game."""
    found = Game.objects.filter(pk=game.pk, occasion_id=game.occasion_id)
    if organization is not None:
        found = found.filter(occasion__organization=organization)
    organization_id = found.values_list("occasion__organization_id", flat=True).first()
    return organization_id is not None and ensure_chain(organization_id)


def _locked_game_for_call(game: Game, number: int, organization: Any, by: Actor) -> Game:
    """``_locked_game`` with what a call is judged on, read once the lock is held: the sequence
    of this number's live call (``live_sequence``, None if not called), the last entry's
    sequence and time (``last_sequence``, ``last_called_at``), the live calls' count and the
    last live ball (``live_count``, ``last_live_number``), for the board's delta, and whether
    the caller ``by`` is on the floor now (``doer``, ``on_floor.Known``). A statement
    of its own after the lock: on PostgreSQL a subquery in the locking statement would keep
    the snapshot from before its wait, and a ball sent twice at once would be judged twice as
    never called."""
    game = _locked_game(game, organization, with_chain=True)
    facts = _CALL_FACTS.get(game.pk, number, on_floor.user_id(by))
    doer = on_floor.Known(facts.pop("doer_on_floor"), facts.pop("floor_staffed"))
    game.doer = doer  # type: ignore[attr-defined]
    for name, value in facts.items():
        setattr(game, name, value)
    return game


def _call_facts(game_id: int, number: int, user_id: int) -> Any:
    calls = BallCall.objects.filter(game=OuterRef("pk"))
    live = calls.filter(voided_at__isnull=True)
    last = calls.order_by("-sequence")
    return (
        Game.objects.filter(pk=game_id)
        .annotate(
            live_sequence=Subquery(live.filter(number=number).values("sequence")[:1]),
            last_sequence=Subquery(last.values("sequence")[:1]),
            last_called_at=Subquery(last.values("called_at")[:1]),
            live_count=Subquery(
                live.order_by().values("game").annotate(n=Count("pk")).values("n")[:1]
            ),
            last_live_number=Subquery(live.order_by("-sequence").values("number")[:1]),
            **on_floor.doer_annotations(
                user_id, occasion="occasion_id", organization="occasion__organization_id"
            ),
        )
        .values(
            "live_sequence",
            "last_sequence",
            "last_called_at",
            "live_count",
            "last_live_number",
            "doer_on_floor",
            "floor_staffed",
        )
    )


#: What a call is judged on, compiled once per process.
_CALL_FACTS = Prepared(_call_facts)


def _game_facts(game: Game) -> DrawGameFacts:
    """``finished`` stands for "a winner is recorded": recording the winner concludes the game."""
    return DrawGameFacts(
        game_number=game.number,
        started=game.status != Game.Status.PLANNED,
        finished=game.status == Game.Status.FINISHED or game.finished_at is not None,
    )


def _call_values(call: BallCall) -> dict[str, Any]:
    return {
        "game": call.game.number,
        "sequence": call.sequence,
        "number": call.number,
        "ball": ball_label(call.number),
        "called_at": call.called_at,
    }


@rules.atomic()
@submissions.answered_once(
    FloorSubmission.Action.BALL_CALL,
    BallCall,
    occasion_of=lambda kwargs: kwargs["game"].occasion_id,
)
def record_ball_call(
    *,
    game: Game,
    number: int | str,
    by: Actor,
    at: moments.At = None,
    organization: Any = None,
) -> BallCall:
    """Record the ball the caller called, next in the game's order (961 CMR 3.04(6)(a)).
    ``game`` may be a reference (its pk and occasion_id): it is read under the lock, and with
    ``organization`` it must be that organization's (else Game.DoesNotExist, nothing saved).
    The call returned carries the board's delta: ``live_count`` (the live calls, this one
    included) and ``previous_last`` (the ball that was the last one, or None)."""
    letter, value = read_ball(number)
    game = _locked_game_for_call(game, value, organization, by)
    occasion = game.occasion
    limits = rules.limits_in_force(occasion.date)  # read once, for every judgment of the call
    called_at = moment_of(occasion, at, by=by, act="calling a ball", limits=limits)
    game_facts = _game_facts(game)
    enforce = {"on": occasion.date, "actor": by, "organization": occasion.organization}
    enforce["limits"] = limits
    ball = BallCallFacts(value, letter, game.live_sequence)
    playing = [
        OccasionPlayFacts(occasion_status=status_at(occasion, called_at)),
        hours_facts(occasion, called_at),
    ]
    rules.enforce(CALL, [game_facts, ball, *playing], **enforce)
    if game.started_at is not None and called_at < game.started_at:
        raise ValidationError(f"Game {game.number} began after that time.")
    if game.last_called_at is not None and called_at < game.last_called_at:
        raise ValidationError("A ball cannot be recorded as called before the ball before it.")
    known = game.doer if moments.stated(at) is None else None  # type: ignore[attr-defined]
    on_floor.require(occasion, by, called_at, doing="calling a ball", limits=limits, known=known)
    try:  # no savepoint of its own: the game's row is locked, so this insert cannot collide
        call = BallCall.objects.create(
            game=game,
            sequence=(game.last_sequence or 0) + 1,
            number=value,
            called_at=called_at,
            called_by=acting_user(by),
        )
    except IntegrityError:
        # Only a database that let two writers past the lock gets here: the unique index over
        # the game's live calls refused the second, which is then refused as the rule says.
        # The transaction is broken and answers no further query: the earlier call's number
        # in the draw is not read (#0), the limits were read before.
        rules.enforce(CALL, [game_facts, BallCallFacts(value, letter, 0), *playing], **enforce)
        raise
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.ball.called",
        target=call,
        new=_call_values(call),
        chain=occasion.organization.audit_chain,
    )
    live.changed(occasion.pk)
    call.live_count = (game.live_count or 0) + 1
    call.previous_last = game.last_live_number
    return call


@rules.atomic()
def correct_ball_call(*, call: BallCall, reason: str, by: Actor, at: moments.At = None) -> BallCall:
    """Void a mis-keyed entry, keeping it with its reason: its number goes back to those not yet
    called, and the ball actually called is entered next (961 CMR 3.04(6)(a))."""
    game = _locked_game(call.game)
    occasion = game.occasion
    call = locking.lock(BallCall.objects).get(pk=call.pk, game=game)
    moment = moment_of(occasion, at, by=by, act="correcting a ball")
    reason = one_line(reason)
    if len(reason) > REASON_MAX:
        raise ValidationError(f"Give the reason in {REASON_MAX} characters at most.")
    rules.enforce(
        CORRECT,
        [
            _game_facts(game),
            CorrectionFacts(call.sequence, call.number, call.voided_at is not None, reason),
            OccasionPlayFacts(occasion_status=status_at(occasion, moment)),
        ],
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )
    on_floor.require(occasion, by, moment, doing="correcting a ball")
    call.voided_at = moment
    call.voided_by = acting_user(by)
    call.void_reason = reason
    call.save(update_fields=["voided_at", "voided_by", "void_reason"])
    live.changed(occasion.pk)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.ball.voided",
        target=call,
        old={"voided_at": None, "void_reason": ""},
        new={**_call_values(call), "voided_at": call.voided_at, "void_reason": reason},
    )
    return call


@rules.atomic()
def issue_flashboard_link(*, occasion: Occasion, by: Actor) -> Flashboard:
    """The occasion's public flashboard link: made the first time, then replaced by a new token
    on request, which ends the old link at once."""
    occasion = lock_occasion(occasion)
    now = timezone.now()
    board = locking.lock(Flashboard.objects).filter(occasion=occasion).first()
    action = "games.flashboard.link_replaced" if board is not None else "games.flashboard.link_made"
    if board is None:
        board = Flashboard(occasion=occasion)
    else:
        board.token = Flashboard._meta.get_field("token").get_default()
    board.created_at = now
    board.created_by = acting_user(by)
    board.revoked_at = None
    board.save()
    live.changed(occasion.pk)
    record_event(
        organization=occasion.organization,
        actor=by,
        action=action,
        target=board,
        new={"token": board.token, "created_at": now},
    )
    return board


@rules.atomic()
def revoke_flashboard_link(*, occasion: Occasion, by: Actor) -> Flashboard | None:
    """Turn the public link off; the board shows nothing until a new link is made."""
    occasion = lock_occasion(occasion)
    board = locking.lock(Flashboard.objects).filter(occasion=occasion).first()
    if board is None or board.revoked_at is not None:
        return board
    board.revoked_at = timezone.now()
    board.save(update_fields=["revoked_at"])
    live.changed(occasion.pk)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.flashboard.link_revoked",
        target=board,
        old={"revoked_at": None},
        new={"revoked_at": board.revoked_at},
    )
    return board

"""Writes for claims of Beano (961 CMR 3.04(6)(a), (b), (d), (e), (f), (1)(h)); the winners are
in ``winner_services`` (named here too), payouts in ``payout_services``. Each runs in
``rules.atomic()``: it locks what it changes, gathers the facts, has the rules judge them, saves,
and writes its audit event; the audit never sees a TIN or an ID number."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError

from beano import rules
from beano.actors import Actor
from beano.rules.cards import found_variant, position_name
from beano.rules.claims import (
    CARD_RESULT,
    RECORD_CLAIM,
    VERIFY_CARD,
    VERIFY_DRAW,
    CardFacts,
    CardWitnessFacts,
    ClaimFacts,
    DrawVerificationFacts,
    Witness,
)
from beano.text import text
from games import claims_selectors as selectors
from games.claim_locking import (
    NAME_LENGTH,
    locked_claim,
    locked_game,
    moment_of_game,
)
from games.models import CardVerification, Claim, DrawVerification, Game, PrizePart
from games.winner_services import PlayerEntry, proposed_shares, record_winners
from occasions import moments, on_floor, submissions
from occasions.floor_selectors import hours_facts
from occasions.models import FloorSubmission
from occasions.services import enforce_at
from organizations.audit import acting_user, record_event


@rules.atomic()
@submissions.answered_once(
    FloorSubmission.Action.CLAIM, Claim, occasion_of=lambda kwargs: kwargs["game"].occasion_id
)
def record_claim(
    *,
    game: Game,
    part: PrizePart,
    ball_in_hand: int | None,
    calling_begun: bool | None,
    by: Actor,
    player_name: str = "",
    table: str = "",
    at: moments.At = None,
) -> Claim:
    """A player calls Beano while the game is in play: the ball in the caller's hand, if any, and
    whether its calling had begun decide which balls count (3.04(6)(a)). ``calling_begun`` left
    unanswered (None) is what the console recorded: it keys a ball in as its calling begins, so
    the last ball keyed in had begun and a ball not keyed in had not."""
    moment = moment_of_game(game, at, by, "recording a claim")
    game = locked_game(game, moment)
    if game.status != Game.Status.IN_PLAY:
        raise ValidationError(f"{game} is {game.get_status_display().lower()}: no claim now.")
    if part.game_id != game.pk:
        raise ValidationError({"part": "That prize is not one of this game's."})
    if ball_in_hand is not None and not 1 <= ball_in_hand <= 75:
        raise ValidationError({"ball_in_hand": "A ball is numbered 1 to 75."})
    claim = Claim(
        game=game,
        part=part,
        player_name=text(player_name, "player_name", required=False),
        table=text(table, "table", required=False, limit=40),
        claimed_at=moment,
        ball_in_hand=ball_in_hand,
        recorded_by=acting_user(by),
    )
    called = selectors.called_before(claim)
    begun = _as_keyed(ball_in_hand, called) if calling_begun is None else calling_begun
    claim.calling_begun = bool(begun and ball_in_hand is not None)
    facts = ClaimFacts(
        called_before=called,
        ball_in_hand=ball_in_hand,
        calling_begun=bool(begun),
        part_announced=part.announced_at is not None,
        part_label=f"Prize {part.order} ({part.arrangement})",
        player=claim.player_name,
        table=claim.table,
    )
    enforce_at(RECORD_CLAIM, [facts, hours_facts(game.occasion, moment)], game.occasion, by)
    on_floor.require(game.occasion, by, moment, doing="recording a claim")
    claim.save()
    record_event(
        organization=game.occasion.organization,
        actor=by,
        action="games.claim.recorded",
        target=claim,
        new={
            "game": game.number,
            "part": part.order,
            "player_name": claim.player_name,
            "table": claim.table,
            "claimed_at": moment,
            "ball_in_hand": ball_in_hand,
            "calling_begun": claim.calling_begun,
            "calling_begun_answered": calling_begun is not None,
            "call": selectors.call_of(claim),
        },
    )
    return claim


def _as_keyed(ball_in_hand: int | None, called: tuple[int, ...]) -> bool:
    """Whether the ball in hand had begun to be called, as the console recorded it: it is the
    last ball keyed in. Never the answer 3.04(6)(a)'s rule refuses for an unanswered question."""
    return ball_in_hand is not None and bool(called) and called[-1] == ball_in_hand


def _names(values: Sequence[str]) -> list[str]:
    return [n for n in (text(v, "witnesses", required=False) for v in values) if n]


@rules.atomic()
def verify_draw(
    *,
    claim: Claim,
    member_in_charge: str,
    witnesses: Sequence[str],
    by: Actor,
    requested_by: str = "",
    at: moments.At = None,
) -> DrawVerification:
    """A player asks to verify the numbers drawn and the balls remaining (3.04(6)(d)): what was
    shown is kept, with who was present."""
    moment = moment_of_game(claim.game, at, by, "verifying the draw")
    claim = locked_claim(claim, moment)
    occasion = claim.game.occasion
    names = _names(witnesses)
    facts = DrawVerificationFacts(
        member_in_charge=text(member_in_charge, "member_in_charge", required=False),
        witnesses=tuple(names),
        winners=(claim.player_name,) if claim.player_name else (),
    )
    enforce_at(VERIFY_DRAW, [facts, hours_facts(occasion, moment)], occasion, by)
    on_floor.require(occasion, by, moment, doing="verifying the draw")
    counted = selectors.counted_balls(claim)
    row = DrawVerification.objects.create(
        claim=claim,
        requested_by=text(requested_by, "requested_by", required=False),
        member_in_charge=facts.member_in_charge,
        witnesses=names,
        numbers_drawn=list(counted),
        balls_remaining=selectors.remaining_balls(claim, counted),
        verified_by=acting_user(by),
        verified_at=moment,
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.draw.verified",
        target=row,
        new={
            "claim": claim.pk,
            "requested_by": row.requested_by,
            "member_in_charge": row.member_in_charge,
            "witnesses": names,
            "numbers_drawn": row.numbers_drawn,
            "balls_remaining": len(row.balls_remaining),
        },
    )
    return row


def _card_numbers(numbers: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    out = []
    for square, value in numbers.items():
        try:
            number = int(value)
        except (TypeError, ValueError) as error:
            raise ValidationError({"numbers": f"{square}: give a whole number."}) from error
        out.append((str(square).strip().upper(), number))
    return tuple(sorted(out, key=lambda sn: sn[0]))


def _card_witnesses(
    claim: Claim, witnesses: Sequence[Witness], by: Actor, moment: dt.datetime
) -> tuple[Witness, ...]:
    """The players before whom a card is verified, judged: one or more at a table other than
    the winner's (3.04(6)(e)), within the hours in force (3.04(7))."""
    people = tuple(
        Witness(
            text(w.name, "witnesses", required=False),
            text(w.table, "witnesses", required=False, limit=40),
        )
        for w in witnesses
    )
    people = tuple(w for w in people if w.name or w.table)
    enforce_at(
        VERIFY_CARD,
        [
            CardWitnessFacts(witnesses=people, winner=claim.player_name, winner_table=claim.table),
            hours_facts(claim.game.occasion, moment),
        ],
        claim.game.occasion,
        by,
    )
    return people


@rules.atomic()
def verify_card(
    *,
    claim: Claim,
    numbers: Mapping[str, Any],
    witnesses: Sequence[Witness],
    by: Actor,
    at: moments.At = None,
) -> CardVerification:
    """The numbers read from the winning card are checked against the balls that count and the
    announced arrangement, before one or more players at another table (3.04(6)(e)). Without
    such a witness it is refused; otherwise it is recorded valid, or invalid with each reason.
    What was read decides how: every numbered square is the whole card (a number not drawn is
    not covered), fewer are the arrangement's squares (each must have been drawn)."""
    moment = moment_of_game(claim.game, at, by, "verifying a card")
    claim = locked_claim(claim, moment)
    occasion = claim.game.occasion
    people = _card_witnesses(claim, witnesses, by, moment)
    on_floor.require(occasion, by, moment, doing="verifying a card")
    read = _card_numbers(numbers)
    arrangement = claim.part.arrangement
    facts = CardFacts(
        numbers=read,
        counted=selectors.counted_balls(claim),
        not_counted_in_hand=selectors.not_counted_in_hand(claim),
        arrangement=arrangement.name,
        variants=tuple(tuple(v) for v in arrangement.variants),
    )
    decision = rules.judge(CARD_RESULT, facts, on=occasion.date)
    row = CardVerification.objects.create(
        claim=claim,
        scope=CardVerification.Scope.WHOLE_CARD
        if facts.whole_card
        else CardVerification.Scope.ARRANGEMENT,
        numbers=dict(read),
        valid=decision.allowed,
        reasons=[v.as_dict() for v in decision.violations],
        witnesses=[{"name": w.name, "table": w.table} for w in people],
        verified_by=acting_user(by),
        verified_at=moment,
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.card.verified",
        target=row,
        new={
            "claim": claim.pk,
            "scope": row.scope,
            "numbers": row.numbers,
            "valid": row.valid,
            "reasons": [r["message"] for r in row.reasons],
            "position": _position(facts) if row.valid else "",
            "witnesses": row.witnesses,
        },
    )
    return row


def _position(facts: CardFacts) -> str:
    """Where the card won: the line, corner or block of the arrangement its covered squares
    complete ("row 2"), kept in the audit event as the card was judged."""
    return position_name(found_variant(facts.variants, facts.covered()) or ())


@rules.atomic()
def attest_card_on_paper(
    *, claim: Claim, witnesses: Sequence[Witness], by: Actor, at: moments.At
) -> CardVerification:
    """Entered from paper for a game whose balls were not entered: the game sheet's signatures
    attest that the winning card was verified in front of one or more players at another table
    (3.04(6)(e)). The witnesses are judged as they are live; the card, whose numbers the sheet
    does not keep, is recorded as verified on paper. A game whose balls are entered has its
    card's numbers checked against them, as on the floor."""
    if moments.paper_of(at) is None:
        raise ValidationError("A card is attested on paper only when entered from the sheets.")
    moment = moment_of_game(claim.game, at, by, "attesting a card on paper")
    claim = locked_claim(claim, moment)
    occasion = claim.game.occasion
    if claim.game.calls.exists():
        raise ValidationError(
            f"The balls of game {claim.game.number} are entered: give the winning card's "
            "numbers, to be checked against them as on the floor."
        )
    people = _card_witnesses(claim, witnesses, by, moment)
    on_floor.require(occasion, by, moment, doing="verifying a card")
    row = CardVerification.objects.create(
        claim=claim,
        scope=CardVerification.Scope.ARRANGEMENT,
        numbers={},
        valid=True,
        reasons=[],
        witnesses=[{"name": w.name, "table": w.table} for w in people],
        verified_by=acting_user(by),
        verified_at=moment,
        attested_on_paper=True,
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.card.attested_on_paper",
        target=row,
        new={"claim": claim.pk, "witnesses": row.witnesses, "attested_on_paper": True},
    )
    return row


__all__ = [
    "NAME_LENGTH",
    "PlayerEntry",
    "attest_card_on_paper",
    "locked_game",
    "moment_of_game",
    "proposed_shares",
    "record_claim",
    "record_winners",
    "verify_card",
    "verify_draw",
]

"""Writes for claims of Beano (961 CMR 3.04(6)(a), (b), (d), (e), (f), (1)(h)); payouts are in
``payout_services``. Each runs in ``rules.atomic()``: it locks what it changes,
gathers the facts, has the rules judge them, saves, and writes its audit event; the audit never
sees a TIN or an ID number."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError

from beano import rules
from beano.rules import names as people_names
from beano.rules.claims import (
    CARD_RESULT,
    RECORD_CLAIM,
    SHARE_PRIZE,
    VERIFY_CARD,
    VERIFY_DRAW,
    CardFacts,
    CardWitnessFacts,
    ClaimFacts,
    DrawVerificationFacts,
    SplitFacts,
    WinningClaimFacts,
    Witness,
)
from beano.rules.money import PRIZE, equal_substitute_value, optional_money, split_to_the_dollar
from beano.rules.workers import RECORD_WINNER, PlayerFacts
from games import claims_selectors as selectors
from games.models import CardVerification, Claim, DrawVerification, Game, PrizePart, Winner
from occasions import submissions
from occasions.floor_selectors import hours_facts
from occasions.models import FloorSubmission, Occasion
from occasions.services import enforce_at, moment_of, refuse_if_sealed, status_at
from organizations.audit import acting_user, record_event
from organizations.models import DirectorAuthorization, Person

NAME_LENGTH = 200


def one_line(value: str, field: str, limit: int = NAME_LENGTH) -> str:
    value = " ".join(str(value or "").split())
    if len(value) > limit:
        raise ValidationError({field: f"At most {limit} characters."})
    return value


def locked_game(game: Game, moment: dt.datetime) -> Game:
    """The game, locked, while its occasion was open at ``moment`` (now, for a live act)."""
    game = (
        Game.objects.select_for_update()
        .select_related("occasion__organization", "occasion__license")
        .get(pk=game.pk)
    )
    refuse_if_sealed(game.occasion)
    status = status_at(game.occasion, moment)
    if status != Occasion.Status.OPEN:
        raise ValidationError(
            f"This occasion is {Occasion.Status(status).label.lower()}: claims and "
            "payouts are recorded while it is open."
        )
    return game


def moment_of_game(game: Game, at: dt.datetime | None, by: Any, act: str) -> dt.datetime:
    return moment_of(game.occasion, at, by=by, act=act)


def _locked_claim(claim: Claim, moment: dt.datetime) -> Claim:
    locked_game(claim.game, moment)
    return (
        Claim.objects.select_for_update()
        .select_related("game__occasion__organization", "part__arrangement")
        .get(pk=claim.pk)
    )


def _enforce_together(
    checks: Sequence[tuple[str, Any]], occasion: Occasion, by: Any
) -> list[rules.Decision]:
    """Judge several actions (several winners and their split) and refuse once with every
    violation, so the member in charge sees all that is wrong at once."""
    decisions: list[rules.Decision] = []
    refusals: list[rules.RuleViolation] = []
    for action, facts in checks:
        try:
            decisions.append(enforce_at(action, facts, occasion, by))
        except rules.RuleViolation as error:
            refusals.append(error)
    if not refusals:
        return decisions
    decision = rules.Decision(
        action=refusals[0].decision.action,
        violations=[v for error in refusals for v in error.violations],
    )
    first = refusals[0].refusal or {}
    raise rules.RuleViolation(
        decision,
        first
        | {
            "facts": [error.refusal["facts"] for error in refusals if error.refusal],
            "violations": [v.as_dict() for v in decision.violations],
            "citations": ", ".join(sorted({v.citation for v in decision.violations})),
        },
    )


@rules.atomic()
@submissions.answered_once(
    FloorSubmission.Action.CLAIM, Claim, occasion_of=lambda kwargs: kwargs["game"].occasion_id
)
def record_claim(
    *,
    game: Game,
    part: PrizePart,
    ball_in_hand: int | None,
    calling_begun: bool,
    by: Any,
    player_name: str = "",
    table: str = "",
    at: dt.datetime | None = None,
) -> Claim:
    """A player calls Beano while the game is in play: the ball in the caller's hand, if any, and
    whether its calling had begun decide which balls count (3.04(6)(a))."""
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
        player_name=one_line(player_name, "player_name"),
        table=one_line(table, "table", 40),
        claimed_at=moment,
        ball_in_hand=ball_in_hand,
        calling_begun=bool(calling_begun and ball_in_hand is not None),
        recorded_by=acting_user(by),
    )
    facts = ClaimFacts(
        called_before=selectors.called_before(claim),
        ball_in_hand=ball_in_hand,
        calling_begun=bool(calling_begun),
        part_announced=part.announced_at is not None,
        part_label=f"Prize {part.order} ({part.arrangement})",
    )
    enforce_at(RECORD_CLAIM, [facts, hours_facts(game.occasion, moment)], game.occasion, by)
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
            "call": selectors.call_of(claim),
        },
    )
    return claim


def _names(values: Sequence[str]) -> list[str]:
    return [n for n in (one_line(v, "witnesses") for v in values) if n]


@rules.atomic()
def verify_draw(
    *,
    claim: Claim,
    member_in_charge: str,
    witnesses: Sequence[str],
    by: Any,
    requested_by: str = "",
    at: dt.datetime | None = None,
) -> DrawVerification:
    """A player asks to verify the numbers drawn and the balls remaining (3.04(6)(d)): what was
    shown is kept, with who was present."""
    moment = moment_of_game(claim.game, at, by, "verifying the draw")
    claim = _locked_claim(claim, moment)
    occasion = claim.game.occasion
    names = _names(witnesses)
    facts = DrawVerificationFacts(
        member_in_charge=one_line(member_in_charge, "member_in_charge"),
        witnesses=tuple(names),
        winners=(claim.player_name,) if claim.player_name else (),
    )
    enforce_at(VERIFY_DRAW, [facts, hours_facts(occasion, moment)], occasion, by)
    counted = selectors.counted_balls(claim)
    row = DrawVerification.objects.create(
        claim=claim,
        requested_by=one_line(requested_by, "requested_by"),
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
    claim: Claim, witnesses: Sequence[Witness], by: Any, moment: dt.datetime
) -> tuple[Witness, ...]:
    """The players before whom a card is verified, judged: one or more at a table other than
    the winner's (3.04(6)(e)), within the hours in force (3.04(7))."""
    people = tuple(
        Witness(one_line(w.name, "witnesses"), one_line(w.table, "witnesses", 40))
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
    by: Any,
    whole_card: bool = False,
    at: dt.datetime | None = None,
) -> CardVerification:
    """The numbers read from the winning card are checked against the balls that count and the
    announced arrangement, before one or more players at another table (3.04(6)(e)). Without
    such a witness it is refused; otherwise it is recorded valid, or invalid with each reason."""
    moment = moment_of_game(claim.game, at, by, "verifying a card")
    claim = _locked_claim(claim, moment)
    occasion = claim.game.occasion
    people = _card_witnesses(claim, witnesses, by, moment)
    read = _card_numbers(numbers)
    arrangement = claim.part.arrangement
    facts = CardFacts(
        numbers=read,
        whole_card=whole_card,
        counted=selectors.counted_balls(claim),
        not_counted_in_hand=selectors.not_counted_in_hand(claim),
        arrangement=arrangement.name,
        variants=tuple(tuple(v) for v in arrangement.variants),
    )
    decision = rules.judge(CARD_RESULT, facts, on=occasion.date)
    row = CardVerification.objects.create(
        claim=claim,
        scope=CardVerification.Scope.WHOLE_CARD
        if whole_card
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
            "witnesses": row.witnesses,
        },
    )
    return row


@rules.atomic()
def attest_card_on_paper(
    *, claim: Claim, witnesses: Sequence[Witness], by: Any, at: dt.datetime
) -> CardVerification:
    """Entered from paper for a game whose balls were not entered: the game sheet's signatures
    attest that the winning card was verified in front of one or more players at another table
    (3.04(6)(e)). The witnesses are judged as they are live; the card, whose numbers the sheet
    does not keep, is recorded as verified on paper. A game whose balls are entered has its
    card's numbers checked against them, as on the floor."""
    from occasions import paper

    if paper.current() is None:
        raise ValidationError("A card is attested on paper only when entered from the sheets.")
    moment = moment_of_game(claim.game, at, by, "attesting a card on paper")
    claim = _locked_claim(claim, moment)
    occasion = claim.game.occasion
    if claim.game.calls.exists():
        raise ValidationError(
            f"The balls of game {claim.game.number} are entered: give the winning card's "
            "numbers, to be checked against them as on the floor."
        )
    people = _card_witnesses(claim, witnesses, by, moment)
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


@dataclass(frozen=True)
class PlayerEntry:
    """A winning player as the member in charge records them; ``other_person_reason`` confirms
    that a player whose name is close to a listed worker's is someone else, and why."""

    name: str
    person: Person | None = None
    substitute: str = ""
    other_person_reason: str = ""


def _listed_person(
    name: str, person: Person | None, occasion: Occasion
) -> tuple[Person | None, list[Person]]:
    """Who a winner is, matched as a person: the one named, else the listed worker whose name
    this is written another way ("Gallagher, Mary"); and the listed workers it may be."""
    if person is not None:
        return person, []
    listed = selectors.listed_people(occasion)
    exact, near = people_names.match(name, ((p, p.legal_name) for p in listed))
    return (exact[0] if exact else None), near


def proposed_shares(
    part: PrizePart, winners: int, substitute_value: Decimal | None
) -> list[Decimal]:
    """The shares the split gives: cash or one winner's merchandise by ``split_to_the_dollar``;
    merchandise among several, equal substitute prizes (given, or the equal share to the cent)."""
    if part.kind == PrizePart.Kind.CASH or winners == 1:
        return split_to_the_dollar(part.amount, winners)
    value = substitute_value
    if value is None:
        value = equal_substitute_value(part.amount, winners)
    return [value] * winners


@rules.atomic()
def record_winners(
    *,
    claims: Sequence[Claim],
    players: Sequence[PlayerEntry],
    by: Any,
    substitute_value: Decimal | None = None,
    at: dt.datetime | None = None,
) -> list[Winner]:
    """The winners of one prize, all determined on the call of the same number, recorded together
    with their shares (3.04(6)(f)); each card verified as winning (6)(e); a person on the
    organization's worker list plays only under the Director's authorization (1)(h); a
    progressive game's jackpot only within the calls its series allows (8)(a)2."""
    if not claims or len(claims) != len(players):
        raise ValidationError("Give each winning claim its player.")
    if len({c.pk for c in claims}) != len(claims):
        raise ValidationError("A claim is one winner.")
    first = claims[0]
    if any(c.part_id != first.part_id or c.game_id != first.game_id for c in claims):
        raise ValidationError("Winners recorded together share one prize of one game.")
    moment = moment_of_game(first.game, at, by, "recording the winners")
    locked_game(first.game, moment)
    part = PrizePart.objects.select_for_update().select_related("arrangement").get(pk=first.part_id)
    locked = {
        c.pk: c for c in Claim.objects.select_for_update().filter(pk__in=[c.pk for c in claims])
    }
    pairs = sorted(
        ((locked[c.pk], p) for c, p in zip(claims, players, strict=True)),
        key=lambda cp: (cp[0].claimed_at, cp[0].pk),
    )
    occasion = Occasion.objects.select_related("organization", "license").get(
        pk=first.game.occasion_id
    )
    substitute_value = optional_money(substitute_value, PRIZE, "substitute_value")
    shares = proposed_shares(part, len(pairs), substitute_value)
    player_names = [one_line(p.name, "players") for _, p in pairs]
    if any(not n for n in player_names):
        raise ValidationError({"players": "Name each winning player."})
    split = SplitFacts(
        prize_kind=part.kind,
        prize_amount=part.amount,
        calls=tuple(selectors.call_of(c) for c, _ in pairs),
        shares=tuple(shares),
        substitutes=tuple(one_line(p.substitute, "players") for _, p in pairs),
        already_awarded=Winner.objects.filter(claim__part=part).exists(),
    )
    checks: list[tuple[str, Any]] = [(SHARE_PRIZE, split)]
    people: list[Person | None] = []
    jackpot_calls = selectors.jackpot_calls_allowed(part)
    for (claim, player), name in zip(pairs, player_names, strict=True):
        card = selectors.latest_card_verification(claim)
        person, near = _listed_person(name, player.person, occasion)
        people.append(person)
        checks.append(
            (
                RECORD_WINNER,
                [
                    PlayerFacts(
                        person_id=person.pk if person else 0,
                        name=name,
                        on_worker_list=person is not None
                        and selectors.on_worker_list(person, occasion),
                        near_listed=tuple(p.legal_name for p in near),
                        other_person_reason=one_line(
                            player.other_person_reason, "other_person_reason", 300
                        ),
                    ),
                    WinningClaimFacts(
                        player=name,
                        card_verified_valid=bool(card and card.valid),
                        balls_counted=len(selectors.counted_balls(claim)),
                        jackpot_calls_allowed=jackpot_calls,
                    ),
                    hours_facts(occasion, moment),
                ],
            )
        )
    decisions = _enforce_together(checks, occasion, by)
    several_merchandise = part.kind == PrizePart.Kind.MERCHANDISE and len(pairs) > 1
    winners = []
    for (claim, player), name, share, decision, person in zip(
        pairs, player_names, shares, decisions[1:], people, strict=True
    ):
        waiver = next((w for w in decision.waivers if w.code == "W-1H-WORKER-PLAYS"), None)
        winner = Winner.objects.create(
            claim=claim,
            player_name=name,
            person=person,
            share=share,
            kind=part.kind,
            substitute_description=one_line(player.substitute, "players")
            if several_merchandise
            else "",
            authorization=DirectorAuthorization.objects.get(pk=waiver.authorization_pk)
            if waiver
            else None,
            recorded_by=acting_user(by),
            recorded_at=moment,
        )
        record_event(
            organization=occasion.organization,
            actor=by,
            action="games.winner.recorded",
            target=winner,
            new={
                "claim": claim.pk,
                "game": claim.game.number,
                "part": part.order,
                "player_name": name,
                "person": person.pk if person else None,
                "other_person_reason": player.other_person_reason.strip() or None,
                "share": share,
                "kind": part.kind,
                "substitute_description": winner.substitute_description,
                "winners_on_the_call": len(pairs),
                "call": split.calls[0],
                "authorization": waiver.reference if waiver else None,
            },
        )
        winners.append(winner)
    return winners

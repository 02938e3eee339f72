"""The winners of a prize (961 CMR 3.04(6)(e), (f), (1)(h), (8)(a)2): recorded together, with
their shares split to the dollar, each judged before anything is saved."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError

from beano import locking, rules
from beano.actors import Actor
from beano.rules import names as people_names
from beano.rules.claims import SHARE_PRIZE, SplitFacts, WinningClaimFacts
from beano.rules.money import PRIZE, equal_substitute_value, optional_money, split_to_the_dollar
from beano.rules.workers import RECORD_WINNER, PlayerFacts
from beano.text import text
from games import claims_selectors as selectors
from games.claim_locking import enforce_together, locked_game, moment_of_game
from games.models import Claim, PrizePart, Winner
from occasions import moments, on_floor
from occasions.floor_selectors import hours_facts
from occasions.models import Occasion
from organizations.audit import acting_user, record_event
from organizations.models import DirectorAuthorization, Person


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
    by: Actor,
    substitute_value: Decimal | None = None,
    at: moments.At = None,
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
    part = locking.lock(PrizePart.objects).select_related("arrangement").get(pk=first.part_id)
    locked = {c.pk: c for c in locking.lock(Claim.objects).filter(pk__in=[c.pk for c in claims])}
    pairs = sorted(
        ((locked[c.pk], p) for c, p in zip(claims, players, strict=True)),
        key=lambda cp: (cp[0].claimed_at, cp[0].pk),
    )
    occasion = Occasion.objects.select_related("organization", "license").get(
        pk=first.game.occasion_id
    )
    substitute_value = optional_money(substitute_value, PRIZE, "substitute_value")
    shares = proposed_shares(part, len(pairs), substitute_value)
    player_names = [text(p.name, "players", required=False) for _, p in pairs]
    if any(not n for n in player_names):
        raise ValidationError({"players": "Name each winning player."})
    split = SplitFacts(
        prize_kind=part.kind,
        prize_amount=part.amount,
        calls=tuple(selectors.call_of(c) for c, _ in pairs),
        shares=tuple(shares),
        substitutes=tuple(text(p.substitute, "players", required=False) for _, p in pairs),
        already_awarded=Winner.objects.filter(claim__part=part).exists(),
    )
    checks: list[tuple[str, Any]] = [(SHARE_PRIZE, split)]
    people: list[Person | None] = []
    jackpot_calls = selectors.jackpot_calls_allowed(part)
    for (claim, player), name in zip(pairs, player_names, strict=True):
        person, facts = _winner_facts(claim, player, name, occasion, moment, jackpot_calls)
        people.append(person)
        checks.append((RECORD_WINNER, facts))
    decisions = enforce_together(checks, occasion, by)
    on_floor.require(occasion, by, moment, doing="recording the winners")
    several_merchandise = part.kind == PrizePart.Kind.MERCHANDISE and len(pairs) > 1
    return [
        _save_winner(
            claim,
            player,
            name,
            person,
            share,
            decision,
            part=part,
            split=split,
            several_merchandise=several_merchandise,
            occasion=occasion,
            moment=moment,
            by=by,
        )
        for (claim, player), name, share, decision, person in zip(
            pairs, player_names, shares, decisions[1:], people, strict=True
        )
    ]


def _winner_facts(
    claim: Claim,
    player: PlayerEntry,
    name: str,
    occasion: Occasion,
    moment: dt.datetime,
    jackpot_calls: int | None,
) -> tuple[Person | None, list[Any]]:
    """Who the winner is, and the facts the rules judge of them: a listed worker plays only
    under an authorization (1)(h); the card verified as winning (6)(e); the jackpot's calls."""
    card = selectors.latest_card_verification(claim)
    person, near = _listed_person(name, player.person, occasion)
    return person, [
        PlayerFacts(
            person_id=person.pk if person else 0,
            name=name,
            on_worker_list=person is not None and selectors.on_worker_list(person, occasion),
            near_listed=tuple(p.legal_name for p in near),
            other_person_reason=text(
                player.other_person_reason, "other_person_reason", required=False, limit=300
            ),
        ),
        WinningClaimFacts(
            player=name,
            card_verified_valid=bool(card and card.valid),
            balls_counted=len(selectors.counted_balls(claim)),
            jackpot_calls_allowed=jackpot_calls,
        ),
        hours_facts(occasion, moment),
    ]


def _save_winner(
    claim: Claim,
    player: PlayerEntry,
    name: str,
    person: Person | None,
    share: Decimal,
    decision: rules.Decision,
    *,
    part: PrizePart,
    split: SplitFacts,
    several_merchandise: bool,
    occasion: Occasion,
    moment: dt.datetime,
    by: Actor,
) -> Winner:
    """One winner saved, with its audit event, once every winner of the call was judged."""
    waiver = next((w for w in decision.waivers if w.code == "W-1H-WORKER-PLAYS"), None)
    winner = Winner.objects.create(
        claim=claim,
        player_name=name,
        person=person,
        share=share,
        kind=part.kind,
        substitute_description=text(player.substitute, "players", required=False)
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
            "winners_on_the_call": len(split.calls),
            "call": split.calls[0],
            "authorization": waiver.reference if waiver else None,
        },
    )
    return winner

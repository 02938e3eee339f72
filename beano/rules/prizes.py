"""961 CMR 3.04(8)(d)-(f): prizes varying with attendance, door prizes and gifts, and the
redemption of charity game tickets."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from django.db import models

from beano.rules.authorizations import AuthorizationKind
from beano.rules.base import rule
from beano.rules.facilities import CHARITY_SELL, CharityTicketSaleFacts
from beano.rules.limits import LimitName, Limits

ANNOUNCE_VARYING = "extras.varying_prizes.announce"
RECORD_REFUND = "extras.refund.record"
AWARD_DOOR_PRIZE = "extras.door_prize.award"
GIVE_GIFT = "extras.gift.give"
CHARITY_REDEEM = "extras.charity_ticket.redeem"


class GiftKind(models.TextChoices):
    FREE_PLAY = "free_play", "Free play"
    SERVICE = "service", "Service"
    THING = "thing", "Thing of value"


@dataclass(frozen=True)
class VaryingPrizesFacts:
    """The announcement of prizes varied by attendance, and where the occasion stands."""

    persons_entitled_to_play: int
    prizes_announced: str
    applies_to_all_games: bool
    refunds_offered: bool
    play_started: bool
    already_announced: bool


@rule(
    code="P-8D-BEFORE-PLAY",
    citation="961 CMR 3.04(8)(d)",
    title="Varying prizes are announced before any game is played",
    guards=(ANNOUNCE_VARYING,),
)
def varying_prizes_before_play(f: VaryingPrizesFacts, limits: Limits) -> Iterator[str]:
    """The announcement of the number of persons entitled to play and the prizes must be made
    before any games are played; once the first game has started it is too late."""
    if f.play_started:
        yield "A game has already been played: prizes can no longer be varied by attendance."


@rule(
    code="P-8D-ANNOUNCEMENT",
    citation="961 CMR 3.04(8)(d)",
    title="The announcement states the persons entitled to play and the prizes",
    guards=(ANNOUNCE_VARYING,),
)
def varying_prizes_announced_in_full(f: VaryingPrizesFacts, limits: Limits) -> Iterator[str]:
    """The announcement gives the number of persons entitled to play present and the prizes to
    be awarded."""
    if f.persons_entitled_to_play < 1:
        yield "Announce the number of persons entitled to play who are present."
    if not f.prizes_announced.strip():
        yield "Announce the prizes to be awarded."


@rule(
    code="P-8D-ALL-GAMES",
    citation="961 CMR 3.04(8)(d)",
    title="Once invoked, varying prizes apply to every game of the occasion",
    guards=(ANNOUNCE_VARYING,),
)
def varying_prizes_apply_to_all_games(f: VaryingPrizesFacts, limits: Limits) -> Iterator[str]:
    """If the option is invoked it applies to all games played that occasion: it is announced
    once, for every game, and not changed afterwards."""
    if f.already_announced:
        yield "Varying prizes were already announced for this occasion; the announcement stands."
    if not f.applies_to_all_games:
        yield "Varying prizes apply to every game of the occasion, not to some of them."


@rule(
    code="P-8D-REFUNDS-OFFERED",
    citation="961 CMR 3.04(8)(d)",
    title="Paid patrons are offered refunds when prizes vary with attendance",
    guards=(ANNOUNCE_VARYING,),
)
def varying_prizes_offer_refunds(f: VaryingPrizesFacts, limits: Limits) -> Iterator[str]:
    """Paid patrons must be offered refunds when the organization invokes 3.04(8)(d)."""
    if not f.refunds_offered:
        yield "Paid patrons must be offered refunds with the announcement."


@dataclass(frozen=True)
class RefundFacts:
    amount: Decimal
    varying_prizes_announced: bool


@rule(
    code="P-8D-REFUND-UNDER-ANNOUNCEMENT",
    citation="961 CMR 3.04(8)(d)",
    title="A refund is recorded under the occasion's varying-prizes announcement",
    guards=(RECORD_REFUND,),
)
def refund_follows_announcement(f: RefundFacts, limits: Limits) -> Iterator[str]:
    """The refunds of 3.04(8)(d) are those offered to paid patrons when prizes are varied with
    attendance; without that announcement there is no such refund to record."""
    if not f.varying_prizes_announced:
        yield "No varying-prizes announcement was made at this occasion; no refund is owed."


@dataclass(frozen=True)
class DoorPrizeFacts:
    description: str
    value: Decimal
    awarded_before: Decimal  # the door prizes already awarded at the occasion


@rule(
    code="P-8E-DOOR-PRIZES",
    citation="961 CMR 3.04(8)(e)",
    title="Door prizes stay within the aggregate value in force per occasion ($200)",
    guards=(AWARD_DOOR_PRIZE,),
)
def door_prizes_within_aggregate(f: DoorPrizeFacts, limits: Limits) -> Iterator[str]:
    """Door prizes may be offered only while their aggregate value per occasion stays within
    the figure in force (two hundred dollars); donated ones count at fair market value."""
    limit = limits.get(LimitName.MAX_DOOR_PRIZES_OCCASION)
    if limit is None:
        return
    total = f.awarded_before + f.value
    if total > limit:
        yield (
            f"{f.description} (${f.value:,.2f}) would bring door prizes to ${total:,.2f}; "
            f"their aggregate value per occasion is at most ${limit:,.2f}."
        )


@dataclass(frozen=True)
class GiftFacts:
    kind: str
    description: str
    value: Decimal


@rule(
    code="P-8E-NO-GIFTS",
    citation="961 CMR 3.04(8)(e)",
    title="No free play, service or thing of value without the Director's written authorization",
    guards=(GIVE_GIFT,),
    waiver=AuthorizationKind.FREE_PLAY_OR_GIFTS,
)
def no_gifts(f: GiftFacts, limits: Limits) -> Iterator[str]:
    """Except as the Director authorizes in writing, no service, thing of value or opportunity
    to play Beano is offered, distributed or given without charge."""
    label = GiftKind(f.kind).label if f.kind in GiftKind.values else "Gift"
    yield (
        f"{f.description} ({label.lower()}): nothing is given without charge unless the "
        "Director has authorized it in writing, valid on this date."
    )


@rule(
    code="P-8F-SERIAL-ASSIGNED",
    citation="961 CMR 3.04(8)(f)",
    title="Charity game tickets sold carry a serial the Commission assigned to the organization",
    guards=(CHARITY_SELL,),
)
def charity_serial_is_the_organizations(f: CharityTicketSaleFacts, limits: Limits) -> Iterator[str]:
    """Only tickets whose serial number the Commission assigned to the organization at the
    time of sale may ever be redeemed by it, so a ticket with another serial is not sold."""
    if not f.serial_assigned:
        yield f"Serial {f.serial_number} is not assigned to this organization by the Commission."


def one_year_after(day: dt.date) -> dt.date:
    """The same day a year later (February 29 gives February 28)."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return day.replace(year=day.year + 1, day=28)


@dataclass(frozen=True)
class CharityRedemptionFacts:
    serial_number: str
    sold_by_organization: bool
    serial_assigned_at_sale: bool
    sale_date: dt.date | None
    redeemed_on: dt.date


@rule(
    code="P-8F-OWN-TICKETS",
    citation="961 CMR 3.04(8)(f)",
    title="Only tickets the organization sold, with a serial assigned to it, are redeemed",
    guards=(CHARITY_REDEEM,),
)
def redeem_own_tickets_only(f: CharityRedemptionFacts, limits: Limits) -> Iterator[str]:
    """A winning ticket is redeemed only if the organization sold it and its serial number is
    the one the Commission assigned to the organization at the time of sale."""
    if not f.sold_by_organization:
        yield f"Serial {f.serial_number} was not sold by this organization."
    elif not f.serial_assigned_at_sale:
        yield f"Serial {f.serial_number} was not assigned to this organization when sold."


@rule(
    code="P-8F-ONE-YEAR",
    citation="961 CMR 3.04(8)(f)",
    title="Charity game tickets are redeemed up to one year from the date of sale",
    guards=(CHARITY_REDEEM,),
)
def redeem_within_one_year(f: CharityRedemptionFacts, limits: Limits) -> Iterator[str]:
    """Redemption is allowed up to one year from the date of sale, that day included."""
    if f.sale_date is None:
        return
    last = one_year_after(f.sale_date)
    if f.redeemed_on > last:
        yield (
            f"Serial {f.serial_number} was sold on {f.sale_date:%B %-d, %Y}; it could be "
            f"redeemed until {last:%B %-d, %Y}."
        )
    elif f.redeemed_on < f.sale_date:
        yield f"Serial {f.serial_number} cannot be redeemed before it was sold."

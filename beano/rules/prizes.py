"""961 CMR 3.04(8): the prizes of the program's games within the maximums in force, bonus and
winner-take-all prizes ((a)1, (a)3, (b), (c)); prizes varying with attendance, door prizes and
gifts, and the redemption of charity game tickets ((d)-(f))."""

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
from beano.rules.money import CENT, cents, usd
from beano.rules.operation import ADD_PART, START_GAME

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
            f"{f.description} ({usd(f.value)}) would bring door prizes to {usd(total)}; "
            f"their aggregate value per occasion is at most {usd(limit)}."
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
    #: The day the redemption is recorded: a redemption is dated no later.
    today: dt.date
    #: Tickets of this serial the organization sold up to the redemption's day, and how many
    #: of them are redeemed already (this one not counted).
    tickets_sold: int = 0
    redeemed_before: int = 0


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
    """Redemption is allowed up to one year from the date of sale, that day included, and is
    recorded when it has happened: never dated after the day it is recorded."""
    if f.redeemed_on > f.today:
        yield (
            f"A redemption cannot be dated after today ({f.today:%B %-d, %Y}): record it on "
            "the day the prize is paid."
        )
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


@rule(
    code="P-8F-REDEEMED-ONCE",
    citation="961 CMR 3.04(8)(f)",
    title="A charity game ticket sold is redeemed once",
    guards=(CHARITY_REDEEM,),
)
def each_ticket_redeemed_once(f: CharityRedemptionFacts, limits: Limits) -> Iterator[str]:
    """3.04(8)(f) lets an organization redeem only tickets it sold: a serial names a deal of
    tickets, so the tickets of a serial redeemed can never outnumber those of it sold. One more
    redemption than tickets sold is a ticket redeemed twice (or one the organization did not
    sell), which "the redemption ... of any Charity Game ticket other than as described"
    prohibits."""
    if f.sale_date is not None and f.redeemed_before >= f.tickets_sold:
        sold = f"{f.tickets_sold} ticket{'s' if f.tickets_sold != 1 else ''}"
        yield (
            f"Serial {f.serial_number}: {sold} sold and {f.redeemed_before} already redeemed; "
            "a ticket is redeemed once."
        )


# The prizes of the program's games: 961 CMR 3.04(8)(a)1, (a)3, (b), (c).

ZERO = Decimal("0.00")
#: 3.04(8)(a)3: the deduction from a winner-take-all game's receipts (supplies and the tax), and
#: the most of it that may cover the game's costs. Figures of 3.04 itself, not of the Beano Law.
WINNER_TAKE_ALL_DEDUCTION = Decimal("0.10")
WINNER_TAKE_ALL_MAX_COSTS = Decimal("0.05")

REGULAR_BONUS = "regular_bonus"
WINNER_TAKE_ALL = "winner_take_all"
PROGRESSIVE = "progressive"
MERCHANDISE = "merchandise"


def winner_take_all_figure(receipts: Decimal, limits: Limits) -> Decimal:
    """The prize of a winner-take-all game (3.04(8)(a)3): its receipts less the ten percent
    deduction for the supplies and the tax (of which the game's costs take at most five percent
    of the receipts), rounded to the cent, half up, and never more than the maximum single-game
    prize in force."""
    prize = cents(receipts * (1 - WINNER_TAKE_ALL_DEDUCTION))
    ceiling = limits.get(LimitName.MAX_PRIZE_SINGLE_GAME)
    if ceiling is not None and prize > ceiling:
        return ceiling.quantize(CENT)
    return max(prize, ZERO)


@dataclass(frozen=True)
class PrizePartFacts:
    """A prize part added to a game of the program, and what the game and the occasion already
    offer. ``amount`` is the cash, or the merchandise's cost, or its fair market value if
    donated (3.04(8)(c))."""

    game_number: int
    game_kind: str
    kind: str  # cash or merchandise
    amount: Decimal
    description: str
    donated: bool
    is_bonus: bool
    game_prize_before: Decimal  # the game's other parts that are not bonus prizes
    game_bonus_before: Decimal  # the game's other bonus parts
    occasion_prizes_before: Decimal  # every part of every game of the occasion
    bonus_card_price: Decimal | None  # the bonus card on the occasion's price list, if posted


@rule(
    code="P-8B-SINGLE-GAME",
    citation="961 CMR 3.04(8)(b)",
    title="A game's prize stays within the maximum single-game prize in force",
    guards=(ADD_PART,),
)
def single_game_prize(f: PrizePartFacts, limits: Limits) -> Iterator[str]:
    """No prize exceeds the maximum a licensee may give in cash or merchandise for a single
    game: the game's parts added up, merchandise at cost or, if donated, at fair market value
    (3.04(8)(c)). Bonus prizes are judged by 3.04(8)(a)1 and a progressive jackpot by the
    progressive maximum (3.04(8)(a)2), not here."""
    ceiling = limits.get(LimitName.MAX_PRIZE_SINGLE_GAME)
    if ceiling is None or f.is_bonus or f.game_kind == PROGRESSIVE:
        return
    total = f.game_prize_before + f.amount
    if total > ceiling:
        yield (
            f"Game {f.game_number}'s prize would be {usd(total)}; a single game's prize is at "
            f"most {usd(ceiling)}."
        )


@rule(
    code="P-8B-OCCASION-TOTAL",
    citation="961 CMR 3.04(8)(b)",
    title="The occasion's prizes stay within the total in force (none known today)",
    guards=(ADD_PART,),
)
def occasion_total_prizes(f: PrizePartFacts, limits: Limits) -> Iterator[str]:
    """The total prizes of the occasion's games, every part of every game, may not exceed the
    figure the Beano Law allows, where a figure is in force; none is known today."""
    ceiling = limits.get(LimitName.MAX_TOTAL_PRIZES_OCCASION)
    if ceiling is None:
        return
    total = f.occasion_prizes_before + f.amount
    if total > ceiling:
        yield (
            f"The occasion's prizes would come to {usd(total)}; they are at most "
            f"{usd(ceiling)} an occasion."
        )


@rule(
    code="P-8A1-BONUS-ON-REGULAR",
    citation="961 CMR 3.04(8)(a)",
    title="A bonus prize only on a regular game played with bonus cards",
    guards=(ADD_PART,),
)
def bonus_on_regular_game(f: PrizePartFacts, limits: Limits) -> Iterator[str]:
    """On regular games a bonus or additional prize may be awarded on the purchase of a bonus
    card: the game is a "regular with bonus" game."""
    if f.is_bonus and f.game_kind != REGULAR_BONUS:
        yield (
            f"Game {f.game_number} is not a regular game with a bonus: a bonus prize is "
            "offered only on such a game."
        )


@rule(
    code="P-8A1-BONUS-CARDS",
    citation="961 CMR 3.04(8)(a)",
    title="A bonus prize rests on bonus cards sold at a posted price",
    guards=(ADD_PART,),
)
def bonus_on_bonus_cards(f: PrizePartFacts, limits: Limits) -> Iterator[str]:
    """The bonus prize is awarded on the basis of the purchase of bonus cards and increases in
    direct relation to their cost: the occasion's price list must post a bonus card at a price
    above nothing."""
    if f.is_bonus and (f.bonus_card_price is None or f.bonus_card_price <= 0):
        yield (
            "No bonus card is posted at a price on the occasion's price list: a bonus prize "
            "is awarded on the purchase of bonus cards."
        )


@rule(
    code="P-8A1-BONUS-LIMIT",
    citation="961 CMR 3.04(8)(a)",
    title="A bonus adds at most 100 % of the maximum single-game prize",
    guards=(ADD_PART,),
)
def bonus_within_limit(f: PrizePartFacts, limits: Limits) -> Iterator[str]:
    """No bonus or additional prize increases the game's prize by more than 100 % of the
    maximum single-game prize in force, nor beyond the maximum bonus prize of the Beano Law;
    the game's bonus parts are added up."""
    if not f.is_bonus:
        return
    total = f.game_bonus_before + f.amount
    for name, words in (
        (LimitName.MAX_PRIZE_SINGLE_GAME, "100 % of the maximum single-game prize"),
        (LimitName.MAX_BONUS_PRIZE, "the maximum bonus prize"),
    ):
        ceiling = limits.get(name)
        if ceiling is not None and total > ceiling:
            yield (
                f"Game {f.game_number}'s bonus would add {usd(total)}; a bonus adds at most "
                f"{words}, {usd(ceiling)}."
            )


@rule(
    code="P-8C-MERCHANDISE-VALUED",
    citation="961 CMR 3.04(8)(c)",
    title="A merchandise prize is described and valued at cost, or fair market value if donated",
    guards=(ADD_PART,),
)
def merchandise_valued(f: PrizePartFacts, limits: Limits) -> Iterator[str]:
    """Merchandise counts toward the prize limits at its cost to the organization or, if
    donated, at its fair market value: it is described, and its value is given. Only
    merchandise can be donated."""
    if f.kind != MERCHANDISE:
        if f.donated:
            yield "Only merchandise is recorded as donated; a cash prize is the organization's."
        return
    if not f.description.strip():
        yield "Describe the merchandise prize."
    if f.amount <= 0:
        basis = "fair market value" if f.donated else "cost to the organization"
        yield f"Give the merchandise's {basis}: it counts toward the prize limits."


@dataclass(frozen=True)
class WinnerTakeAllFacts:
    """A winner-take-all game's prize beside the receipts of its cards, less voided sales."""

    game_number: int
    winner_take_all: bool  # the game's kind
    amount: Decimal | None  # the prize part (being added, or the game's one part at its start)
    other_parts: int  # the game's parts besides that one
    receipts: Decimal


@rule(
    code="P-8A3-WINNER-TAKE-ALL",
    citation="961 CMR 3.04(8)(a)",
    title="A winner-take-all prize is its receipts less 10 %, within the single-game maximum",
    guards=(ADD_PART, START_GAME),
)
def winner_take_all_prize(f: WinnerTakeAllFacts, limits: Limits) -> Iterator[str]:
    """The prize of a winner-take-all game equals the receipts of its cards less a ten percent
    deduction for the supplies and the tax (the game's costs deducted up to five percent of the
    receipts), rounded to the cent, half up, and never above the maximum single-game prize: no
    other amount, and one prize for the game. Judged when the prize is added and again when the
    game begins, since cards sold after the announcement change it."""
    if not f.winner_take_all or f.amount is None:
        return
    if f.other_parts:
        yield f"Game {f.game_number} is winner-take-all: it has one prize, its receipts' share."
    figure = winner_take_all_figure(f.receipts, limits)
    if f.amount == figure:
        return
    share = cents(f.receipts * (1 - WINNER_TAKE_ALL_DEDUCTION))
    if share > figure:  # the single-game maximum holds it: say so, or the sum does not add up
        yield (
            f"Game {f.game_number}'s prize is its receipts less 10 %: {usd(f.receipts)} less "
            f"10 % is {usd(share)}, held to the single-game maximum of {usd(figure)}; the "
            f"prize is {usd(figure)}, not {usd(f.amount)}."
        )
    else:
        yield (
            f"Game {f.game_number}'s prize is its receipts of {usd(f.receipts)} less 10 %: "
            f"{usd(figure)}, not {usd(f.amount)}."
        )

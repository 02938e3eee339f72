"""961 CMR 3.04(9)(a), (d), (e) and (5)(b): raffles under a permit, transportation of patrons,
and what else may be sold during an occasion."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import models

from beano.rules.authorizations import AuthorizationKind
from beano.rules.base import rule
from beano.rules.limits import Limits

CREATE_RAFFLE = "extras.raffle.create"
SELL_RAFFLE_TICKET = "extras.raffle.sell_ticket"
ARRANGE_TRANSPORTATION = "extras.transportation.arrange"
RECORD_OTHER_SALE = "extras.other_sale.record"

#: The window around an occasion in which 3.04(9)(e) limits what may be sold.
SALES_WINDOW = dt.timedelta(hours=1)


class RafflePrizeKind(models.TextChoices):
    MERCHANDISE = "merchandise", "Merchandise"
    CHARITY_TICKETS = "charity_tickets", "Charity game tickets"
    CASH = "cash", "Cash"
    CASH_EQUIVALENT = "cash_equivalent", "Cash equivalent (gift card)"
    BREAK_OPEN = "break_open", "Break-open tickets (jar tickets, Supreme Raffles)"


class SaleKind(models.TextChoices):
    BEANO_SUPPLIES = "beano_supplies", "Beano supplies"
    RAFFLE_OR_LOTTERY = "raffle_or_lottery", "Raffle or lottery tickets"
    FOOD = "food", "Food or refreshments"
    OTHER = "other", "Other goods or services"


ALLOWED_SALE_KINDS = frozenset({SaleKind.BEANO_SUPPLIES, SaleKind.RAFFLE_OR_LOTTERY, SaleKind.FOOD})


@dataclass(frozen=True)
class RaffleFacts:
    permit_number: str
    permit_valid_from: dt.date
    permit_valid_to: dt.date
    on: dt.date
    prize_kind: str
    prize_description: str


@rule(
    code="X-9A-RAFFLE-PERMIT",
    citation="961 CMR 3.04(9)(a)",
    title="Raffles only under a raffle permit valid on the date",
    guards=(CREATE_RAFFLE, SELL_RAFFLE_TICKET),
)
def raffle_permit_valid(f: RaffleFacts, limits: Limits) -> Iterator[str]:
    """No game of chance but Beano at an occasion, except raffle tickets sold by an organization
    holding a valid raffle permit from its city or town clerk."""
    if not f.permit_valid_from <= f.on <= f.permit_valid_to:
        yield (
            f"Raffle permit {f.permit_number} is valid {f.permit_valid_from:%b %-d, %Y} to "
            f"{f.permit_valid_to:%b %-d, %Y}, not on {f.on:%b %-d, %Y}."
        )


@rule(
    code="X-9A-NO-CASH-PRIZE",
    citation="961 CMR 3.04(9)(a)",
    title="No cash or cash-equivalent raffle prizes",
    guards=(CREATE_RAFFLE, SELL_RAFFLE_TICKET),
)
def raffle_prize_not_cash(f: RaffleFacts, limits: Limits) -> Iterator[str]:
    """No cash (or the equivalent of cash, such as a gift card) prizes are offered or awarded
    in raffles held during Beano."""
    if f.prize_kind in (RafflePrizeKind.CASH, RafflePrizeKind.CASH_EQUIVALENT):
        yield f"{f.prize_description}: a raffle prize may not be cash or the equivalent of cash."


@rule(
    code="X-9A-NO-BREAK-OPEN",
    citation="961 CMR 3.04(9)(a)",
    title="No break-open tickets in raffles, except charity game tickets as prizes",
    guards=(CREATE_RAFFLE, SELL_RAFFLE_TICKET),
)
def raffle_without_break_open(f: RaffleFacts, limits: Limits) -> Iterator[str]:
    """Break-open tickets (Supreme Raffles, jar tickets and the like) are not employed in
    raffles; charity game tickets may be given as raffle prizes."""
    if f.prize_kind == RafflePrizeKind.BREAK_OPEN:
        yield f"{f.prize_description}: break-open tickets may not be used in a raffle."


@dataclass(frozen=True)
class RaffleTicketFacts:
    admission_receipt_number: int
    admission_receipt_valid: bool
    sold_at: dt.datetime
    opened_at: dt.datetime | None
    closed_at: dt.datetime | None


@rule(
    code="X-5B-RAFFLE-ADMITTED",
    citation="961 CMR 3.04(5)(b)",
    title="Raffle tickets are sold only to persons who paid the admission",
    guards=(SELL_RAFFLE_TICKET,),
)
def raffle_tickets_to_admitted_players(f: RaffleTicketFacts, limits: Limits) -> Iterator[str]:
    """No person who has not paid the admission charge may purchase raffle tickets allowed by
    3.04(9)(a): each sale names the buyer's admission receipt at this occasion."""
    if not f.admission_receipt_valid:
        yield (
            f"Admission receipt {f.admission_receipt_number} is not a paid admission at this "
            "occasion."
        )


@rule(
    code="X-9A-RAFFLE-HOURS",
    citation="961 CMR 3.04(9)(a)",
    title="Raffle tickets are sold during the hours of Beano operation",
    guards=(SELL_RAFFLE_TICKET,),
)
def raffle_tickets_during_beano(f: RaffleTicketFacts, limits: Limits) -> Iterator[str]:
    """A permit holder may sell raffle tickets during the hours of Beano operation: between the
    occasion's opening and its close."""
    if f.opened_at is None or f.sold_at < f.opened_at:
        yield "Raffle tickets are sold only once the occasion has opened."
    elif f.closed_at is not None and f.sold_at > f.closed_at:
        yield "Raffle tickets are not sold after the occasion has closed."


@dataclass(frozen=True)
class TransportationFacts:
    description: str


@rule(
    code="X-9D-TRANSPORTATION",
    citation="961 CMR 3.04(9)(d)",
    title="No transportation of players without the Director's prior written authorization",
    guards=(ARRANGE_TRANSPORTATION,),
    waiver=AuthorizationKind.TRANSPORTATION,
)
def no_transportation(f: TransportationFacts, limits: Limits) -> Iterator[str]:
    """No organization directly or indirectly provides transportation of players to or from the
    premises (including the ways immediately adjoining) without the Director's prior written
    authorization, valid on the date."""
    yield (
        f"{f.description}: transporting players needs the Director's prior written "
        "authorization, valid on this date."
    )


@dataclass(frozen=True)
class OtherSaleFacts:
    kind: str
    description: str
    on_beano_portion: bool
    sold_at: dt.datetime
    opened_at: dt.datetime
    closed_at: dt.datetime | None  # None while the occasion is open


def within_sales_window(f: OtherSaleFacts) -> bool:
    """During the occasion or within the hour before it opens or after it closes."""
    if f.sold_at < f.opened_at - SALES_WINDOW:
        return False
    return f.closed_at is None or f.sold_at <= f.closed_at + SALES_WINDOW


@rule(
    code="X-9E-OTHER-SALES",
    citation="961 CMR 3.04(9)(e)",
    title="Only Beano supplies, raffle or lottery tickets and food are sold around an occasion",
    guards=(RECORD_OTHER_SALE,),
)
def only_allowed_sales(f: OtherSaleFacts, limits: Limits) -> Iterator[str]:
    """On the portion of the premises used for Beano, during the occasion and for one hour
    before and after it, the organization sells only Beano supplies, raffle or lottery tickets
    authorized under 3.04(9)(a), and food or refreshments."""
    if f.kind not in ALLOWED_SALE_KINDS and f.on_beano_portion and within_sales_window(f):
        yield (
            f"{f.description}: only Beano supplies, raffle or lottery tickets and food or "
            "refreshments are sold where Beano is played, from an hour before the occasion to "
            "an hour after."
        )

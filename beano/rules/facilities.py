"""961 CMR 3.04(3)(e): a police officer of the town, at no more than its prevailing rate and in no
other capacity; and M.G.L. c. 10 § 37: charity game tickets are sold only on the licensee's
premises, at its occasion."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from beano.rules.base import rule
from beano.rules.limits import Limits
from beano.rules.money import usd
from beano.text import same_words

RECORD_POLICE_DETAIL = "extras.police_detail.record"
CHARITY_SELL = "extras.charity_ticket.sell"


@dataclass(frozen=True)
class PoliceDetailFacts:
    officer_name: str
    occasion_town: str
    department_town: str
    hourly_rate: Decimal
    prevailing_rate: Decimal | None  # the town's rate in force on the date; None: none recorded
    on_worker_list: bool  # the officer's name is on the organization's worker list this year


@rule(
    code="F-3E-TOWN-OFFICER",
    citation="961 CMR 3.04(3)(e)",
    title="The police officer is of the city or town where the occasion is conducted",
    guards=(RECORD_POLICE_DETAIL,),
)
def officer_of_the_town(f: PoliceDetailFacts, limits: Limits) -> Iterator[str]:
    """The organization may retain a police officer of the city or town of the occasion."""
    if not same_words(f.occasion_town, f.department_town):
        yield (
            f"{f.officer_name} serves {f.department_town}; the occasion is in {f.occasion_town}."
        )


@rule(
    code="F-3E-PREVAILING-RATE",
    citation="961 CMR 3.04(3)(e)",
    title="The officer is paid no more than the town's prevailing rate in force",
    guards=(RECORD_POLICE_DETAIL,),
)
def rate_within_prevailing(f: PoliceDetailFacts, limits: Limits) -> Iterator[str]:
    """Compensation may not exceed the rate currently prevailing for such services in the town;
    with no prevailing rate on record for the date it cannot be shown to, so it is refused."""
    if f.prevailing_rate is None:
        yield (
            f"No prevailing police rate for {f.department_town} is on record for this date; "
            "the Commission records it."
        )
    elif f.hourly_rate > f.prevailing_rate:
        yield (
            f"{usd(f.hourly_rate)} an hour is more than the prevailing rate in "
            f"{f.department_town}, {usd(f.prevailing_rate)}."
        )


@rule(
    code="F-3E-NO-OTHER-CAPACITY",
    citation="961 CMR 3.04(3)(e)",
    title="The police officer assists in no other capacity",
    guards=(RECORD_POLICE_DETAIL,),
)
def officer_in_no_other_capacity(f: PoliceDetailFacts, limits: Limits) -> Iterator[str]:
    """The officer shall not participate or assist in any other capacity: a person on the
    organization's worker list for the year cannot be its paid police detail."""
    if f.on_worker_list:
        yield f"{f.officer_name} is on the organization's worker list: no other capacity."


@dataclass(frozen=True)
class CharityTicketSaleFacts:
    game_name: str
    serial_number: str
    on_premises: bool
    sold_at: dt.datetime
    opened_at: dt.datetime | None
    closed_at: dt.datetime | None
    serial_assigned: bool  # the Commission assigned the serial to the organization by then


@rule(
    code="L-37-CHARITY-ON-PREMISES",
    citation="M.G.L. c. 10 § 37",
    title="Charity game tickets are sold only on the licensee's premises, at its occasion",
    guards=(CHARITY_SELL,),
)
def charity_tickets_on_premises(f: CharityTicketSaleFacts, limits: Limits) -> Iterator[str]:
    """Charity game tickets are sold by the licensee only on its premises; recorded with an
    occasion, the sale falls between the occasion's opening and its close."""
    if not f.on_premises:
        yield f"{f.game_name}: charity game tickets are sold only on the licensee's premises."
    if f.opened_at is None or f.sold_at < f.opened_at:
        yield f"{f.game_name}: the sale is before the occasion opened."
    elif f.closed_at is not None and f.sold_at > f.closed_at:
        yield f"{f.game_name}: the sale is after the occasion closed."

"""961 CMR 3.04(1) and (2): who may conduct or assist in the conduct of Beano."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import models

from beano.rules.authorizations import AuthorizationKind
from beano.rules.base import rule
from beano.rules.limits import LimitName, Limits

ADD = "worker_list.add"
UPDATE = "worker_list.update"
SIGN_IN = "occasion.sign_in_worker"
REVIEW = "worker_list.review"
OPEN = "occasion.open"
SIGN_OUT = "occasion.sign_out_worker"
HAND_OVER = "occasion.hand_over"
RECORD_WINNER = "game.record_winner"
#: A night entered from paper names a worker of the list by the name written on a sheet.
NAME_ON_PAPER = "paper.name_a_worker"
ON_THE_LIST = (ADD, UPDATE, SIGN_IN)
#: Every act of a night's floor, judged on who does it besides the act's own rules.
FLOOR_ACT = "occasion.floor_act"


class WorkerRole(models.TextChoices):
    MEMBER_IN_CHARGE = "member_in_charge", "Member in charge"
    CALLER = "caller", "Caller"
    CALLER_ASSISTANT = "caller_assistant", "Assistant to the caller"
    SELLER = "seller", "Seller"
    FLOOR_WORKER = "floor_worker", "Floor worker"
    BOOKKEEPER = "bookkeeper", "Bookkeeper"
    ACCOUNTANT = "accountant", "Accountant"
    GROSS_RECEIPTS = "gross_receipts", "Head of organization or designee for gross receipts"


COMPENSABLE_ROLES = frozenset({WorkerRole.BOOKKEEPER, WorkerRole.ACCOUNTANT})
CALLER_ROLES = frozenset({WorkerRole.CALLER, WorkerRole.CALLER_ASSISTANT})
GOOD_STANDING_KINDS = frozenset({"member", "auxiliary", "family"})


@dataclass(frozen=True)
class MembershipFact:
    kind: str  # member, auxiliary, family, lapsed
    since: dt.date
    until: dt.date | None
    family_of_in_good_standing: bool | None = None  # for a family member: their member, that day

    def in_good_standing_on(self, day: dt.date) -> bool:
        return (
            self.kind in GOOD_STANDING_KINDS
            and self.since <= day
            and (self.until is None or day <= self.until)
        )


@dataclass(frozen=True)
class ConvictionFact:
    convicted_on: dt.date
    traffic_only: bool


@dataclass(frozen=True)
class ListMade:
    """An organization's worker list of the year that has had the person on it, and since when:
    what a (1)(c) refusal names."""

    organization_id: int
    organization: str
    added_on: dt.date


@dataclass(frozen=True)
class WorkerFacts:
    """One person on (or joining) an organization's worker list, judged on ``on``."""

    person_id: int
    name: str
    date_of_birth: dt.date
    on: dt.date
    roles: tuple[str, ...]
    membership: MembershipFact | None
    supplier_connected: bool = False
    #: The organizations whose lists the person is on that year, this one too, in the order the
    #: person was put on them; ``organization_id`` is the one judged.
    organizations_this_year: tuple[int, ...] = ()
    organization_id: int = 0
    #: The same lists with their organizations' names and the day the person was put on each.
    lists_made: tuple[ListMade, ...] = ()
    compensated: bool = False
    good_moral_character_attested: bool = False
    convictions: tuple[ConvictionFact, ...] = ()
    identification: str = ""


def age_on(born: dt.date, day: dt.date) -> int:
    years = day.year - born.year
    return years - 1 if (day.month, day.day) < (born.month, born.day) else years


def years_before(day: dt.date, years: int) -> dt.date:
    """The same calendar day ``years`` earlier (29 February falls back to the 28th)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


@rule(
    code="W-1A-MIC-MEMBER",
    citation="961 CMR 3.04(1)(a)",
    title="The member in charge is a bona fide active member in good standing",
    guards=ON_THE_LIST,
)
def member_in_charge_is_a_member(f: WorkerFacts, limits: Limits) -> Iterator[str]:
    """A member in charge must be an active member in good standing, not an auxiliary or family
    member."""
    if WorkerRole.MEMBER_IN_CHARGE not in f.roles:
        return
    m = f.membership
    if m is None or m.kind != "member" or not m.in_good_standing_on(f.on):
        yield f"{f.name} is not an active member in good standing and cannot be member in charge."


@dataclass(frozen=True)
class WorkerListFacts:
    year: int
    member_in_charge_count: int
    gross_receipts_count: int


@rule(
    code="W-1A-DESIGNATED",
    citation="961 CMR 3.04(1)(a)",
    title="A member in charge is designated",
    guards=(REVIEW, OPEN),
)
def a_member_in_charge_is_designated(f: WorkerListFacts, limits: Limits) -> Iterator[str]:
    """The worker list for the year names at least one member in charge."""
    if f.member_in_charge_count < 1:
        yield f"The {f.year} worker list designates no member in charge."


@rule(
    code="W-1E-DESIGNATED",
    citation="961 CMR 3.04(1)(e)",
    title="The person responsible for gross receipts is designated",
    guards=(REVIEW, OPEN),
)
def gross_receipts_person_is_designated(f: WorkerListFacts, limits: Limits) -> Iterator[str]:
    """The head of the organization or a designee is named as responsible for gross receipts."""
    if f.gross_receipts_count < 1:
        yield f"The {f.year} worker list names no one responsible for gross receipts."


@rule(
    code="W-1B-ELIGIBLE",
    citation="961 CMR 3.04(1)(b)",
    title="Every worker is a member, an auxiliary member, or family of a member, aged 18 or over",
    guards=ON_THE_LIST,
)
def worker_is_eligible(f: WorkerFacts, limits: Limits) -> Iterator[str]:
    """Members and auxiliary members in good standing, and immediate family members of a member
    in good standing who are at least 18 on the day judged."""
    m = f.membership
    if m is None or not m.in_good_standing_on(f.on):
        yield f"{f.name} is not in good standing with the organization on {f.on:%B %-d, %Y}."
        return
    if m.kind == "family":
        minimum = limits.get(LimitName.MIN_FAMILY_WORKER_AGE)
        minimum_age = int(minimum) if minimum is not None else 18
        if age_on(f.date_of_birth, f.on) < minimum_age:
            yield (
                f"{f.name} is a family member under {minimum_age} on {f.on:%B %-d, %Y} "
                f"(born {f.date_of_birth:%B %-d, %Y})."
            )
        if not m.family_of_in_good_standing:
            yield f"{f.name}'s family member is not a member in good standing."


@rule(
    code="W-1C-FOUR-ORGANIZATIONS",
    citation="961 CMR 3.04(1)(c)",
    title="No one assists more than four licensed organizations in a calendar year",
    guards=ON_THE_LIST,
    waiver=AuthorizationKind.MORE_THAN_FOUR_ORGANIZATIONS,
)
def at_most_four_organizations(f: WorkerFacts, limits: Limits) -> Iterator[str]:
    """Counted across every organization in the system, for the calendar year of the day judged,
    in the order the person's lists were made: the first four are lawful as made; a later one
    needs the Director's written authorization, held by the organization whose list it is. That
    waiver never makes the earlier lists unlawful, since their place in the year comes first."""
    limit = limits.get(LimitName.MAX_ORGANIZATIONS_PER_WORKER)
    if limit is None:
        return
    lists = tuple(dict.fromkeys(f.organizations_this_year))  # each organization once
    place = lists.index(f.organization_id) + 1 if f.organization_id in lists else len(lists)
    if place > int(limit):
        yield (
            f"{f.name} is already on the {f.on.year} worker lists of "
            f"{_the_others(f, lists[: place - 1])}; a person may assist at most {int(limit)} "
            f"licensed organizations in a calendar year, and only a Director's written "
            f"authorization can allow a {_ordinal(place)}."
        )


def _the_others(f: WorkerFacts, before: tuple[int, ...]) -> str:
    """The organizations whose lists came first, by name with the day the person was put on
    each ("Hall 1 (listed March 2), … and Hall 4 (listed May 9)"), else by their number."""
    made = {m.organization_id: m for m in f.lists_made}
    if not before or any(o not in made for o in before):
        return f"{len(before)} other licensed organizations"
    named = [f"{made[o].organization} (listed {made[o].added_on:%B %-d})" for o in before]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@rule(
    code="W-1D-IDENTIFICATION",
    citation="961 CMR 3.04(1)(d)",
    title="Every worker displays the identification the Director specifies",
    guards=(SIGN_IN,),
)
def worker_displays_identification(f: WorkerFacts, limits: Limits) -> Iterator[str]:
    """A worker whose badge or ID number is not recorded cannot be signed in."""
    if not f.identification.strip():
        yield f"{f.name} has no identification recorded and cannot be signed in."


@rule(
    code="W-1E-GROSS-RECEIPTS",
    citation="961 CMR 3.04(1)(e)",
    title="The person responsible for gross receipts is on the membership list",
    guards=ON_THE_LIST,
)
def gross_receipts_person_is_a_member(f: WorkerFacts, limits: Limits) -> Iterator[str]:
    """The head of the organization or designee for gross receipts appears on the membership
    list required by 961 CMR 3.03(2), as a member in good standing."""
    if WorkerRole.GROSS_RECEIPTS not in f.roles:
        return
    m = f.membership
    if m is None or m.kind != "member" or not m.in_good_standing_on(f.on):
        yield f"{f.name} is not on the membership list; they cannot hold the gross receipts."


@rule(
    code="W-1F-NO-COMPENSATION",
    citation="961 CMR 3.04(1)(f)",
    title="No worker is paid, except bookkeepers and accountants",
    guards=ON_THE_LIST,
)
def workers_are_not_paid(f: WorkerFacts, limits: Limits) -> Iterator[str]:
    """No commission, salary, compensation or gift to anyone conducting or assisting in Beano;
    (1)(g) lets bookkeepers and accountants be paid, and (3)(e) a police officer (not a worker)."""
    if f.compensated and not COMPENSABLE_ROLES.intersection(f.roles):
        yield f"{f.name} cannot be compensated: only a bookkeeper or accountant may be."


@rule(
    code="W-1G-BOOKKEEPER-ONLY",
    citation="961 CMR 3.04(1)(g)",
    title="A compensated bookkeeper or accountant holds no other role",
    guards=ON_THE_LIST,
    waiver=AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY,
)
def paid_bookkeeper_has_no_other_role(f: WorkerFacts, limits: Limits) -> Iterator[str]:
    """A compensated bookkeeper or accountant may not participate or assist in another capacity."""
    if not f.compensated or not COMPENSABLE_ROLES.intersection(f.roles):
        return
    others = sorted(set(f.roles) - COMPENSABLE_ROLES)
    if others:
        labels = ", ".join(WorkerRole(r).label.lower() for r in others)
        yield f"{f.name} is a compensated bookkeeper or accountant and cannot also be {labels}."


@dataclass(frozen=True)
class BookkeeperPresenceFacts:
    person_id: int
    name: str
    compensated: bool
    present: bool


@rule(
    code="W-1G-PRESENT",
    citation="961 CMR 3.04(1)(g)",
    title="A compensated bookkeeper or accountant is present during the occasion",
    guards=("occasion.close", "report.record_expense"),
    waiver=AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY,
)
def paid_bookkeeper_is_present(f: BookkeeperPresenceFacts, limits: Limits) -> Iterator[str]:
    """A bookkeeper or accountant who is paid must be present while Beano is conducted."""
    if f.compensated and not f.present:
        yield f"{f.name} is a compensated bookkeeper but was not present during the occasion."


@dataclass(frozen=True)
class PlayerFacts:
    person_id: int
    name: str
    on_worker_list: bool
    #: Listed workers the name typed may be (an initial, a letter missed), when no person was
    #: named; and the reason given that the player is someone else, if one was.
    near_listed: tuple[str, ...] = ()
    other_person_reason: str = ""


@rule(
    code="W-1H-WORKER-PLAYS",
    citation="961 CMR 3.04(1)(h)",
    title="No one on the worker list plays in the organization's games",
    guards=(RECORD_WINNER,),
    waiver=AuthorizationKind.WORKER_AS_PLAYER,
)
def workers_do_not_play(f: PlayerFacts, limits: Limits) -> Iterator[str]:
    """A person on the organization's worker list cannot be recorded as a player or winner."""
    if f.on_worker_list:
        yield f"{f.name} is on this organization's worker list and cannot play or win."


@rule(
    code="W-1H-NAME-RESOLVED",
    citation="961 CMR 3.04(1)(h)",
    title="A winner whose name is close to a listed worker's is named or confirmed as another",
    guards=(RECORD_WINNER,),
)
def close_names_are_resolved(f: PlayerFacts, limits: Limits) -> Iterator[str]:
    """Workers are matched as people, not as strings: a player's name that may be a listed
    worker's written another way (an initial for a first name, a letter missed) is either that
    worker (name them, and the worker rule judges) or confirmed as someone else with a reason
    that is kept; it is never guessed either way."""
    if f.near_listed and not f.other_person_reason.strip():
        names = " or ".join(f.near_listed)
        yield (
            f"{f.name} may be {names}, of the worker list: name the person, or confirm the "
            "winner is someone else and say why."
        )


@rule(
    code="W-1I-CALLER",
    citation="961 CMR 3.04(1)(i)",
    title="A caller or assistant is of good moral character, without a conviction in five years",
    guards=ON_THE_LIST,
)
def caller_is_qualified(f: WorkerFacts, limits: Limits) -> Iterator[str]:
    """Attested good moral character, and no conviction other than a traffic violation during the
    past five years, counted to the day: a conviction on the same calendar day five years before
    still falls within the five years. (1)(c)'s conditions are judged by their own rules."""
    if not CALLER_ROLES.intersection(f.roles):
        return
    if not f.good_moral_character_attested:
        yield f"{f.name}'s good moral character is not attested; they cannot call or assist."
    figure = limits.get(LimitName.CALLER_CONVICTION_YEARS)
    years = int(figure) if figure is not None else 5
    since = years_before(f.on, years)
    for c in f.convictions:
        if not c.traffic_only and since <= c.convicted_on <= f.on:
            yield (
                f"{f.name} was convicted on {c.convicted_on:%B %-d, %Y}, within {years} years; "
                "they cannot call or assist the caller."
            )


@rule(
    code="W-2-SUPPLIER",
    citation="961 CMR 3.04(2)",
    title="No one connected with a Beano supplier takes part in the conduct of Beano",
    guards=ON_THE_LIST,
    waiver=AuthorizationKind.SUPPLIER_PERSON,
)
def no_supplier_people(f: WorkerFacts, limits: Limits) -> Iterator[str]:
    """A person connected with the manufacture, sale or distribution of Beano equipment or
    supplies, or their agent, servant or employee, may not conduct, assist or render service."""
    if f.supplier_connected:
        yield f"{f.name} is connected with a Beano supplier."


@dataclass(frozen=True)
class SignInFacts:
    """A person signing in at an occasion: are they on the organization's list of the
    occasion's year that day, in the role they take, showing the identification it records?"""

    name: str
    year: int
    on_list: bool
    role: str
    listed_roles: tuple[str, ...]
    identification_displayed: str
    identification_listed: str
    compensated: bool = False


def paid_bookkeeper_in_another_role(f: SignInFacts) -> bool:
    """A compensated bookkeeper or accountant signing in for a role their list entry does not
    give them: (1)(g) refuses it (``bookkeepers``), not (1)(b), since listing them for it
    needs the Director."""
    return (
        f.compensated
        and f.role not in COMPENSABLE_ROLES
        and f.role not in f.listed_roles
        and bool(COMPENSABLE_ROLES.intersection(f.listed_roles))
    )


@rule(
    code="W-1B-ON-THE-LIST",
    citation="961 CMR 3.04(1)(b)",
    title="Only a person on the worker list, in a role it gives them, conducts or assists",
    guards=(SIGN_IN, NAME_ON_PAPER),
)
def signs_in_from_the_list(f: SignInFacts, limits: Limits) -> Iterator[str]:
    """Any person whose name does not appear on the list shall not be allowed to conduct or
    assist in any manner: the list of the occasion's year, as it stood that day."""
    if not f.on_list:
        yield f"{f.name} is not on the {f.year} worker list on the occasion's day."
        return
    if f.role not in f.listed_roles and not paid_bookkeeper_in_another_role(f):
        listed = ", ".join(WorkerRole(r).label.lower() for r in f.listed_roles)
        yield (f"{f.name} is on the list as {listed}, not as {WorkerRole(f.role).label.lower()}.")


@rule(
    code="W-1D-ID-AS-LISTED",
    citation="961 CMR 3.04(1)(d)",
    title="The identification displayed is the one the worker list records",
    guards=(SIGN_IN,),
)
def displays_the_listed_identification(f: SignInFacts, limits: Limits) -> Iterator[str]:
    """The worker displays the badge or ID the list records for them; a list without one is
    refused by W-1D-IDENTIFICATION."""
    listed = f.identification_listed.strip()
    shown = f.identification_displayed.strip()
    if listed and shown.casefold() != listed.casefold():
        shown_words = f"displays {shown!r}" if shown else "displays no identification"
        yield f"{f.name} {shown_words}; the worker list records {listed!r}."


@dataclass(frozen=True)
class FloorActFacts:
    """Who does an act of a night's floor at its moment (local time): ``doer``, the person
    named ("" if none), signed in on that night's floor then; if none, whether anyone was."""

    doing: str  # the act, as its service says it: "selling", "calling a ball"
    at: dt.datetime
    doer: str
    on_floor: bool = False
    floor_staffed: bool = False
    themselves: bool = False  # a worker signing themselves in or out: the list's rules judge


@rule(
    code="W-1B-WORKER-OF-THE-NIGHT",
    citation="961 CMR 3.04(1)(b)",
    title="Every act of a night's floor is done by a worker of the list signed in that night",
    guards=(FLOOR_ACT,),
)
def done_by_a_worker_of_the_night(f: FloorActFacts, limits: Limits) -> Iterator[str]:
    """(1)(b): "Any person whose name does not appear on such list shall not otherwise be allowed
    to conduct or assist in the conduct of any Beano game in any manner"; (1)(c) likewise. A
    worker of the list is on a night's floor once signed in (W-1B-ON-THE-LIST judged them), so
    every act of the floor is done by a person signed in on that night's floor at its moment:
    the door's (a sale, a void, the attendance, play and the second half started), the draw's (a
    ball called or corrected, a prize announced, the balls confirmed, a game started or
    finished), the claims' (a claim, the draw or a card verified, the winners, a payout), the
    night's extras (varying prizes announced, a door prize, a gift, raffle tickets sold) and the
    floor's (the opening checklist, a worker signed in or out, charge handed over, the opening,
    the close): the member in charge signs in first (signing oneself in or out is not judged
    here), then confirms the checklist and signs the others in.

    Live, the person named is the one at the hall laptop (the login's person, or the worker the
    laptop is handed to); a login naming no person of the organization, or a Commission user's,
    is no worker. After the fact (paper sheets, a close recorded late) the one entering is the
    bookkeeper, not the seller: the worker the sheet names for the act is judged (a payout's
    payer), and where it names no one, as when the system records a past night (the demo), a
    worker of the night was on the floor then. Not judged: what may be recorded after the close
    (a refund, a charity ticket's redemption, the police detail, the close-out and its cash
    count, a jackpot's outcome), the program planned beforehand, and sales that are not the
    conduct of a Beano game (other sales; charity game tickets, M.G.L. c. 10 § 37, sold up to an
    hour after the close). (1)(b) provides for no Director's authorization: nothing waives it."""
    if f.themselves:
        return
    when = f"{f.at:%-I:%M %p}"
    doing = f"{f.doing} is only for a worker on the night's list who is signed in."
    if f.doer and not f.on_floor:
        yield f"{f.doer} is not signed in on this night's floor at {when}; {doing}"
    elif not f.doer and not f.floor_staffed:
        yield f"No worker of the night was signed in on the floor at {when}; {doing}"

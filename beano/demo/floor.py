"""The floor's demo data, recorded through the services at the times of the night: Post 171's
most recent past Friday is a closed occasion, its whole program played between the door and the
close; St. Anne's most recent past Tuesday is still open, a game in play and its flashboard
link made. Workers without an ID on the list cannot sign in: at Post
171 the head tries once, and the refusal is in the log for the inspectors. Idempotent: each step
is skipped once done."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from beano import rules
from beano.demo.extras import seed_extras
from beano.demo.jackpot import seed_jackpot
from beano.demo.night import FIRST_HALF, OPEN_NIGHT, SECOND_HALF, Play, play_night
from beano.demo.program import seed_program
from beano.demo.sales import demo_user, seed_door, seed_intermission
from beano.rules.models import RefusedAction
from beano.rules.opening import CHECKLIST
from beano.rules.workers import SIGN_IN
from games import draw_services
from games.models import Flashboard
from occasions import (
    floor_selectors,
    floor_services,
    raffle_services,
    sales_services,
    selectors,
    services,
)
from occasions.models import Occasion
from organizations.models import Organization, Role


@dataclass(frozen=True)
class Night:
    organization: str
    signed_in: dt.time
    confirmed: dt.time
    opened: dt.time  # the door opens; play starts 15 minutes later (``beano.demo.sales``)
    first_half: tuple[Play, ...]
    # The rest of a closed night; None: the occasion is left open during the first half.
    intermission: dt.time | None = None  # more cards sold; the attendance 5 minutes later
    second_half_start: dt.time | None = None
    second_half: tuple[Play, ...] = ()
    closed: dt.time | None = None


NIGHTS = (
    Night(
        "American Legion Post 171",
        dt.time(18, 30),
        dt.time(18, 40),
        dt.time(18, 45),
        FIRST_HALF,
        intermission=dt.time(20, 25),
        second_half_start=dt.time(20, 45),
        second_half=SECOND_HALF,
        closed=dt.time(22, 15),
    ),
    Night("St. Anne's Parish", dt.time(18, 15), dt.time(18, 25), dt.time(18, 30), OPEN_NIGHT),
)


#: Who tries to sign in a worker the list gives no ID, and at which organization: refused under
#: 961 CMR 3.04(1)(d), through the service, so the refusal is recorded as any other.
REFUSED_SIGN_IN = ("American Legion Post 171", "Emily Souza", Role.HEAD)


def last_past_day(organization: Organization, today: dt.date) -> dt.date | None:
    """The most recent authorized day before ``today``, in this year (whose worker list the
    demo has)."""
    days = selectors.previous_authorized_days(organization, today, 1)
    return days[0] if days and days[0].year == today.year else None


def seed_floor(today: dt.date) -> None:
    for night in NIGHTS:
        organization = Organization.objects.filter(name=night.organization).first()
        day = last_past_day(organization, today) if organization else None
        if organization is None or day is None:
            continue
        occasion = services.occasion_for_day(organization=organization, day=day, by=None)
        if occasion.status == Occasion.Status.SCHEDULED:
            _prepare_and_open(occasion, night)
        if occasion.status == Occasion.Status.OPEN:
            seed_door(occasion, today)
            seed_extras(occasion)
            _sell_raffle_tickets(occasion)
            _play(occasion, night, today)
        if night.closed is not None and occasion.status == Occasion.Status.OPEN:
            floor_services.close_occasion(occasion=occasion, by=None, at=_at(day, night.closed))


def _play(occasion: Occasion, night: Night, today: dt.date) -> None:
    """The program planned, the jackpot carried into its game, and the night's games played in
    order: the first half from the start of play, then (a closed night) the intermission, the
    attendance, the second half. A night left open shows its game in play on the flashboard."""
    seed_program(occasion)
    seed_jackpot(occasion.organization, [occasion])
    occasion.refresh_from_db()
    end = play_night(occasion, night.first_half, start=occasion.play_started_at)
    if night.intermission is None or night.second_half_start is None:
        if not Flashboard.objects.filter(occasion=occasion).exists():
            draw_services.issue_flashboard_link(
                occasion=occasion, by=demo_user(occasion, Role.MEMBER_IN_CHARGE, Role.HEAD)
            )
        return
    _in_order(end, _at(occasion.date, night.intermission), "the first half", "intermission")
    seed_intermission(occasion, today, at=_at(occasion.date, night.intermission))
    occasion.refresh_from_db()
    second_half = _at(occasion.date, night.second_half_start)
    if occasion.second_half_started_at is None:
        sales_services.start_second_half(
            occasion=occasion,
            by=demo_user(occasion, Role.MEMBER_IN_CHARGE, Role.HEAD),
            at=second_half,
        )
    end = play_night(occasion, night.second_half, start=second_half)
    if night.closed is not None:
        _in_order(end, _at(occasion.date, night.closed), "the second half", "close")


def _in_order(end: dt.datetime, next_step: dt.datetime, what: str, before: str) -> None:
    if end >= next_step:
        raise ValueError(
            f"The demo's {what} runs to {timezone.localtime(end):%H:%M}, past the {before} at "
            f"{timezone.localtime(next_step):%H:%M}: shorten its script."
        )


def _sell_raffle_tickets(occasion: Occasion) -> None:
    """A few players buy raffle tickets on their admission receipt (3.04(5)(b), (9)(a))."""
    raffle = occasion.raffles.first()
    if raffle is None or raffle.ticket_sales.exists():
        return
    for n, receipt in enumerate((3, 17, 42, 64, 90)):
        raffle_services.sell_raffle_tickets(
            raffle=raffle,
            admission_receipt_number=receipt,
            quantity=1 + n % 3,
            by=None,
            at=occasion.opened_at + dt.timedelta(minutes=40 + n),
        )


def _at(day: dt.date, time: dt.time) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, time))


def _prepare_and_open(occasion: Occasion, night: Night) -> None:
    if not occasion.price_items.exists():
        services.set_price_list(
            occasion=occasion, items=selectors.proposed_prices(occasion), by=None
        )
    present = set(occasion.presences.values_list("entry_id", flat=True))
    for entry in floor_selectors.list_entries(occasion):
        if entry.pk in present or not entry.identification:
            continue
        floor_services.sign_in_worker(
            occasion=occasion,
            entry=entry,
            role=entry.roles[0],
            identification=entry.identification,
            by=None,
            at=_at(occasion.date, night.signed_in),
        )
    _refused_sign_in(occasion, night)
    for item in CHECKLIST:
        floor_services.confirm_check(
            occasion=occasion, item=item.code, by=None, at=_at(occasion.date, night.confirmed)
        )
    floor_services.open_occasion(occasion=occasion, by=None, at=_at(occasion.date, night.opened))
    occasion.refresh_from_db()


def _refused_sign_in(occasion: Occasion, night: Night) -> None:
    organization, name, role = REFUSED_SIGN_IN
    if occasion.organization.name != organization:
        return
    if RefusedAction.objects.filter(
        organization_id=occasion.organization_id, action=SIGN_IN
    ).exists():
        return
    entry = next(
        (e for e in floor_selectors.list_entries(occasion) if e.person.legal_name == name), None
    )
    if entry is None:
        return
    try:
        floor_services.sign_in_worker(
            occasion=occasion,
            entry=entry,
            role=entry.roles[0],
            identification="",
            by=demo_user(occasion, role),
            at=_at(occasion.date, night.signed_in),
        )
    except rules.RuleViolation:
        return  # refused, as the rules must: rules.atomic has recorded the refusal
    raise ValueError(f"{name} has no ID on the list and was signed in all the same.")

"""Today's practice occasion at the demo's practice hall (beano.demo.practice_hall), left open
and ready whatever the hour ``seed_demo`` runs, so that a new user can try the door, the caller's
console, claims and the flashboard at once: its workers signed in, the price list posted, the
checklist confirmed, a short program planned, game 1's prize announced, its 75 balls confirmed
and the game begun (no ball called yet), and the flashboard link made.

Everything goes through the services at moments of the occasion's day, never in the future: the
practice license's hours cover the whole day, so the night opens 30 seconds after midnight; run
in the first minute of the day, the steps are drawn closer together between midnight and now.
Where a user has already acted on the day's occasion (signed a worker in, confirmed an item,
opened it, announced a prize), the steps still to do follow their last act instead.

Idempotent: each step is skipped once done, and what a user did since is left as it is. An
earlier day's practice occasion is left alone, open or not: closing it would mean finishing a
game the user may have left in play and stating a close after their last act, on their behalf."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from beano.demo.practice_hall import NAME
from beano.demo.program import ProgramGame, seed_program
from beano.demo.sales import demo_user
from beano.rules.opening import CHECKLIST
from games import draw_services
from games import program_services as services
from games.models import Flashboard, Game, PrizePart
from occasions import floor_selectors, floor_services, selectors
from occasions import services as occasion_services
from occasions.models import Occasion
from organizations.models import Organization, OrganizationRole, Role

Kind = Game.Kind
#: A short program from the sample night: four games in the first half
#: and a coverall after the intermission, so the attendance can be tried too.
PRACTICE_PROGRAM: tuple[ProgramGame, ...] = (
    (1, 1, Kind.REGULAR, [("single_line", Decimal("50"), False)]),
    (2, 1, Kind.REGULAR, [("four_corners", Decimal("50"), False)]),
    (
        3,
        1,
        Kind.REGULAR_BONUS,
        [("letter_x", Decimal("75"), False), ("letter_x", Decimal("75"), True)],
    ),
    (4, 1, Kind.SPECIAL, [("picture_frame", Decimal("100"), False)]),
    (5, 2, Kind.REGULAR, [("coverall", Decimal("200"), False)]),
)
#: The night's steps in order, ten seconds apart from midnight.
STEPS = ("signed_in", "confirmed", "opened", "announced", "balls_confirmed", "started")
STEP = dt.timedelta(seconds=10)


def moments(
    day: dt.date, now: dt.datetime, after: dt.datetime | None = None
) -> dict[str, dt.datetime]:
    """The moment of each step on ``day``: ten seconds apart from midnight (the opening at
    00:00:30) or from ``after`` (the last act already recorded), or evenly between then and
    ``now`` when less than a minute has passed since."""
    start = after or timezone.make_aware(dt.datetime.combine(day, dt.time()))
    if now < start:
        raise ValueError(f"The practice occasion of {day} cannot be seeded before it begins.")
    step = min(STEP, (now - start) / (len(STEPS) + 1))
    return {name: start + step * n for n, name in enumerate(STEPS, start=1)}


def last_act(occasion: Occasion) -> dt.datetime | None:
    """The latest moment recorded at the occasion by the acts this module also does."""
    found = [
        occasion.opened_at,
        *occasion.presences.values_list("signed_in_at", flat=True),
        *occasion.opening_checks.values_list("confirmed_at", flat=True),
        *Game.objects.filter(occasion=occasion).values_list("balls_confirmed_at", flat=True),
        *PrizePart.objects.filter(game__occasion=occasion).values_list("announced_at", flat=True),
    ]
    return max((moment for moment in found if moment is not None), default=None)


def seed_practice_night(today: dt.date) -> Occasion | None:
    """Today's practice occasion, open and ready (see the module); None without the hall."""
    organization = Organization.objects.filter(name=NAME).first()
    if organization is None:
        return None
    occasion = occasion_services.occasion_for_day(organization=organization, day=today, by=None)
    if occasion.status not in (Occasion.Status.SCHEDULED, Occasion.Status.OPEN):
        return occasion  # closed or not played by a user trying the application: theirs
    begun = Game.objects.filter(occasion=occasion).exclude(status=Game.Status.PLANNED).exists()
    if occasion.status == Occasion.Status.SCHEDULED or not begun:
        at = moments(today, timezone.now(), after=last_act(occasion))
        in_charge = demo_user(occasion, Role.MEMBER_IN_CHARGE)
        if occasion.status == Occasion.Status.SCHEDULED:
            _open(occasion, in_charge, at)
        seed_program(occasion, PRACTICE_PROGRAM)
        _first_game(occasion, in_charge, at)
    if not Flashboard.objects.filter(occasion=occasion).exists():
        draw_services.issue_flashboard_link(
            occasion=occasion, by=demo_user(occasion, Role.MEMBER_IN_CHARGE)
        )
    occasion.refresh_from_db()
    return occasion


def _open(occasion: Occasion, in_charge: Any, at: dict[str, dt.datetime]) -> None:
    """The price list posted, every worker of the list signed in (the member in charge first,
    who then signs in the others: 3.04(1)(b)), the checklist confirmed and the occasion
    opened, each step skipped once done."""
    if not occasion.price_items.exists():
        occasion_services.set_price_list(
            occasion=occasion, items=selectors.proposed_prices(occasion), by=in_charge
        )
    present = set(occasion.presences.values_list("entry_id", flat=True))
    mine = set(
        OrganizationRole.objects.filter(user=in_charge, organization=occasion.organization)
        .exclude(person=None)
        .values_list("person_id", flat=True)
    )
    entries = sorted(floor_selectors.list_entries(occasion), key=lambda e: e.person_id not in mine)
    for entry in entries:
        if entry.pk not in present:
            floor_services.sign_in_worker(
                occasion=occasion,
                entry=entry,
                role=entry.roles[0],
                identification=entry.identification,
                by=in_charge,
                at=at["signed_in"],
            )
    for item in CHECKLIST:
        floor_services.confirm_check(
            occasion=occasion, item=item.code, by=in_charge, at=at["confirmed"]
        )
    floor_services.open_occasion(occasion=occasion, by=in_charge, at=at["opened"])


def _first_game(occasion: Occasion, in_charge: Any, at: dict[str, dt.datetime]) -> None:
    """Game 1's prizes announced, its balls confirmed and the game begun (no game of the
    program has begun yet: afterwards the user is playing it)."""
    game = Game.objects.get(occasion=occasion, number=1)
    for part in game.parts.filter(announced_at__isnull=True).order_by("order"):
        services.announce_prize_part(part=part, by=in_charge, at=at["announced"])
    if game.balls_confirmed_at is None:
        game = services.confirm_balls(game=game, by=in_charge, at=at["balls_confirmed"])
    services.start_game(game=game, by=in_charge, at=at["started"])

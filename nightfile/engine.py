"""A whole night recorded from its sheets: ``acts_of(night)`` gathers every sheet's acts, and
``import_night`` records a night file on its authorized day, all or nothing."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from beano import locking, rules
from beano.actors import Actor
from games.models import Game, ProgressiveSeries
from nightfile import format as fmt
from nightfile.acts import Act, Night, run
from nightfile.extras_acts import extras_acts
from nightfile.floor_acts import (
    attendance_acts,
    checklist_acts,
    close_acts,
    closeout_acts,
    door_acts,
    open_acts,
    price_acts,
    varying_acts,
    worker_acts,
)
from nightfile.game_acts import game_acts, program_acts
from occasions import paper
from occasions import services as occasion_services
from occasions.models import Occasion, PaperRecord
from organizations.audit import acting_user, record_event
from organizations.models import License


def acts_of(night: fmt.Night) -> list[Act]:
    """Every act of a whole night, from its sheets."""
    acts = (
        price_acts(night.prices)
        + program_acts(night.games)
        + worker_acts(night.workers)
        + checklist_acts(night.checklist_at, night.checklist)
        + open_acts(night.opened_at)
        + varying_acts(night.varying_prizes)
        + door_acts(night.door, night.voids)
        + attendance_acts(night.attendance, night.attendance_at, night.second_half_at)
        + [a for sheet in night.games for a in game_acts(sheet)]
        + extras_acts(night)
        + close_acts(night.closed_at)
        + closeout_acts(night.closeout, night.closed_at)
    )
    return acts


# A whole night from a file --------------------------------------------------------------------


def night_license(number: str) -> License:
    found = License.objects.select_related("organization").filter(number__iexact=number).first()
    if found is None:
        raise fmt.NightFormatError(f'"license": no license numbered {number!r} is on record.')
    return found


@rules.atomic()
def import_night(
    *, night: fmt.Night, by: Actor, file_name: str = "", deadline: float | None = None
) -> Occasion:
    """Record a whole night file on its authorized day, through the same services and rules
    as the floor, all or nothing. A day that already holds a night is refused. ``deadline``: a
    ``time.monotonic()`` past which no further act is begun (``acts.OutOfTime``)."""
    license = night_license(night.license)
    organization = license.organization
    occasion = occasion_services.occasion_for_day(organization=organization, day=night.date, by=by)
    # Its jackpots are settled once its games are held: the series come first in the lock order.
    list(locking.lock(ProgressiveSeries.objects.filter(organization=organization)))
    if occasion.license_id != license.pk:
        raise ValidationError(
            f"{night.date:%B %-d, %Y} is a day of license {occasion.license.number}, "
            f"not {license.number}."
        )
    if _holds_a_night(occasion):
        raise ValidationError(
            f"{night.date:%A, %B %-d, %Y} already holds a night of {organization}: a night "
            "file is imported only onto an authorized day with nothing recorded."
        )
    record = paper.begin(
        occasion=occasion,
        sheets=night.sheets,
        reason=night.reason,
        by=by,
        source=PaperRecord.Source.FILE,
        file_name=file_name,
    )
    state = Night(occasion=occasion, by=by, record=record)
    state.refresh()
    run(state, acts_of(night), deadline=deadline)
    record_event(
        organization=organization,
        actor=by,
        action="reports.night.imported",
        target=occasion,
        new={"file": file_name, "date": night.date, "by": _username(by)},
    )
    return state.occasion


def _holds_a_night(occasion: Occasion) -> bool:
    return (
        occasion.status != Occasion.Status.SCHEDULED
        or occasion.presences.exists()
        or occasion.price_items.exists()
        or occasion.opening_checks.exists()
        or Game.objects.filter(occasion=occasion).exists()
        or occasion.paper_records.exists()
    )


def _username(by: Actor) -> str:
    user = acting_user(by)
    return user.get_username() if user else "system"

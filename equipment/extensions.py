"""What the app above the card stock (reports) lends it, without equipment importing it: the
door's counts of an occasion by category, which the paper by serial is set against, and the
lock of a closed occasion's close-out, under which its paper is explained (after the report is
filed, only while an amendment is open). Filled from ``ReportsConfig.ready()``."""

from __future__ import annotations

from collections.abc import Callable

from occasions.models import Occasion
from occasions.services import lock_occasion

#: The door's count of each category at the occasion (category → cards), as the figures record it.
DoorCounts = Callable[[Occasion], dict[str, int]]
#: The closed occasion locked with its close-out, or a refusal (``ValidationError``).
CloseoutLock = Callable[[Occasion], Occasion]

DOOR_COUNTS: list[DoorCounts] = []
CLOSEOUT_LOCK: list[CloseoutLock] = []


def add_door_counts(reader: DoorCounts) -> None:
    if reader not in DOOR_COUNTS:
        DOOR_COUNTS.append(reader)


def add_closeout_lock(lock: CloseoutLock) -> None:
    if lock not in CLOSEOUT_LOCK:
        CLOSEOUT_LOCK.append(lock)


def door_counts(occasion: Occasion) -> dict[str, int]:
    """The door's counts by category at the occasion; none without the app that keeps them."""
    out: dict[str, int] = {}
    for reader in DOOR_COUNTS:
        out |= reader(occasion)
    return out


def locked_for_closeout(occasion: Occasion) -> Occasion:
    """A closed occasion locked as its close-out is (the app above says whether its report may
    still change); without it, the occasion alone, a sealed one refused."""
    if CLOSEOUT_LOCK:
        return CLOSEOUT_LOCK[0](occasion)
    return lock_occasion(occasion, statuses=(Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED))

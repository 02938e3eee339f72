"""961 CMR 3.04(7): Beano only during the hours of operation, judged for an act done at the hall
laptop while it was offline at the moment the laptop claims for it.

Why this paragraph: an act queued offline is judged as of the moment it was done (the hours of
the license and of the Beano Law, 3.04(7), and the occasion's day, ``hours.H-7-ON-THE-DAY``),
and that moment is only the laptop's word. The hours can be judged on it only if it is a moment
the laptop could have seen: not after the server received the act (a clock ahead, or a time
made up), not before the occasion was opened (no act of the night comes before it), and not
before the moment this laptop claimed for its previous act at the occasion (the queue keeps
the order the acts were done in, so a time going backwards is a clock moved, not an act). A
claimed time that fails any of these cannot show the act was within the hours in force, and is
refused as the hours' rule refuses an act outside them; the act is then entered again, from
the paper sheet, with the time written there. No other paragraph speaks of the time of an act.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from beano.rules.base import rule
from beano.rules.limits import Limits

#: An act received from the hall laptop's queue, judged on the moment it claims.
QUEUED_ACT = "offline.queued_act"
#: The clocks of the laptop and the server may differ by this much after the offset measured.
CLOCK_SLACK = dt.timedelta(seconds=5)


@dataclass(frozen=True)
class ClaimedTimeFacts:
    """The moment the laptop claims for an act, when the server received it, when the occasion
    opened (None: not opened), and the moment this laptop claimed for its previous act at the
    occasion (None: its first); all in the hall's local time."""

    claimed: dt.datetime
    received: dt.datetime
    opened: dt.datetime | None
    previous: dt.datetime | None = None


def _clock(at: dt.datetime) -> str:
    """A moment as the hall reads it (the facts carry local times)."""
    return f"{at:%-I:%M:%S %p}"


@rule(
    code="H-7-QUEUED-TIME",
    citation="961 CMR 3.04(7)",
    title="An act sent from the laptop's queue at a moment it could have happened",
    guards=(QUEUED_ACT,),
)
def claimed_time_possible(f: ClaimedTimeFacts, limits: Limits) -> Iterator[str]:
    """An act done on the hall laptop while offline is judged by the hours in force at the
    moment the laptop claims for it; that moment is refused when it is after the act reached
    the server (beyond a few seconds of clock difference), before the occasion was opened, or
    before the moment the same laptop claimed for its previous act at the occasion."""
    if f.claimed > f.received + CLOCK_SLACK:
        yield (
            f"The laptop says this was done at {_clock(f.claimed)}, after it reached the "
            f"server at {_clock(f.received)}: its clock is ahead."
        )
    if f.opened is None:
        yield "The laptop says this was done before the occasion was opened."
    elif f.claimed < f.opened:
        yield (
            f"The laptop says this was done at {_clock(f.claimed)}, before the occasion was "
            f"opened at {_clock(f.opened)}."
        )
    if f.previous is not None and f.claimed < f.previous:
        yield (
            f"The laptop says this was done at {_clock(f.claimed)}, before its previous act "
            f"at {_clock(f.previous)}: its clock went back."
        )

"""961 CMR 3.04(7): Beano only during the hours in force: those the license states, and those
of the Beano Law when a figure is known (none is today: the figures are dated data). Judged when
an occasion opens, when each game begins and at every act of play (each ball, claim,
verification, winner and payout), live or entered after the fact at the moment written on the
sheet. Every act of an occasion happens on its day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from beano.rules.base import rule
from beano.rules.limits import LimitName, Limits

OPEN = "occasion.open"
START_GAME = "game.start"
#: The moment of any act of an occasion (judged before the act's own rules).
MOMENT = "occasion.act_moment"
#: The acts of play, judged by the hours in force like the start of a game.
PLAY_ACTS = (
    "ball.call",
    "game.record_claim",
    "game.verify_draw",
    "game.verify_card",
    "game.record_winner",
    "game.record_payout",
)


@dataclass(frozen=True)
class HoursFacts:
    """The local time of day of the action, and the hours the occasion's license states."""

    at: dt.time
    license_start: dt.time | None = None
    license_end: dt.time | None = None


def within(at: dt.time, start: dt.time | None, end: dt.time | None) -> bool:
    """Is ``at`` inside [start, end], both ends included? Hours that end past midnight wrap;
    an open end is no limit on that side."""
    at = at.replace(tzinfo=None)
    if start is not None and end is not None and end < start:
        return at >= start or at <= end
    return (start is None or at >= start) and (end is None or at <= end)


def time_of_hour(value: Decimal) -> dt.time:
    """A LawLimit hour of day (18.75 is 6:45 PM) as a time; 24 and above is the day's end."""
    if value >= 24:
        return dt.time.max
    minutes = int((value * 60).to_integral_value())
    return dt.time(minutes // 60, minutes % 60)


def _clock(t: dt.time) -> str:
    return t.strftime("%-I:%M %p")


@rule(
    code="H-7-LICENSE-HOURS",
    citation="961 CMR 3.04(7)",
    title="Beano only within the hours the license states",
    guards=(OPEN, START_GAME, *PLAY_ACTS),
)
def within_license_hours(f: HoursFacts, limits: Limits) -> Iterator[str]:
    """An occasion opens, each game begins and every ball, claim, winner and payout is recorded
    only within the hours its license states, from the start time to the end time, both
    included. A license that states no hours sets no limit
    here."""
    if f.license_start is None or f.license_end is None:
        return
    if not within(f.at, f.license_start, f.license_end):
        yield (
            f"It is {_clock(f.at)}; the license allows Beano from {_clock(f.license_start)} "
            f"to {_clock(f.license_end)}."
        )


@rule(
    code="H-7-LAW-HOURS",
    citation="961 CMR 3.04(7)",
    title="Beano only within the hours the Beano Law specifies",
    guards=(OPEN, START_GAME, *PLAY_ACTS),
)
def within_law_hours(f: HoursFacts, limits: Limits) -> Iterator[str]:
    """The earliest and latest hours of play in force on the day (LawLimit "hours_start" and
    "hours_end"); a figure not known sets no limit."""
    start_figure = limits.get(LimitName.HOURS_START)
    end_figure = limits.get(LimitName.HOURS_END)
    start = time_of_hour(start_figure) if start_figure is not None else None
    end = time_of_hour(end_figure) if end_figure is not None else None
    if (start is None and end is None) or within(f.at, start, end):
        return
    words = [f"from {_clock(start)}"] if start is not None else []
    if end is not None:
        words.append(f"to {_clock(end)}" if words else f"until {_clock(end)}")
    yield f"It is {_clock(f.at)}; the Beano Law allows Beano {' '.join(words)}."


@dataclass(frozen=True)
class MomentFacts:
    """When an act of an occasion happened (local time), and the occasion's day."""

    at: dt.datetime
    occasion_date: dt.date
    act: str = ""


@rule(
    code="H-7-ON-THE-DAY",
    citation="961 CMR 3.04(7)",
    title="An act of an occasion happens on its day (or, past midnight, the morning after)",
    guards=(MOMENT,),
)
def on_the_occasion_day(f: MomentFacts, limits: Limits) -> Iterator[str]:
    """Beano is conducted during the hours of the authorized day: an act recorded for an
    occasion, live or from its control sheets, happened on the occasion's day, or the morning
    after for a night that runs past midnight."""
    day = f.at.date()
    if day not in (f.occasion_date, f.occasion_date + dt.timedelta(days=1)):
        yield (
            f"{f.at:%B %-d, %Y at %-I:%M %p} is not during the occasion of "
            f"{f.occasion_date:%A, %B %-d, %Y}."
        )

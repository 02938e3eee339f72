"""A time of the night typed one way (``occasions.night_time``): "19:05", "7:05 PM" or "7:05",
the last read in the night's context: the license's hours, or an evening without them."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest
from django import forms

from occasions.night_time import Clock, moment, parse_clock, reading, readings

FRIDAY = dt.date(2026, 12, 4)


def night(start: dt.time | None = None, end: dt.time | None = None) -> SimpleNamespace:
    return SimpleNamespace(date=FRIDAY, license=SimpleNamespace(start_time=start, end_time=end))


EVENING = night(dt.time(18, 0), dt.time(22, 0))
MORNING = night(dt.time(9, 0), dt.time(13, 0))
LATE = night(dt.time(19, 0), dt.time(1, 0))  # hours past midnight


@pytest.mark.parametrize(
    ("typed", "on", "read"),
    [
        ("6:30", EVENING, dt.time(18, 30)),  # an evening sheet's 6:30 is 6:30 PM
        ("6:30", MORNING, dt.time(6, 30)),  # nearer a morning license's hours
        ("11:15", MORNING, dt.time(11, 15)),
        ("12:30", MORNING, dt.time(12, 30)),
        ("12:30", LATE, dt.time(0, 30)),  # half past midnight, the morning after
        ("9:50", night(), dt.time(21, 50)),  # no hours on the license: an evening
        ("18:30", MORNING, dt.time(18, 30)),  # 24-hour: as written
        ("06:30", EVENING, dt.time(6, 30)),  # a leading zero: as written
        ("6:30 AM", EVENING, dt.time(6, 30)),
        ("7:05 p.m.", MORNING, dt.time(19, 5)),
        ("21.50", EVENING, dt.time(21, 50)),
    ],
)
def test_a_time_is_read_in_the_nights_context(typed, on, read):
    assert reading(on, parse_clock(typed)) == read


def test_a_time_before_six_is_the_morning_after():
    assert moment(LATE, parse_clock("12:30")).date() == FRIDAY + dt.timedelta(days=1)
    assert moment(EVENING, parse_clock("6:30")).date() == FRIDAY


@pytest.mark.parametrize("typed", ["", "25:00", "7:60", "13:00 PM", "seven", "7:05 XM"])
def test_what_is_not_a_time_is_refused_with_a_message(typed):
    with pytest.raises(forms.ValidationError):
        parse_clock(typed)


def test_the_reading_is_said_back_once_for_each_time_that_could_be_either():
    clocks = [parse_clock("6:30"), parse_clock("6:30"), parse_clock("19:05"), None]
    assert readings(EVENING, clocks) == ["6:30 read as 6:30 PM"]
    assert readings(MORNING, [Clock("6:30", dt.time(6, 30), True)]) == ["6:30 read as 6:30 AM"]

"""A time of the night, typed one way everywhere a time is written after the fact (the paper
sheets' pages, the late close): "19:05", "7:05 PM", or "7:05" as people write it on an evening
sheet, read in the night's context.

A time written without AM or PM whose hour could be either ("6:30") is read as the one of its
two readings that falls within the night: the hours the occasion's license states, or without
them an evening (from noon to 6 AM the morning after). On an evening sheet "6:30" is 6:30 PM, on
a morning license's sheet 6:30 AM; the page says back how it read it ("6:30 read as 6:30 PM").
A 24-hour time ("18:30", "06:30", "0:15") or one with AM/PM is read as written. A time before
6:00 AM is the morning after the night (a night that runs past midnight)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils import timezone

from beano.text import one_line

#: A time before this is the morning after the night (a night that runs past midnight).
MORNING_AFTER_BEFORE = dt.time(6, 0)
#: Without license hours, a night is read as an evening: from noon to 6 AM the morning after.
EVENING = (dt.time(12, 0), MORNING_AFTER_BEFORE)
CLOCK = re.compile(
    r"^\s*(\d{1,2})(?:[:.](\d{2}))?(?::(\d{2}))?\s*([AaPp]\.?[Mm]\.?)?\s*$", re.ASCII
)


@dataclass(frozen=True)
class Clock:
    """A time as written on a sheet: ``time`` as written (24-hour), and whether its hour could
    be either AM or PM (``either``: "6:30", not "18:30", "06:30" or "6:30 PM")."""

    typed: str
    time: dt.time
    either: bool = False


def parse_clock(text: str) -> Clock:
    """``text`` as a time of day; a ValidationError saying how to write it otherwise."""
    match = CLOCK.match(text or "")
    if match is None:
        raise forms.ValidationError("Write the time as 19:05, 7:05 PM or 7:05.")
    hour, minute, second = int(match[1]), int(match[2] or 0), int(match[3] or 0)
    if match[4]:
        if not 1 <= hour <= 12:
            raise forms.ValidationError("With AM or PM the hour is 1 to 12.")
        hour = hour % 12 + (12 if match[4][0].lower() == "p" else 0)
    if hour > 23 or minute > 59 or second > 59:
        raise forms.ValidationError("That is not a time of day.")
    either = not match[4] and 1 <= hour <= 12 and not match[1].startswith("0")
    return Clock(one_line(text), dt.time(hour, minute, second), either)


def _on_the_night(day: dt.date, value: dt.time) -> dt.datetime:
    later = 1 if value < MORNING_AFTER_BEFORE else 0
    return dt.datetime.combine(day + dt.timedelta(days=later), value)


def night_hours(occasion: Any) -> tuple[dt.time, dt.time]:
    """The hours a time of the night is read against: the license's, or an evening."""
    license = occasion.license
    if license.start_time is not None and license.end_time is not None:
        return license.start_time, license.end_time
    return EVENING


def _distance(moment: dt.datetime, start: dt.datetime, end: dt.datetime) -> dt.timedelta:
    if moment < start:
        return start - moment
    if moment > end:
        return moment - end
    return dt.timedelta(0)


def reading(occasion: Any, clock: Clock | dt.time) -> dt.time:
    """The time of day ``clock`` stands for on the occasion's night."""
    if isinstance(clock, dt.time):
        return clock
    if not clock.either:
        return clock.time
    start_time, end_time = night_hours(occasion)
    start = dt.datetime.combine(occasion.date, start_time)
    end = dt.datetime.combine(occasion.date, end_time)
    if end <= start:
        end += dt.timedelta(days=1)
    hour = clock.time.hour % 12
    candidates = [clock.time.replace(hour=hour), clock.time.replace(hour=hour + 12)]
    return min(candidates, key=lambda t: _distance(_on_the_night(occasion.date, t), start, end))


def moment(occasion: Any, clock: Clock | dt.time) -> dt.datetime:
    """The sheet's time on the occasion's night, aware, in the installation's zone."""
    return timezone.make_aware(_on_the_night(occasion.date, reading(occasion, clock)))


def said(value: dt.time) -> str:
    text = value.strftime("%-I:%M %p")
    return text if not value.second else value.strftime("%-I:%M:%S %p")


def readings(occasion: Any, values: Any) -> list[str]:
    """How each time written without AM or PM was read: "6:30 read as 6:30 PM", once each."""
    found: list[str] = []
    for value in values:
        if isinstance(value, Clock) and value.either:
            words = f"{value.typed} read as {said(reading(occasion, value))}"
            if words not in found:
                found.append(words)
    return found


def cleaned_clocks(forms_: Any) -> list[Clock]:
    """Every time written in the forms and formsets given (as a page's ``bound`` holds them)."""
    out: list[Clock] = []
    for item in forms_:
        inner = getattr(item, "forms", None)
        if inner is not None:
            out += cleaned_clocks(inner)
            continue
        data = getattr(item, "cleaned_data", None) or {}
        out += [v for v in data.values() if isinstance(v, Clock)]
    return out


class NightTimeField(forms.CharField):
    """A time of the night as a sheet writes it: "19:05", "7:05 PM" or "7:05" (read in the
    night's context). Cleans to a ``Clock``; ``moment`` places it on the occasion's night."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 12)
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {"placeholder": "hh:mm", "size": 8, "autocomplete": "off", "inputmode": "text"}
        )

    def clean(self, value: Any) -> Clock | None:  # type: ignore[override]
        text = super().clean(value)
        if not text:
            return None
        return parse_clock(text)

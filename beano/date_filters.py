"""The dates a page's filter may ask for: from 1971 to ten years ahead.

A filter's date comes from the query string, and Python's dates stop at the years 1 and 9999:
``?date_to=9999-12-31`` made the inspector's charts step a month past the last date there is (a
500), ``?month=0001-01`` the calendar's previous month, and ``?date_from=0001-01-01`` drew 24,000
months of charts. No record is older than Beano in Massachusetts (made lawful in 1971), and
none is planned further ahead than a license runs, so a date outside these bounds asks for
nothing the application holds: it is ignored like a date that does not parse, and the page says
so (``out_of_range``).
"""

from __future__ import annotations

import datetime as dt

#: Beano was made lawful in Massachusetts in 1971: no record is older.
EARLIEST = dt.date(1971, 1, 1)
#: How many years after this one a filter may reach (a license's authorized days ahead).
YEARS_AHEAD = 10


def latest(today: dt.date) -> dt.date:
    """The last date a filter may ask for: December 31, ``YEARS_AHEAD`` years from now."""
    return dt.date(today.year + YEARS_AHEAD, 12, 31)


def in_range(day: dt.date, today: dt.date) -> bool:
    return EARLIEST <= day <= latest(today)


def out_of_range(today: dt.date) -> str:
    """What the page says of a date outside the bounds."""
    return f"Give a date from {EARLIEST:%B %-d, %Y} to {latest(today):%B %-d, %Y}."


def parse(value: str | None, today: dt.date) -> tuple[dt.date | None, str]:
    """A filter's date from the query string, and the page's message when it is ignored: no date
    and no message for an empty value; no date and a message for one that is not a date
    (YYYY-MM-DD) or lies outside the bounds."""
    text = (value or "").strip()
    if not text:
        return None, ""
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None, f"“{text[:20]}” is not a date (YYYY-MM-DD): it is ignored."
    if not in_range(day, today):
        return None, f"{out_of_range(today)} “{text}” is ignored."
    return day, ""

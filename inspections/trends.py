"""The figures over time for the dashboards' charts: attendance, gross receipts (door sales) and
prizes (awarded to winners), by month, as the median per occasion played, beside the statewide
median per occasion. Two queries whatever the number of occasions: the subject's occasions and
every organization's, both with their figures annotated."""

from __future__ import annotations

import datetime as dt
import statistics
from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from inspections.charts import Chart, Series
from inspections.figures import with_figures
from occasions.models import Occasion

#: (figure, chart title, unit). A new figure (the net proceeds) is one more line here, or one
#: more series on a chart (``Chart.with_series``).
MEASURES = (
    ("attendance", "Attendance announced", "players"),
    ("gross_receipts", "Gross receipts (door sales)", "USD"),
    ("prizes", "Prizes awarded", "USD"),
    ("net_proceeds", "Net proceeds (filed reports)", "USD"),
)
PLAYED = (Occasion.Status.OPEN, Occasion.Status.CLOSED)
DEFAULT_MONTHS = 12


def month_start(day: dt.date) -> dt.date:
    return day.replace(day=1)


def months_between(start: dt.date, end: dt.date) -> list[dt.date]:
    months, month = [], month_start(start)
    while month <= end:
        months.append(month)
        month = (month + dt.timedelta(days=32)).replace(day=1)
    return months


def period(
    date_from: dt.date | None, date_to: dt.date | None, today: dt.date
) -> tuple[dt.date, dt.date]:
    """The filter's range, or the last twelve months (this one included)."""
    end = date_to or today
    start = date_from or month_start(end).replace(year=end.year - 1) + dt.timedelta(days=32)
    return month_start(start), end


def figures(occasions: QuerySet[Occasion], start: dt.date, end: dt.date) -> list[dict[str, Any]]:
    """The played occasions in [start, end], each with its figures: one query."""
    return list(
        with_figures(occasions.filter(status__in=PLAYED, date__range=(start, end))).values(
            "date", *(name for name, _, _ in MEASURES)
        )
    )


def statewide_figures(start: dt.date, end: dt.date) -> list[dict[str, Any]]:
    """Every licensee's played occasions in [start, end] with their figures, for the statewide
    median: a practice license's occasions (``License.practice``, the demo's) are no one's."""
    return figures(Occasion.objects.filter(license__practice=False), start, end)


def _medians(rows: Iterable[dict[str, Any]], measure: str, months: list[dt.date]) -> tuple:
    by_month: dict[dt.date, list[Decimal]] = defaultdict(list)
    for row in rows:
        if row.get(measure) is not None:
            by_month[month_start(row["date"])].append(Decimal(row[measure]))
    return tuple(statistics.median(by_month[m]) if by_month.get(m) else None for m in months)


def trend_charts(
    *,
    subject: str,
    subject_rows: list[dict[str, Any]],
    statewide_rows: list[dict[str, Any]],
    start: dt.date,
    end: dt.date,
) -> list[Chart]:
    months = months_between(start, end)
    labels = tuple(f"{m:%b %Y}" for m in months)
    # Under the axis the month alone, with the year at the start and at each January.
    ticks = tuple(
        f"{m:%b} ’{m:%y}" if i == 0 or m.month == 1 else f"{m:%b}" for i, m in enumerate(months)
    )
    return [
        Chart(
            key=name,
            title=title,
            note="median per occasion played, by month",
            unit=unit,
            labels=labels,
            ticks=ticks,
            series=(
                Series(subject, _medians(subject_rows, name, months)),
                Series("Statewide median", _medians(statewide_rows, name, months)),
            ),
        )
        for name, title, unit in MEASURES
    ]

"""The server-drawn charts: SVG with a title and a description for screen readers, a series
more is one more line, and a month without a figure breaks the line rather than drawing zero."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from inspections.charts import Chart, Series, nice_ceiling
from inspections.trends import MEASURES, months_between, period, trend_charts
from reports.kept_medians import medians_of
from tests.conftest import login


def _chart(*series: Series) -> Chart:
    return Chart("receipts", "Gross receipts", "USD", ("Oct 2026", "Nov 2026", "Dec 2026"), series)


def test_it_draws_an_accessible_svg():
    svg = str(_chart(Series("Post 171", (Decimal("100"), None, Decimal("300")))).svg)
    assert svg.startswith('<svg class="chart"') and 'role="img"' in svg
    assert 'aria-labelledby="chart-receipts-title chart-receipts-desc"' in svg
    assert '<title id="chart-receipts-title">Gross receipts</title>' in svg
    assert "Latest: Post 171: $300 in Dec 2026" in svg
    assert svg.count("<circle") == 2 and "<polyline" not in svg  # no line across the gap


def test_another_series_is_one_more_line():
    chart = _chart(Series("Post 171", (1, 2, 3)))
    more = chart.with_series(Series("Net proceeds", (3, 2, 1)))
    assert len(more.series) == 2 and len(chart.series) == 1
    svg = str(more.svg)
    assert svg.count("<polyline") == 2 and 'stroke-dasharray="6 4"' in svg
    assert more.rows[0] == ("Oct 2026", ["$1", "$3"])


def test_labels_are_escaped():
    chart = Chart("x", "<b>", "players", ("<i>",), (Series("<script>", (1,)),))
    svg = str(chart.svg)
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "<b>" not in svg


def test_the_axis_tops_at_a_round_figure():
    assert [nice_ceiling(Decimal(v)) for v in (0, 7, 12, 180, 1234, 5000)] == [
        1,
        10,
        20,
        200,
        2000,
        5000,
    ]


def test_the_period_is_the_last_twelve_months_or_the_filters():
    start, end = period(None, None, dt.date(2026, 12, 2))
    assert (start, end) == (dt.date(2026, 1, 1), dt.date(2026, 12, 2))
    assert len(months_between(start, end)) == 12
    assert period(dt.date(2026, 3, 15), dt.date(2026, 5, 1), dt.date(2026, 12, 2)) == (
        dt.date(2026, 3, 1),
        dt.date(2026, 5, 1),
    )


def test_it_compares_with_the_statewide_median_per_occasion():
    november = dt.date(2026, 11, 1)
    mine = [
        {"month": november, "attendance": 80, "gross_receipts": Decimal("400"), "prizes": 1},
        {"month": november, "attendance": 60, "gross_receipts": Decimal("300"), "prizes": 1},
    ]
    kept = {(november, "attendance"): Decimal("70.5"), (november, "gross_receipts"): None}
    charts = trend_charts(
        subject="Post 171",
        subject_medians={
            key: median
            for key, (median, _) in medians_of(mine, [m for m, _, _ in MEASURES]).items()
        },
        statewide=kept,
        start=november,
        end=dt.date(2026, 11, 30),
    )
    attendance = charts[0]
    assert [s.label for s in attendance.series] == ["Post 171", "Statewide median"]
    assert attendance.series[0].values == (70,) and attendance.series[1].values == (
        Decimal("70.5"),
    )
    assert charts[1].series[0].values == (Decimal("350"),) and charts[1].series[1].values == (None,)
    assert charts[2].series[1].values == (None,)  # no median kept for the month


def test_the_organizations_overview_shows_its_charts_beside_the_statewide_median(
    client, tenant, played
):
    from django.urls import reverse

    login(client, tenant.head)
    page = client.get(reverse("organization_home", args=[tenant.organization.pk])).content.decode()
    assert f"<title>{tenant.organization.name} · Beano occasions</title>" in page
    assert page.count('<svg class="chart"') == 3
    assert "Over the last twelve months" in page and "Statewide median" in page

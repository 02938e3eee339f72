"""Every date filter is bounded: the inspector's pages and exports, the log of refused actions,
the reports owed (and their ZIP) and the calendar's month. A date Python holds but no record
can (the years 1 and 9999) is ignored with the page's message, never a 500 nor a chart of
24,000 months."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from beano import date_filters
from tests.conftest import login

EXTREMES = ["9999-12-31", "0001-01-01"]
MESSAGE = "Give a date from January 1, 1971 to December 31, "


def test_the_bounds_run_from_1971_to_ten_years_ahead():
    today = dt.date(2026, 12, 4)
    assert date_filters.parse("2026-11-01", today) == (dt.date(2026, 11, 1), "")
    assert date_filters.parse("", today) == (None, "")
    assert date_filters.parse("1971-01-01", today)[0] == dt.date(1971, 1, 1)
    assert date_filters.parse("2036-12-31", today)[0] == dt.date(2036, 12, 31)
    for text in ("1970-12-31", "2037-01-01", "9999-12-31", "0001-01-01"):
        assert date_filters.parse(text, today) == (
            None,
            f"Give a date from January 1, 1971 to December 31, 2036. “{text}” is ignored.",
        )
    day, message = date_filters.parse("2026-02-30", today)
    assert day is None and "is not a date" in message


def _commission_pages(org_id: int) -> list[tuple[str, str, str]]:
    """(url, the parameter of its start, of its end) for the Commission's pages."""
    return [
        (reverse("inspector_dashboard"), "date_from", "date_to"),
        (reverse("inspect_compliance", args=["prizes"]), "date_from", "date_to"),
        (reverse("inspect_compliance", args=["winners"]), "date_from", "date_to"),
        (reverse("org_compliance_prizes", args=[org_id]), "date_from", "date_to"),
        (reverse("org_compliance_winners", args=[org_id]), "date_from", "date_to"),
        (reverse("commission_refused_actions"), "date_from", "date_to"),
        (reverse("org_refused_actions", args=[org_id]), "date_from", "date_to"),
        (reverse("commission_reports"), "from", "to"),
        (reverse("reports_home", args=[org_id]), "from", "to"),
    ]


@pytest.mark.parametrize("value", EXTREMES)
@pytest.mark.parametrize("side", ["start", "end", "both"])
def test_a_date_out_of_bounds_is_ignored_with_a_message_on_every_page(
    client, tenant, statewide_inspector, value, side
):
    login(client, statewide_inspector)
    client.raise_request_exception = False
    for url, start, end in _commission_pages(tenant.organization.pk):
        params = {start: value} if side == "start" else {end: value}
        if side == "both":
            params = {start: value, end: value}
        response = client.get(url, params)
        assert response.status_code == 200, (url, params)
        assert MESSAGE in response.content.decode(), (url, params)


@pytest.mark.parametrize("value", EXTREMES)
def test_the_exports_never_fail_on_a_date_out_of_bounds(client, tenant, statewide_inspector, value):
    login(client, statewide_inspector)
    client.raise_request_exception = False
    for kind in ("occasions", "sales", "refused"):
        url = reverse("inspect_export", args=[kind])
        for params in ({"date_from": value}, {"date_to": value}):
            response = client.get(url, params)
            assert response.status_code == 200, (kind, params)
            assert b"".join(response.streaming_content).count(b"\n") >= 1  # the header


def test_the_dashboards_charts_stay_within_the_bounds(client, tenant, statewide_inspector):
    login(client, statewide_inspector)
    response = client.get(reverse("inspector_dashboard"), {"date_from": "0001-01-01"})
    assert response.status_code == 200
    # Ignored: the charts show their twelve months, not the 24,000 since the year 1.
    assert {len(chart.labels) for chart in response.context["charts"]} == {12}


@pytest.mark.parametrize("value", EXTREMES)
def test_the_zip_refuses_a_range_out_of_bounds_in_words(client, statewide_inspector, value):
    login(client, statewide_inspector)
    client.raise_request_exception = False
    url = reverse("commission_reports_zip")
    for params in ({"from": value, "to": "2026-12-31"}, {"from": "2026-12-01", "to": value}):
        response = client.get(url, params)
        assert response.status_code == 400, params
        assert MESSAGE in response.content.decode()


@pytest.mark.parametrize("month", ["9999-12", "0001-01", "1970-12", "2099-01"])
def test_the_calendar_of_a_month_out_of_bounds_shows_this_month_and_says_why(client, tenant, month):
    login(client, tenant.head)
    client.raise_request_exception = False
    url = reverse("occasion_calendar", args=[tenant.organization.pk])
    response = client.get(url, {"month": month})
    assert response.status_code == 200
    assert response.context["month"] == timezone.localdate().replace(day=1)
    assert "Give a month from January 1971 to December " in response.content.decode()


def test_the_calendar_reaches_the_first_and_the_last_month_of_the_bounds(client, tenant):
    login(client, tenant.head)
    url = reverse("occasion_calendar", args=[tenant.organization.pk])
    last = date_filters.latest(timezone.localdate())
    for month in ("1971-01", f"{last:%Y-%m}"):
        response = client.get(url, {"month": month})
        assert response.status_code == 200
        assert f"{response.context['month']:%Y-%m}" == month
        assert "Give a month" not in response.content.decode()

"""Every page that says what is owed says what ``reports.obligations.days_owed`` computes, day by
day and state by state: the Commission's list of reports owed (each filter, "all" included),
the organization's Reports tab and its counts, the inspector's dashboard (its counts and its
occasions' reports), the exceptions report, the occasions CSV and the reminders. Over a
generated year in every state (tests/reports/year_fixtures.py) and over the demo as seeded."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from organizations.models import Organization
from organizations.selectors import licensees
from reports import obligations as owed
from reports.reminders import DUE_SOON_DAYS, LATE_HORIZON_DAYS, report_events
from tests.conftest import login
from tests.reports.conftest import at
from tests.reports.year_fixtures import TODAY, YEAR, build_year

START = dt.date(YEAR, 1, 1)


@pytest.fixture
def year(tenant, report_clock):
    report_clock(at(12, day=TODAY))
    org = build_year(tenant)
    return org, owed.days_owed(org, START, TODAY)


def _listed(client, org, status: str) -> dict[dt.date, str]:
    response = client.get(reverse("commission_reports"), {"organization": org.pk, "status": status})
    assert response.status_code == 200
    return {row.obligation.day: row.status for row in response.context["rows"]}


def test_the_generated_year_holds_every_state(year):
    _org, days = year
    states = Counter(d.state for d in days)
    assert set(states) == {owed.MISSING, owed.LATE, owed.DUE, owed.FILED, owed.FILED_LATE}
    assert any(d.amended and d.state == owed.FILED for d in days)
    assert any(d.amended and d.state == owed.FILED_LATE for d in days)
    assert any(d.state == owed.LATE and d.occasion.status == "open" for d in days)


def test_the_commission_list_says_what_is_owed_under_every_filter(client, year, inspector):
    org, days = year
    login(client, inspector)
    assert _listed(client, org, "all") == {d.day: d.state for d in days}
    for state in owed.FILTER_LABELS:
        expected = {
            d.day for d in days if (d.amended if state == owed.AMENDED else d.state == state)
        }
        assert set(_listed(client, org, state)) == expected, state
    opened = {d.day for d in days if d.state in owed.OPEN_STATES}
    assert set(_listed(client, org, "open")) == opened


def test_the_reports_tab_lists_and_counts_what_is_owed(client, year, tenant):
    org, days = year
    login(client, tenant.bookkeeper)
    response = client.get(reverse("reports_home", kwargs={"org_id": org.pk}))
    rows = {r.obligation.day: r.status for r in response.context["rows"]}
    assert rows == {d.day: d.state for d in days}
    counts = response.context["counts"]
    expected = Counter(d.state for d in days)
    assert {k: counts[k] for k in owed.STATE_LABELS} == {k: expected[k] for k in owed.STATE_LABELS}
    assert counts[owed.AMENDED] == sum(d.amended for d in days)


def test_the_dashboard_counts_and_its_occasions_say_what_is_owed(client, year, inspector):
    org, days = year
    by_day = {d.day: d for d in days}
    login(client, inspector)
    query = {"organization": org.pk, "from": f"{YEAR}-01-01", "to": f"{YEAR}-12-31"}
    response = client.get(reverse("inspector_dashboard"), query)
    [row] = [r for r in response.context["rows"] if r.organization == org]
    past = Counter(d.state for d in days if d.day < TODAY)
    assert (row.issues.missing, row.issues.late, row.issues.due) == (
        past[owed.MISSING],
        past[owed.LATE],
        past[owed.DUE],
    )
    assert row.issues.amendments == sum(d.versions - 1 for d in days if d.versions)
    seen = 0
    for number in range(1, response.context["page"].paginator.num_pages + 1):
        page = client.get(reverse("inspector_dashboard"), {**query, "page": number}).context
        for o in page["page"].object_list:
            assert page["occasion_reports"][o.pk].status == by_day[o.date].state, o.date
            seen += 1
    assert seen == sum(1 for d in days if d.occasion is not None)


def test_the_exceptions_report_lists_the_reports_missing_late_or_filed_late(
    client, year, inspector
):
    org, days = year
    login(client, inspector)
    response = client.get(
        reverse("inspect_exceptions"), {"kind": "reports", "organization": org.pk}
    )
    rows = response.context["page"].paginator.object_list
    assert Counter(r.day for r in rows) == Counter(
        d.day for d in days if d.state in (owed.MISSING, owed.LATE, owed.FILED_LATE)
    )
    for r in rows:
        assert r.url  # each to its evidence: the list of that state, or the report's versions


def test_the_occasions_csv_says_each_report_as_the_pages_do(client, year, inspector):
    org, days = year
    by_day = {d.day: d for d in days}
    login(client, inspector)
    response = client.get(
        reverse("inspect_export", kwargs={"kind": "occasions"}),
        {"organization": org.pk, "from": f"{YEAR}-01-01", "to": f"{YEAR}-12-31"},
    )
    text = b"".join(response.streaming_content).decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == sum(1 for d in days if d.occasion is not None)
    for row in rows:
        day = by_day[dt.date.fromisoformat(row["date"])]
        said = owed.STATE_LABELS[day.state].lower()
        assert row["report status"].split(",")[0] == said
        assert ("amended" in row["report status"]) == day.amended


def test_the_reminders_are_of_the_days_open(year):
    org, days = year
    reminded = {e.key for e in report_events([org], TODAY)}
    expected = {
        d.day.isoformat()
        for d in days
        if d.state in owed.OPEN_STATES
        and d.obligation.due_on - dt.timedelta(days=DUE_SOON_DAYS)
        <= TODAY
        <= d.obligation.due_on + dt.timedelta(days=LATE_HORIZON_DAYS)
    }
    assert reminded == expected and expected


def test_every_page_says_what_the_demo_owes(seeded_demo, client, db):
    """Over the demo as seeded: each licensee's days on the Commission's list and its counts on
    the dashboard are those computed, from the start of its records."""
    today = timezone.localdate()
    login(client, get_user_model().objects.get(username="inspector"))
    dashboard = client.get(reverse("inspector_dashboard"))
    issues = {r.organization.pk: r.issues for r in dashboard.context["rows"]}
    for org in licensees(Organization.objects.all()):
        start = min(owed.records_begin(org, lic) for lic in org.licenses.all())
        days = owed.days_owed(org, start, today)
        assert _listed(client, org, "all") == {d.day: d.state for d in days}, org
        past = Counter(d.state for d in days if d.day < today)
        found = issues[org.pk]
        assert (found.missing, found.late, found.due) == (
            past[owed.MISSING],
            past[owed.LATE],
            past[owed.DUE],
        ), org


@pytest.mark.parametrize(
    "url",
    [
        lambda org: (reverse("commission_reports"), {"organization": org.pk, "status": "all"}),
        lambda org: (reverse("commission_reports"), {"status": "amended"}),
        lambda org: (reverse("reports_home", kwargs={"org_id": org.pk}), {}),
        lambda org: (reverse("inspect_exceptions"), {"kind": "reports"}),
    ],
    ids=["commission-all", "commission-amended", "reports-tab", "exceptions"],
)
def test_the_lists_read_in_as_many_queries_for_a_year_as_for_half_a_year(
    url, client, tenant, other_tenant, statewide_inspector, report_clock
):
    """Half a year at one organization, then a whole year at another beside it: the same
    number of queries for the other's page (or the Commission-wide one)."""
    report_clock(at(12, day=TODAY))

    def count(t, org) -> int:
        path, query = url(org)
        login(client, t.bookkeeper if path.startswith("/org/") else statewide_inspector)
        client.get(path, query)  # the session's first page of this login, counted apart
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(path, query).status_code == 200
        return len(ctx.captured_queries)

    half = build_year(tenant, until=dt.date(YEAR, 7, 1), recorded_through=dt.date(YEAR, 3, 31))
    other_tenant.organization.reports_from = TODAY  # nothing owed yet
    other_tenant.organization.save()
    small = count(tenant, half)
    whole = build_year(other_tenant, recorded_through=dt.date(YEAR, 9, 30))
    assert count(other_tenant, whole) == small

"""Issue 40, "the inspector's pages disagree", on the demo as seeded: Post 171's night brought in
from paper three weeks before its last night was "Closed from paper · Late" on the dashboard and
on neither list of reports owed; the authorized day four weeks before, nothing recorded, was
missing nowhere. Every page now reads one computation (``reports.obligations``): the same day,
the same state, on each."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from beano.demo.floor import last_past_day
from organizations.models import Organization
from reports import obligations as owed
from tests.conftest import login

POST = "American Legion Post 171"


@pytest.fixture
def post(seeded_demo, db):
    return Organization.objects.get(name=POST)


def _day(post, weeks_before: int) -> dt.date:
    return last_past_day(post, timezone.localdate()) - dt.timedelta(days=7 * weeks_before)


def _inspector(client):
    return login(client, get_user_model().objects.get(username="inspector"))


def _commission_states(client, post, **query) -> dict[dt.date, str]:
    url = reverse("commission_reports")
    response = client.get(url, {"organization": post.pk, **query})
    assert response.status_code == 200
    return {row.obligation.day: row.status for row in response.context["rows"]}


def test_the_night_closed_from_paper_is_late_on_every_page(post, client):
    night = _day(post, 3)
    _inspector(client)
    dashboard = client.get(reverse("inspector_dashboard"), {"organization": post.pk})
    shown = {
        o.date: dashboard.context["occasion_reports"][o.pk].status
        for o in dashboard.context["page"].object_list
    }
    assert shown[night] == owed.LATE
    assert _commission_states(client, post, status="all")[night] == owed.LATE
    assert night in _commission_states(client, post)  # "due, late or missing", the default
    assert night in _commission_states(client, post, status=owed.LATE)
    login(client, get_user_model().objects.get(username="post171-books"))
    tab = client.get(reverse("reports_home", kwargs={"org_id": post.pk}))
    assert {r.obligation.day: r.status for r in tab.context["rows"]}[night] == owed.LATE


def test_the_authorized_day_with_nothing_recorded_is_missing_on_every_page(post, client):
    nothing = _day(post, 4)
    assert not post.occasions.filter(date=nothing).exists()
    _inspector(client)
    assert _commission_states(client, post, status="all")[nothing] == owed.MISSING
    assert nothing in _commission_states(client, post, status=owed.MISSING)
    dashboard = client.get(reverse("inspector_dashboard"), {"organization": post.pk})
    [row] = [r for r in dashboard.context["rows"] if r.organization == post]
    login(client, get_user_model().objects.get(username="post171-books"))
    tab = client.get(reverse("reports_home", kwargs={"org_id": post.pk}))
    counts = tab.context["counts"]
    assert counts[owed.MISSING] >= 1 and counts[owed.MISSING] == row.issues.missing
    assert counts[owed.LATE] == row.issues.late >= 2  # the paper night and the night not played


def test_the_pages_say_where_the_records_begin(post, client):
    """The start is stated: the organization's ``reports_from`` (the day its records begin
    here), on the Commission's list and on the Reports tab."""
    _inspector(client)
    page = client.get(reverse("commission_reports"), {"organization": post.pk}).content.decode()
    assert f"{post.reports_from:%B %-d, %Y}" in page
    login(client, get_user_model().objects.get(username="post171-books"))
    tab = client.get(reverse("reports_home", kwargs={"org_id": post.pk})).content.decode()
    assert f"{post.reports_from:%B %-d, %Y}" in tab

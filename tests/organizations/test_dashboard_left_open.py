"""Nothing open is forgotten (issue 39, item 6): an occasion left open on an earlier day is at the
top of the landing page of those who close a night (the member in charge, the head, the
bookkeeper), the close after the fact one click away; the morning after a night past midnight,
the close page. In a fixed number of queries however many nights were left open."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from occasions.models import Occasion
from tests.conftest import login
from tests.fixtures.night import open_for_tests

NIGHT = dt.date(2026, 12, 4)  # a Friday, the ``occasion`` fixture's
TUESDAY = NIGHT + dt.timedelta(days=4)


def _now(monkeypatch: Any, day: dt.date, hour: int = 10) -> None:
    moment = timezone.make_aware(dt.datetime.combine(day, dt.time(hour, 0)))
    monkeypatch.setattr(timezone, "now", lambda: moment)


def _dashboard(client: Any, user: Any) -> str:
    login(client, user)
    return client.get(reverse("dashboard")).content.decode()


def _url(name: str, occasion: Occasion) -> str:
    return reverse(name, args=[occasion.organization_id, occasion.pk])


@pytest.fixture
def left_open(occasion, monkeypatch):
    """The Friday night opened and never closed; it is Tuesday morning."""
    open_for_tests(occasion)
    _now(monkeypatch, TUESDAY)
    return occasion


@pytest.mark.parametrize("role", ["member_in_charge", "head", "bookkeeper"])
def test_a_night_left_open_is_at_the_top_with_its_close_after_the_fact(
    client, tenant, left_open, role
):
    page = _dashboard(client, getattr(tenant, role))
    card = page.split(f'<a href="{reverse("organization_home", args=[tenant.organization.pk])}"')[1]
    assert "An occasion was left open" in card
    left = card.split('class="alert alert-warning left-open"')[1].split("</section>")[0]
    assert f'href="{_url("occasion_detail", left_open)}">Friday, December 4</a>' in left
    assert f'href="{_url("occasion_close_late", left_open)}">Close after the fact</a>' in left
    # At the top: before tonight's panel, the next days and the reports owed.
    first = card.index("left-open")
    for later in ("Next authorized occasions", "Financial reports coming due"):
        assert later not in card or first < card.index(later)


def test_a_worker_does_not_close_a_night_and_is_not_told_to(client, tenant, left_open):
    assert "left-open" not in _dashboard(client, tenant.worker)


def test_the_morning_after_the_close_page_closes_it(client, tenant, occasion, monkeypatch):
    open_for_tests(occasion)
    _now(monkeypatch, NIGHT + dt.timedelta(days=1), hour=0)  # 12:00 AM, the night not over
    page = _dashboard(client, tenant.member_in_charge)
    left = page.split('class="alert alert-warning left-open"')[1].split("</section>")[0]
    assert f'href="{_url("occasion_close", occasion)}">Close it</a>' in left
    assert "Close after the fact" not in left


def test_tonights_open_night_is_not_left_open(client, tenant, occasion, monkeypatch):
    open_for_tests(occasion)
    _now(monkeypatch, NIGHT, hour=20)
    page = _dashboard(client, tenant.member_in_charge)
    assert "left-open" not in page and "Open now" in page


def test_a_closed_night_is_not_left_open(client, tenant, left_open):
    Occasion.objects.filter(pk=left_open.pk).update(
        status=Occasion.Status.CLOSED, closed_at=timezone.now()
    )
    assert "left-open" not in _dashboard(client, tenant.member_in_charge)


def _open_fridays(night: Occasion, count: int) -> None:
    """``count`` more Fridays before ``night``, each opened and left open."""
    for weeks in range(1, count + 1):
        day = night.date - dt.timedelta(weeks=weeks)
        open_for_tests(
            Occasion.objects.create(
                organization=night.organization, license=night.license, date=day
            )
        )


def test_many_nights_left_open_name_five_and_count_the_rest_in_the_same_queries(
    client, tenant, left_open
):
    login(client, tenant.head)
    client.get(reverse("dashboard"))

    def count() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("dashboard")).content.decode()
        return len(queries), page

    one, page = count()
    assert "An occasion was left open" in page
    _open_fridays(left_open, 8)
    nine, page = count()
    assert nine == one
    assert "9 occasions were left open" in page and "And 4 more" in page
    left = page.split('class="alert alert-warning left-open"')[1].split("</section>")[0]
    assert left.count("Close after the fact") == 5
    oldest = (NIGHT - dt.timedelta(weeks=8)).strftime("%B %-d")
    assert oldest in left  # the oldest first


def test_st_annes_night_left_open_is_on_its_member_in_charges_dashboard(seeded_demo, db, client):
    """The demo: St. Anne's most recent Tuesday is still open, on the inspector's dashboard and
    now on ``stanne-mic``'s too."""
    from django.contrib.auth import get_user_model

    anne = Occasion.objects.filter(
        organization__name="St. Anne's Parish",
        status=Occasion.Status.OPEN,
        date__lt=timezone.localdate(),
    ).first()
    if anne is None:
        pytest.skip("seeded in the first days of a year: no past Tuesday of the year to leave open")
    user = get_user_model().objects.get(username="stanne-mic")
    page = _dashboard(client, user)
    left = page.split('class="alert alert-warning left-open"')[1].split("</section>")[0]
    assert anne.date.strftime("%A, %B %-d") in left
    close = "occasion_close" if anne.records_on(timezone.localdate()) else "occasion_close_late"
    assert f'href="{_url(close, anne)}"' in left

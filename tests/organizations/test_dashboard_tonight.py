"""Each role's landing page goes straight to what it needs tonight: the member in charge to
tonight's occasion, the bookkeeper to the last close-out and to the reports due (tonight's
among them once its occasion is closed, a link each; a night played is not "Upcoming")."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from occasions.models import Occasion
from reports import selectors
from reports.models import ReportObligation
from tests.conftest import login

NIGHT = dt.date(2026, 12, 4)  # a Friday, the ``occasion`` fixture's


@pytest.fixture
def tonight(monkeypatch: Any) -> dt.datetime:
    moment = timezone.make_aware(dt.datetime.combine(NIGHT, dt.time(22, 30)))
    monkeypatch.setattr(timezone, "now", lambda: moment)
    return moment


def _page(client: Any, user: Any) -> str:
    login(client, user)
    return client.get(reverse("dashboard")).content.decode()


def test_the_member_in_charge_goes_to_tonights_occasion(client, tenant, occasion, tonight):
    page = _page(client, tenant.member_in_charge)
    detail = reverse("occasion_detail", args=[tenant.organization.pk, occasion.pk])
    assert f'href="{detail}"' in page and "Tonight's occasion" in page
    assert reverse("opening_checklist", args=[tenant.organization.pk, occasion.pk]) in page


def test_an_authorized_night_not_prepared_yet(client, tenant, tonight):
    page = _page(client, tenant.member_in_charge)
    assert "Prepare tonight&#x27;s occasion" in page or "Prepare tonight's occasion" in page
    assert f"{reverse('occasion_calendar', args=[tenant.organization.pk])}?month=2026-12" in page


def test_no_tonight_on_a_day_the_license_does_not_authorize(client, tenant, monkeypatch):
    thursday = timezone.make_aware(dt.datetime.combine(NIGHT - dt.timedelta(days=1), dt.time(20)))
    monkeypatch.setattr(timezone, "now", lambda: thursday)
    page = _page(client, tenant.member_in_charge)
    assert "alert alert-primary tonight" not in page and "Tonight" not in page


def _close(occasion: Occasion) -> None:
    Occasion.objects.filter(pk=occasion.pk).update(
        status=Occasion.Status.CLOSED, closed_at=timezone.now()
    )


def test_the_bookkeeper_sees_tonights_closed_night_due_with_its_close_out(
    client, tenant, occasion, tonight
):
    org = tenant.organization
    org.reports_from = NIGHT
    org.save(update_fields=["reports_from"])
    page = _page(client, tenant.bookkeeper)
    assert "Close-out of" not in page  # nothing closed yet; tonight is not owed yet
    _close(occasion)
    page = client.get(reverse("dashboard")).content.decode()
    closeout = reverse("report_closeout", args=[org.pk, occasion.pk])
    assert f'href="{closeout}">Close-out of Friday, December 4' in page
    owed = page.split('class="list-group list-group-flush owed-rows"')[1].split("</ul>")[0]
    assert f'<a href="{closeout}">Fri, Dec 4' in owed
    assert ">Due<" in owed and "Upcoming" not in owed


def test_tonight_is_upcoming_until_its_occasion_is_closed(tenant, occasion, tonight):
    ob = ReportObligation(organization=tenant.organization, day=NIGHT, due_on=NIGHT)
    assert selectors.obligation_status(ob, occasion, None, NIGHT) == selectors.UPCOMING
    assert selectors.obligation_status(ob, None, None, NIGHT) == selectors.UPCOMING
    occasion.status = Occasion.Status.CLOSED
    assert selectors.obligation_status(ob, occasion, None, NIGHT) == selectors.DUE
    occasion.status = Occasion.Status.NOT_PLAYED
    assert selectors.obligation_status(ob, occasion, None, NIGHT) == selectors.DUE
    tomorrow = ReportObligation(organization=tenant.organization, day=NIGHT + dt.timedelta(1))
    assert selectors.obligation_status(tomorrow, None, None, NIGHT) == selectors.UPCOMING


def test_owed_rows_are_links_for_every_kind_of_day(client, tenant, tonight):
    org = tenant.organization
    org.reports_from = NIGHT - dt.timedelta(days=14)
    org.save(update_fields=["reports_from"])
    page = _page(client, tenant.bookkeeper)
    owed = page.split('class="list-group list-group-flush owed-rows"')[1].split("</ul>")[0]
    calendar = reverse("occasion_calendar", args=[org.pk])
    assert owed.count(f'<a href="{calendar}?month=2026-11">') == 2  # Nov 20 and 27: nothing kept

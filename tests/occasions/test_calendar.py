import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from beano import rules
from beano.rules.reporting import ResumptionFacts
from occasions import selectors, services
from occasions.models import Occasion
from organizations.models import AuditEvent
from tests.conftest import login

FRIDAYS = [dt.date(2026, 11, 20), dt.date(2026, 11, 27), dt.date(2026, 12, 4)]


def test_every_authorized_day_is_on_the_calendar(tenant):
    days = selectors.calendar(tenant.organization, dt.date(2026, 12, 1), dt.date(2026, 12, 31))
    assert [d.day.day for d in days] == [4, 11, 18, 25]
    assert all(d.status == "scheduled" and d.occasion is None for d in days)


def test_an_occasion_is_recorded_once_for_an_authorized_day(tenant):
    first = services.occasion_for_day(organization=tenant.organization, day=FRIDAYS[2], by=None)
    again = services.occasion_for_day(organization=tenant.organization, day=FRIDAYS[2], by=None)
    assert first == again and first.status == Occasion.Status.SCHEDULED
    assert AuditEvent.objects.filter(action="occasions.occasion.scheduled").count() == 1


def test_a_day_the_license_does_not_authorize_is_refused(tenant):
    with pytest.raises(ValidationError, match="not a day the license authorizes"):
        services.occasion_for_day(
            organization=tenant.organization, day=dt.date(2026, 12, 3), by=None
        )
    assert not Occasion.objects.exists()


def test_a_day_not_played_keeps_its_report_owed_with_a_reason(tenant, occasion):
    with pytest.raises(ValidationError, match="Say why"):
        services.mark_not_played(occasion=occasion, reason="   ", by=tenant.member_in_charge)
    services.mark_not_played(occasion=occasion, reason="Snow storm", by=tenant.member_in_charge)
    occasion.refresh_from_db()
    assert occasion.status == "not_played" and occasion.not_played_reason == "Snow storm"
    with pytest.raises(ValidationError, match="only a scheduled one"):
        services.mark_not_played(occasion=occasion, reason="again", by=tenant.member_in_charge)


def _not_played(tenant, *days):
    for day in days:
        occasion = services.occasion_for_day(organization=tenant.organization, day=day, by=None)
        services.mark_not_played(occasion=occasion, reason="Hall repairs", by=None)


def test_two_consecutive_occasions_not_played_require_a_notice_before_resuming(tenant):
    _not_played(tenant, FRIDAYS[0], FRIDAYS[1])
    facts = selectors.resumption_facts(tenant.organization, FRIDAYS[2])
    assert facts == ResumptionFacts(True, FRIDAYS[1], None)
    decision = rules.judge("occasion.open", facts, on=FRIDAYS[2])
    assert [v.citation for v in decision.violations] == ["961 CMR 3.05(1)(b)"]
    services.record_resumption_notice(
        organization=tenant.organization,
        sent_on=dt.date(2026, 11, 30),
        reference="Letter 12",
        by=tenant.head,
    )
    facts = selectors.resumption_facts(tenant.organization, FRIDAYS[2])
    assert rules.judge("occasion.open", facts, on=FRIDAYS[2]).allowed


def test_one_occasion_not_played_needs_no_notice(tenant):
    _not_played(tenant, FRIDAYS[1])
    facts = selectors.resumption_facts(tenant.organization, FRIDAYS[2])
    assert not facts.previous_two_not_played
    assert rules.judge("occasion.open", facts, on=FRIDAYS[2]).allowed


def test_a_notice_sent_before_the_second_missed_occasion_does_not_count(db):
    facts = ResumptionFacts(True, FRIDAYS[1], dt.date(2026, 11, 21))
    assert not rules.judge("occasion.open", facts, on=FRIDAYS[2]).allowed


def test_the_calendar_page_prepares_an_occasion_and_warns_of_the_notice(client, tenant):
    _not_played(tenant, dt.date(2026, 11, 20), dt.date(2026, 11, 27))
    login(client, tenant.member_in_charge)
    page = client.get(
        reverse("occasion_calendar", args=[tenant.organization.pk]), {"month": "2026-12"}
    )
    assert "Friday, December 4" in page.content.decode()
    response = client.post(reverse("occasion_for_day", args=[tenant.organization.pk, "2026-12-04"]))
    occasion = Occasion.objects.get(date=dt.date(2026, 12, 4))
    assert response["Location"] == reverse(
        "occasion_detail", args=[tenant.organization.pk, occasion.pk]
    )


def test_preparing_a_day_that_is_not_authorized_shows_a_message(client, tenant):
    login(client, tenant.member_in_charge)
    for day in ("2026-12-03", "not-a-date"):
        response = client.post(
            reverse("occasion_for_day", args=[tenant.organization.pk, day]), follow=True
        )
        assert response.status_code == 200
        assert b"alert-danger" in response.content
    assert not Occasion.objects.exists()


def test_a_worker_cannot_prepare_or_cancel_an_occasion(client, tenant, occasion):
    login(client, tenant.worker)
    url = reverse("occasion_not_played", args=[tenant.organization.pk, occasion.pk])
    assert client.post(url, {"reason": "x"}).status_code == 403
    assert (
        client.get(
            reverse("occasion_detail", args=[tenant.organization.pk, occasion.pk])
        ).status_code
        == 200
    )

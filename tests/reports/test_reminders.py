"""The reminders of issue 17: each sent once on its day (the clock set by the test), never
twice, to the head and the bookkeeper; the optional ones not e-mailed to who turned them off."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from beano.accounts.models import OptionalReminder, ReminderOptOut
from occasions import services as occasion_services
from organizations.models import License
from reports.obligations import due_on
from reports.reminder_models import ReminderKind, SentReminder
from reports.reminder_services import send_reminders
from tests.builders import LicenseFactory
from tests.conftest import login

NIGHT = dt.date(2026, 12, 4)  # a Friday the tenant's license authorizes


@pytest.fixture
def today(monkeypatch: Any):
    """Set the day the task runs: ``today(dt.date)`` (at 7 AM, the beat's hour)."""

    def set_to(day: dt.date) -> dt.date:
        moment = timezone.make_aware(dt.datetime.combine(day, dt.time(7, 0)))
        monkeypatch.setattr(timezone, "now", lambda: moment)
        return day

    return set_to


@pytest.fixture
def filers(tenant: Any) -> Any:
    """The tenant keeps its reports here from NIGHT; its head and bookkeeper have addresses."""
    org = tenant.organization
    org.reports_from = NIGHT
    org.save(update_fields=["reports_from"])
    for user in (tenant.head, tenant.bookkeeper, tenant.member_in_charge, tenant.worker):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    return tenant


def _sent(kind: str, key: str) -> list[SentReminder]:
    return list(SentReminder.objects.filter(kind=kind, event_key=key).order_by("user_id"))


def test_financial_report_reminded_three_days_before_on_the_day_and_late(filers, today):
    due = due_on(NIGHT)
    key = NIGHT.isoformat()
    today(due - dt.timedelta(days=4))
    send_reminders()
    assert SentReminder.objects.count() == 0 and mail.outbox == []

    today(due - dt.timedelta(days=3))
    assert send_reminders() == 2
    rows = _sent(ReminderKind.REPORT_DUE_SOON, key)
    assert {r.user for r in rows} == {filers.head, filers.bookkeeper}
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [filers.head.email, filers.bookkeeper.email]
    )
    message = mail.outbox[0]
    assert "due" in message.subject and "December 4, 2026" in message.subject
    assert "961 CMR 3.05(1)(a)" in message.body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and "<strong>Friday, December 4, 2026</strong>" in html
    assert reverse("reports_home", args=[filers.organization.pk]) in message.body

    # Run again the same day, and the next: never twice.
    assert send_reminders() == 0
    today(due - dt.timedelta(days=2))
    assert send_reminders() == 0
    assert len(mail.outbox) == 2

    today(due)
    assert send_reminders() == 2
    assert len(_sent(ReminderKind.REPORT_DUE_TODAY, key)) == 2
    assert "due today" in mail.outbox[-1].subject
    assert send_reminders() == 0

    today(due + dt.timedelta(days=1))
    assert send_reminders() == 2
    assert len(_sent(ReminderKind.REPORT_LATE, key)) == 2
    assert "late" in mail.outbox[-1].subject
    today(due + dt.timedelta(days=2))
    assert send_reminders() == 0
    assert len(mail.outbox) == 6
    # The member in charge and the worker file nothing and are sent nothing.
    assert not {filers.member_in_charge.email, filers.worker.email} & {m.to[0] for m in mail.outbox}


def test_a_night_closed_links_its_close_out(filers, today, occasion):
    from occasions.models import Occasion

    Occasion.objects.filter(pk=occasion.pk).update(status=Occasion.Status.CLOSED)
    due = due_on(NIGHT)
    today(due)
    send_reminders()
    link = reverse("report_closeout", args=[filers.organization.pk, occasion.pk])
    assert {r.link for r in _sent(ReminderKind.REPORT_DUE_TODAY, NIGHT.isoformat())} == {link}
    assert link in mail.outbox[0].body


def test_opt_out_of_an_optional_reminder_is_honoured(filers, today, client):
    login(client, filers.bookkeeper)
    response = client.post(
        reverse("account_reminders"),
        {"wanted": [OptionalReminder.ANNUAL_REPORT, OptionalReminder.LICENSE_RENEWAL]},
    )
    assert response.status_code == 302
    assert set(ReminderOptOut.objects.values_list("user", "kind")) == {
        (filers.bookkeeper.pk, OptionalReminder.REPORT_DUE_SOON)
    }
    due = due_on(NIGHT)
    today(due - dt.timedelta(days=3))
    send_reminders()
    assert [m.to for m in mail.outbox] == [[filers.head.email]]
    # Still listed on the bookkeeper's dashboard, not e-mailed.
    row = SentReminder.objects.get(user=filers.bookkeeper)
    assert row.kind == ReminderKind.REPORT_DUE_SOON and row.emailed is False
    page = client.get(reverse("dashboard")).content.decode()
    assert "Financial report due in 3 days" in page
    # A report due today is not optional: e-mailed whatever the choices.
    today(due)
    send_reminders()
    assert sorted(m.to[0] for m in mail.outbox[1:]) == sorted(
        [filers.head.email, filers.bookkeeper.email]
    )


def test_the_account_page_refuses_an_unknown_choice_and_saves_nothing(filers, client):
    login(client, filers.head)
    page = client.get(reverse("account")).content.decode()
    assert 'id="reminders"' in page and "The license renewal, in September" in page
    response = client.post(reverse("account_reminders"), {"wanted": ["report_late"]})
    assert response.status_code == 400
    assert ReminderOptOut.objects.count() == 0
    assert client.post(reverse("account_reminders"), {}).status_code == 302
    assert ReminderOptOut.objects.filter(user=filers.head).count() == len(OptionalReminder)
    client.post(reverse("account_reminders"), {"wanted": [OptionalReminder.ANNUAL_REPORT]})
    assert ReminderOptOut.objects.filter(user=filers.head).count() == len(OptionalReminder) - 1


def test_annual_report_reminded_in_january_once(filers, today):
    today(dt.date(2026, 12, 31))
    send_reminders()
    assert not _sent(ReminderKind.ANNUAL_REPORT, "2026")
    today(dt.date(2027, 1, 2))
    send_reminders()
    rows = _sent(ReminderKind.ANNUAL_REPORT, "2026")
    assert len(rows) == 2
    annual = [m for m in mail.outbox if "annual report of 2026" in m.subject]
    assert len(annual) == 2 and "January 31, 2027" in annual[0].body
    today(dt.date(2027, 1, 3))
    send_reminders()
    assert len(_sent(ReminderKind.ANNUAL_REPORT, "2026")) == 2


def test_resumption_notice_after_two_nights_not_played(filers, today):
    org = filers.organization
    first = occasion_services.occasion_for_day(
        organization=org, day=NIGHT, by=filers.member_in_charge
    )
    occasion_services.mark_not_played(occasion=first, reason="Snow", by=filers.member_in_charge)
    today(NIGHT + dt.timedelta(days=1))
    send_reminders()
    assert not _sent(ReminderKind.RESUMPTION_NOTICE, NIGHT.isoformat())

    second_night = NIGHT + dt.timedelta(days=7)
    second = occasion_services.occasion_for_day(
        organization=org, day=second_night, by=filers.member_in_charge
    )
    occasion_services.mark_not_played(occasion=second, reason="Snow", by=filers.member_in_charge)
    today(second_night)
    send_reminders()
    rows = _sent(ReminderKind.RESUMPTION_NOTICE, second_night.isoformat())
    assert len(rows) == 2
    [message] = [m for m in mail.outbox if m.to == [filers.head.email] and "resumes" in m.subject]
    assert "961 CMR 3.05(1)(b)" in message.body
    today(second_night + dt.timedelta(days=1))
    send_reminders()
    assert len(_sent(ReminderKind.RESUMPTION_NOTICE, second_night.isoformat())) == 2


def test_no_resumption_reminder_once_the_notice_is_recorded(filers, today):
    org = filers.organization
    for night in (NIGHT, NIGHT + dt.timedelta(days=7)):
        o = occasion_services.occasion_for_day(organization=org, day=night, by=filers.head)
        occasion_services.mark_not_played(occasion=o, reason="Repairs", by=filers.head)
    occasion_services.record_resumption_notice(
        organization=org, sent_on=NIGHT + dt.timedelta(days=8), reference="Letter 1", by=filers.head
    )
    today(NIGHT + dt.timedelta(days=9))
    send_reminders()
    assert not SentReminder.objects.filter(kind=ReminderKind.RESUMPTION_NOTICE).exists()


def test_license_renewal_in_september_once_and_not_when_renewed(filers, today):
    lic = License.objects.get(organization=filers.organization)
    lic.valid_to = dt.date(2026, 12, 31)
    lic.save(update_fields=["valid_to"])
    today(dt.date(2026, 8, 31))
    send_reminders()
    assert not _sent(ReminderKind.LICENSE_RENEWAL, lic.number)
    today(dt.date(2026, 9, 1))
    send_reminders()
    assert len(_sent(ReminderKind.LICENSE_RENEWAL, lic.number)) == 2
    today(dt.date(2026, 9, 2))
    send_reminders()
    assert len(_sent(ReminderKind.LICENSE_RENEWAL, lic.number)) == 2

    other = LicenseFactory(
        organization=filers.organization,
        number="BN-RENEWED",
        valid_from=dt.date(2027, 1, 1),
        valid_to=dt.date(2027, 12, 31),
    )
    SentReminder.objects.all().delete()
    send_reminders()
    assert not _sent(ReminderKind.LICENSE_RENEWAL, lic.number)
    assert not _sent(ReminderKind.LICENSE_RENEWAL, other.number)


def test_a_mail_server_down_leaves_the_reminder_to_the_next_run(filers, today, monkeypatch):
    from django.core.mail import EmailMultiAlternatives

    def down(self: Any, fail_silently: bool = False) -> int:
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr(EmailMultiAlternatives, "send", down)
    today(due_on(NIGHT))
    assert send_reminders() == 0
    assert SentReminder.objects.count() == 0
    monkeypatch.undo()
    today(due_on(NIGHT))
    assert send_reminders() == 2


def test_the_beat_sends_the_reminders_each_morning(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["reminders"]
    assert entry["task"] == "reports.send_reminders"
    from reports.tasks import send_reminders as task

    assert task.name == "reports.send_reminders"


def test_a_night_not_closed_links_its_occasion(filers, today, occasion):
    today(due_on(NIGHT))
    send_reminders()
    link = reverse("occasion_detail", args=[filers.organization.pk, occasion.pk])
    assert {r.link for r in _sent(ReminderKind.REPORT_DUE_TODAY, NIGHT.isoformat())} == {link}


def test_the_reminder_choices_are_on_the_account_page_of_those_reminded_only(filers, client):
    login(client, filers.bookkeeper)
    assert "Reminders by e-mail" in client.get(reverse("account")).content.decode()
    login(client, filers.member_in_charge)  # not a head or a bookkeeper: never reminded
    assert "Reminders by e-mail" not in client.get(reverse("account")).content.decode()

"""The reminders sent to an organization's head and bookkeeper: one row per person and event,
so an event is reminded once whatever the number of runs of the beat task."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from beano.accounts.models import OptionalReminder
from organizations.models import Organization


class ReminderKind(models.TextChoices):
    REPORT_DUE_SOON = OptionalReminder.REPORT_DUE_SOON.value, "Financial report due in 3 days"
    REPORT_DUE_TODAY = "report_due_today", "Financial report due today"
    REPORT_LATE = "report_late", "Financial report late"
    ANNUAL_REPORT = OptionalReminder.ANNUAL_REPORT.value, "Annual report due January 31"
    RESUMPTION_NOTICE = "resumption_notice", "Notice before play resumes"
    LICENSE_RENEWAL = OptionalReminder.LICENSE_RENEWAL.value, "License renewal"


class SentReminder(models.Model):
    """One reminder of one event (``event_key``: the authorized day of a report, the year of an
    annual report, the last night not played, the license) to one person. Listed on their
    organization's dashboard; ``emailed`` is off when the person turned that optional reminder
    off or has no address."""

    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="sent_reminders"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sent_reminders"
    )
    kind = models.CharField(max_length=30, choices=ReminderKind.choices)
    event_key = models.CharField(max_length=60)
    subject = models.CharField(max_length=200)
    link = models.CharField(max_length=300, help_text="The page to act on, as a path.")
    sent_at = models.DateTimeField()
    emailed = models.BooleanField(default=True)

    class Meta:
        ordering = ["-sent_at", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "event_key"], name="reminder_once_per_event"
            ),
        ]
        indexes = [models.Index(fields=["organization", "-sent_at"], name="reminder_org_sent")]

    def __str__(self) -> str:
        return f"{self.subject} — to {self.user} on {self.sent_at:%Y-%m-%d}"

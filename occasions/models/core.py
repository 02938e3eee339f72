"""An occasion: one authorized day of a license, and its lifecycle."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q

from organizations.models import License, Organization


class Occasion(models.Model):
    """One authorized day. A financial report is owed for every authorized day, played or not
    (961 CMR 3.05(1)(a)), so a day that is not played is recorded as such, never left out."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"
        NOT_PLAYED = "not_played", "Not played"

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="occasions"
    )
    license = models.ForeignKey(License, on_delete=models.PROTECT, related_name="occasions")
    date = models.DateField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    opened_at = models.DateTimeField(null=True, blank=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    not_played_reason = models.CharField(max_length=300, blank=True)
    play_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the first game began; prices and options are fixed."
    )
    second_half_started_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="961 CMR 3.04(5)(c): attendance is announced before the second half starts.",
    )
    close_reason = models.CharField(
        max_length=300,
        blank=True,
        help_text="A night closed after the fact (a forgotten close): why, as the one who "
        "recorded the close said.",
    )
    close_recorded_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a close after the fact was recorded (``closed_at`` is when the night "
        "ended).",
    )
    sealed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When its financial report was filed: nothing of the occasion changes after; "
        "a correction is an amendment of the report.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date"]
        # The Commission's lists of every organization's nights, newest first: a year's 7,800
        # occasions were joined and sorted whole for each page of 25 (19 ms; 3 with it).
        indexes = [models.Index(fields=["date"], name="occasion_date")]
        constraints = [
            models.UniqueConstraint(fields=["organization", "date"], name="occasion_one_per_day"),
            models.CheckConstraint(
                condition=~Q(status="not_played") | ~Q(not_played_reason=""),
                name="occasion_not_played_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.organization} — {self.date:%a %b %-d, %Y}"

    def records_on(self, day: dt.date) -> bool:
        """Whether the floor of this occasion is recorded on ``day``: its own day, or the morning
        after for a night that runs past midnight."""
        return day in (self.date, self.date + dt.timedelta(days=1))

    @property
    def passed_unopened(self) -> bool:
        """Its day has passed and it was never opened nor reported not played: nothing of the
        night is recorded live, and what there is comes from its paper sheets."""
        from django.utils import timezone

        return self.status == self.Status.SCHEDULED and self.date < timezone.localdate()

    @property
    def is_sealed(self) -> bool:
        return self.sealed_at is not None

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class ResumptionNotice(models.Model):
    """The written notice to the Commission before play resumes after two consecutive
    occasions not played (961 CMR 3.05(1)(b))."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="resumption_notices"
    )
    sent_on = models.DateField()
    reference = models.CharField(max_length=100, help_text="Letter or e-mail reference.")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-sent_on"]

    def __str__(self) -> str:
        return f"Notice of resumption sent {self.sent_on} ({self.reference})"

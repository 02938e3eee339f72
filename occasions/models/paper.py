"""A night, or a part of one, entered after the fact from its paper control sheets: the hall
kept a paper door, the Wi-Fi dropped, a laptop died, or the whole night was played on paper.
Each act entered is judged by the same rules as of the moment written on the sheet; this record
says which part of the night came from paper, from which sheets, who entered it and when, so
that every page and report that shows the night can say so."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from occasions.models.core import Occasion


class PaperRecord(models.Model):
    class Scope(models.TextChoices):
        WHOLE = "whole", "The whole night"
        PART = "part", "Part of the night"

    class Source(models.TextChoices):
        PAGES = "pages", "Entered on the control-sheet pages"
        FILE = "file", "Imported from a night file"

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="paper_records")
    scope = models.CharField(max_length=10, choices=Scope.choices)
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="For part of a night: the first moment entered."
    )
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text="For part of a night: the last moment entered."
    )
    sheets = models.CharField(
        max_length=300, help_text="The control sheets entered, as they are filed for inspection."
    )
    reason = models.CharField(
        max_length=300, help_text="Why this was not recorded live (paper door, outage, …)."
    )
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.PAGES)
    file_name = models.CharField(max_length=200, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["occasion", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(scope="whole", starts_at__isnull=True, ends_at__isnull=True)
                | Q(
                    scope="part",
                    starts_at__isnull=False,
                    ends_at__isnull=False,
                    ends_at__gte=F("starts_at"),
                ),
                name="paper_record_period",
            ),
            models.CheckConstraint(condition=~Q(sheets=""), name="paper_record_names_sheets"),
            models.CheckConstraint(condition=~Q(reason=""), name="paper_record_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.period_label} from paper — {self.occasion}"

    def holds(self, moment: dt.datetime | None) -> bool:
        """Whether ``moment`` is in the part of the night this record entered from paper: any
        moment for the whole night; for a part, its first to its last moment (None: unknown,
        so not shown to be in it)."""
        if self.scope == self.Scope.WHOLE:
            return True
        return moment is not None and self.starts_at <= moment <= self.ends_at

    @property
    def period_label(self) -> str:
        if self.scope == self.Scope.WHOLE:
            return "The whole night"
        from django.utils import timezone

        start = timezone.localtime(self.starts_at)
        end = timezone.localtime(self.ends_at)
        return f"From {start:%-I:%M %p} to {end:%-I:%M %p}"

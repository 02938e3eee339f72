"""The log of what the Commission's staff looked at: every page an inspector (or a Commission
admin) opens is itself recorded, so that the review can be reviewed too (who viewed which record,
and when). Organizations see the views of their own records on their "Inspections" page."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from organizations.models.core import Organization


class RecordView(models.Model):
    """One page opened by a Commission user. Written by ``organizations.middleware`` after the
    page is answered: one insert, and a failure to write it never breaks the page."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    username = models.CharField(max_length=150, help_text="Kept if the user goes.")
    organization = models.ForeignKey(
        Organization,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="record_views",
        help_text="The organization whose page it was; empty for Commission-wide pages.",
    )
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=500, help_text="With the query: what was searched too.")
    view_name = models.CharField(max_length=100, blank=True)
    object_type = models.CharField(
        max_length=100, blank=True, help_text="The record opened, where the page names one."
    )
    object_id = models.CharField(max_length=40, blank=True)
    status_code = models.PositiveSmallIntegerField()
    viewed_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-viewed_at", "-pk"]
        indexes = [models.Index(fields=["organization", "-viewed_at"])]

    def __str__(self) -> str:
        return f"{self.username} viewed {self.path} at {self.viewed_at:%Y-%m-%d %H:%M}"

"""The keys of the floor's submissions: a door sale, a ball call or a claim sent from a hall
laptop carries a key its browser made for that one submission. The hall's Wi-Fi drops answers as
well as requests, so a seller presses "Send again" without knowing whether the first one landed;
the key, kept here in the same transaction as what it recorded, makes the second one answer with
the first one's record instead of recording the act twice."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from occasions.models.core import Occasion


class FloorSubmission(models.Model):
    class Action(models.TextChoices):
        SALE = "sale", "a door sale"
        BALL_CALL = "ball_call", "a ball call"
        CLAIM = "claim", "a claim"

    occasion = models.ForeignKey(
        Occasion, on_delete=models.PROTECT, related_name="floor_submissions"
    )
    key = models.UUIDField(help_text="Made by the browser, once for each submission.")
    action = models.CharField(max_length=20, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    target_type = models.CharField(
        max_length=100, help_text="What the submission recorded: its model, e.g. occasions.sale."
    )
    target_id = models.PositiveBigIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["occasion", "created_at", "pk"]
        constraints = [
            # The database, not a web process's memory, says a key was used: two processes
            # answering the same retried submission record it once.
            models.UniqueConstraint(fields=["occasion", "key"], name="floor_submission_key_once"),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} sent as {self.key}"

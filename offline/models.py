"""An act done at the hall laptop while it was offline, as the server received it from the
laptop's queue: the moment claimed and the moment received, the device and its order, who sent
it, and what was answered (recorded, with what it recorded, or refused, with why). One row per
(occasion, key): the same act sent again is answered from it and records nothing again."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from occasions.models import Occasion


class QueuedAct(models.Model):
    class State(models.TextChoices):
        RECORDED = "recorded", "recorded"
        REFUSED = "refused", "refused"

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="queued_acts")
    device = models.CharField(
        max_length=64, help_text="The laptop's browser, as it names itself (a uuid)."
    )
    seq = models.PositiveBigIntegerField(help_text="The act's place in that device's queue.")
    key = models.UUIDField(help_text="The act's request key, made by the laptop once.")
    action = models.CharField(max_length=40, help_text="The url name of the live form.")
    path = models.CharField(max_length=300)
    fields = models.JSONField(default=list, help_text="The form's pairs (no PIN is kept).")
    done_at = models.DateTimeField(help_text="The moment claimed: the laptop's clock corrected.")
    laptop_at = models.DateTimeField(null=True, blank=True)
    offset_ms = models.BigIntegerField(default=0)
    received_at = models.DateTimeField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    state = models.CharField(max_length=10, choices=State.choices)
    target_type = models.CharField(max_length=100, blank=True)
    target_id = models.PositiveBigIntegerField(null=True, blank=True)
    said = models.TextField(blank=True)
    answer = models.JSONField(default=dict, help_text="What was answered, given again as it was.")
    refusal_message = models.TextField(blank=True)
    refusal_citation = models.CharField(max_length=200, blank=True)
    refusal_code = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["occasion", "device", "seq", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["occasion", "key"], name="queued_act_key_once"),
        ]
        indexes = [models.Index(fields=["occasion", "device", "done_at"])]

    def __str__(self) -> str:
        return f"{self.action} #{self.seq} from {self.device[:8]} ({self.state})"

"""The audit trail: one event per service write, chained per organization by hashes.

Each event stores the hash of the previous event of the same chain, and its own hash over its
content; changing or deleting any stored event breaks the chain from that point on.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from django.conf import settings
from django.db import models
from django.db.models import Q

from organizations.models.core import Organization

GENESIS_HASH = "0" * 64


class AuditChain(models.Model):
    """The head of one chain: an organization's, or the Commission's (organization empty).
    Services lock this row to append, so two writers can never fork the chain."""

    key = models.CharField(max_length=40, unique=True)
    organization = models.OneToOneField(
        Organization, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_chain"
    )
    length = models.PositiveBigIntegerField(default=0)
    head_hash = models.CharField(max_length=64, default=GENESIS_HASH)

    def __str__(self) -> str:
        return f"{self.key} through event {self.length}"


class AuditEvent(models.Model):
    organization = models.ForeignKey(
        Organization, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_events"
    )
    sequence = models.PositiveBigIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_label = models.CharField(max_length=150, help_text="The username, kept if the user goes.")
    action = models.CharField(
        max_length=100, help_text="Dotted name, e.g. organizations.member.added"
    )
    target_type = models.CharField(max_length=100)
    target_id = models.CharField(max_length=40)
    target_repr = models.CharField(max_length=200)
    old_values = models.JSONField(default=dict, blank=True)
    new_values = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()
    provenance = models.JSONField(
        default=dict,
        blank=True,
        help_text="Where the act was recorded from when not live: entered after the fact from "
        "the night's paper control sheets (which sheet, by whom, when), or imported from a file.",
    )
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["organization_id", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "sequence"], name="audit_unique_sequence_per_org"
            ),
            models.UniqueConstraint(
                fields=["sequence"],
                condition=Q(organization__isnull=True),
                name="audit_unique_sequence_commission",
            ),
        ]
        indexes = [models.Index(fields=["target_type", "target_id"])]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.action} {self.target_repr}"

    def compute_hash(self) -> str:
        payload = {
            "organization": self.organization_id,
            "sequence": self.sequence,
            "actor": self.actor_label,
            "action": self.action,
            "target": [self.target_type, self.target_id, self.target_repr],
            "old": self.old_values,
            "new": self.new_values,
            "at": self.created_at.astimezone(dt.UTC).isoformat(timespec="microseconds"),
            "prev": self.prev_hash,
        }
        if self.provenance:  # events written before provenance existed keep their hash
            payload["provenance"] = self.provenance
        blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

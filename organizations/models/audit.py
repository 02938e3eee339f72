"""The audit trail: one event per service write, chained per organization by hashes.

Each event stores the hash of the previous event of the same chain, and its own hash over its
content; changing or deleting any stored event breaks the chain from that point on. The hashes
are HMAC-SHA256 under the installation's audit key (``settings.AUDIT_KEYS``), which is not in
the database: someone holding the database alone cannot recompute them after a change. Each
event names its key (``key_id``) so that the key can be rotated; events written before keys
existed say ``sha256-legacy`` and keep their plain SHA-256. The chain's head row carries a seal
under the key too, so that the head cannot be moved back over deleted events.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json

from django.conf import settings
from django.db import models
from django.db.models import Q

from beano.env import LEGACY_AUDIT_KEY_ID
from organizations.models.core import Organization

GENESIS_HASH = "0" * 64


class UnknownAuditKey(KeyError):
    """A hash was made with an audit key this installation does not hold."""

    def __init__(self, key_id: str) -> None:
        super().__init__(key_id)
        self.key_id = key_id


def audit_hmac(key_id: str, message: bytes) -> str:
    """HMAC-SHA256 of ``message`` under the audit key named ``key_id``; plain SHA-256 for the
    events written before keys (``sha256-legacy``)."""
    if key_id == LEGACY_AUDIT_KEY_ID:
        return hashlib.sha256(message).hexdigest()
    key = settings.AUDIT_KEYS.get(key_id)
    if key is None:
        raise UnknownAuditKey(key_id)
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def seal_message(chain_key: str, length: int, head_hash: str) -> bytes:
    """What a chain's seal is computed over: which chain, how long, and its last event's hash."""
    return f"beano-audit-chain|{chain_key}|{length}|{head_hash}".encode()


class AuditChain(models.Model):
    """The head of one chain: an organization's, or the Commission's (organization empty).
    Services lock this row to append, so two writers can never fork the chain."""

    key = models.CharField(max_length=40, unique=True)
    organization = models.OneToOneField(
        Organization, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_chain"
    )
    length = models.PositiveBigIntegerField(default=0)
    head_hash = models.CharField(max_length=64, default=GENESIS_HASH)
    seal = models.CharField(
        max_length=64,
        blank=True,
        help_text="HMAC of the chain's key, length and head under the audit key: the head "
        "cannot be moved back without it.",
    )
    seal_key_id = models.CharField(max_length=40, blank=True)

    def __str__(self) -> str:
        return f"{self.key} through event {self.length}"

    def compute_seal(self) -> str:
        return audit_hmac(self.seal_key_id, seal_message(self.key, self.length, self.head_hash))

    def reseal(self) -> None:
        """Seal the head as it now stands, under the current audit key."""
        self.seal_key_id = settings.AUDIT_KEY_ID
        self.seal = self.compute_seal()


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
    key_id = models.CharField(
        max_length=40,
        help_text="The audit key the hash is keyed with (its id), or sha256-legacy for an event "
        "written before the audit key existed.",
    )

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

    def payload(self) -> bytes:
        """The event's content in canonical JSON: what its hash is computed over."""
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
        return json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str).encode()

    def compute_hash(self) -> str:
        """The hash under the key the event names (UnknownAuditKey if this installation does not
        hold it)."""
        return audit_hmac(self.key_id, self.payload())


class ChainVerification(models.Model):
    """The last whole check of one chain by the periodic task (``verify_audit_chains``): every
    keyed hash recomputed from the first event. ``through_sequence`` and ``through_hash``
    are the checkpoint: the last event found intact, from which the audit trail page checks
    only the events after it. A failed check leaves the checkpoint where it was and says what
    it found in ``problem``."""

    chain = models.OneToOneField(AuditChain, on_delete=models.CASCADE, related_name="verification")
    through_sequence = models.PositiveBigIntegerField(default=0)
    through_hash = models.CharField(max_length=64, default=GENESIS_HASH)
    verified_at = models.DateTimeField(
        null=True, blank=True, help_text="When the whole chain was last found intact."
    )
    checked_at = models.DateTimeField(help_text="When the whole chain was last checked.")
    problem = models.CharField(
        max_length=500, blank=True, help_text="What the last whole check found, if anything."
    )
    seal = models.CharField(
        max_length=64,
        blank=True,
        help_text="HMAC of the checkpoint under the audit key: it cannot be moved on past a "
        "changed event without the key.",
    )
    seal_key_id = models.CharField(max_length=40, blank=True)

    def __str__(self) -> str:
        return f"{self.chain.key} verified through event {self.through_sequence}"

    def seal_message(self) -> bytes:
        verified = self.verified_at.isoformat() if self.verified_at else ""
        return (
            f"beano-audit-verified|{self.chain.key}|{self.through_sequence}|"
            f"{self.through_hash}|{verified}"
        ).encode()

    def reseal(self) -> None:
        self.seal_key_id = settings.AUDIT_KEY_ID
        self.seal = audit_hmac(self.seal_key_id, self.seal_message())

    @property
    def sealed(self) -> bool:
        """The checkpoint is the one the installation recorded (its seal checks)."""
        if not self.seal:
            return False
        try:
            return hmac.compare_digest(audit_hmac(self.seal_key_id, self.seal_message()), self.seal)
        except UnknownAuditKey:
            return False

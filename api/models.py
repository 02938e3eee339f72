"""A token of the API: a device's or a system's key, made by a head of the organization (or a
Commission admin for the Commission's), shown once and kept only as its SHA-256 hash."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from organizations.models import Organization


class ApiToken(models.Model):
    class Scope(models.TextChoices):
        READ = "read", "Read: the organization's licenses, occasions, figures and nights"
        FLOOR = "floor", "Floor: door sales and ball calls at the organization's open nights"
        NIGHT_FILES = "night_files", "Night files: the organization's nights exported and imported"
        COMMISSION_READ = "commission_read", "Commission read: every organization, read only"

    public_id = models.CharField(
        max_length=16, unique=True, help_text="The token's first part, shown in lists and logs."
    )
    secret_hash = models.CharField(max_length=64, help_text="SHA-256 of the whole token.")
    name = models.CharField(max_length=80, help_text="What it is for: “Door point of sale”.")
    scope = models.CharField(max_length=20, choices=Scope.choices)
    organization = models.ForeignKey(
        Organization,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="api_tokens",
        help_text="Empty for a Commission token.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="api_tokens_created"
    )
    acts_as = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="api_tokens_acting",
        help_text=(
            "A floor token's worker (the door's seller, the caller) or a night-file token's "
            "bookkeeper: the login of the organization whose acts it records, who agreed with "
            "their own PIN or password when it was made. The rules judge them as the one who "
            "acts, as at the hall laptop."
        ),
    )
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    rate_per_minute = models.PositiveIntegerField(
        help_text="Requests a minute this token may make before it is told to wait (429)."
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="api_tokens_revoked",
    )

    class Meta:
        ordering = ("-created_at",)
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(scope="commission_read", organization__isnull=True)
                    | (~models.Q(scope="commission_read") & models.Q(organization__isnull=False))
                ),
                name="api_token_scope_matches_organization",
            ),
            models.CheckConstraint(
                condition=models.Q(scope__in=("floor", "night_files"), acts_as__isnull=False)
                | (~models.Q(scope__in=("floor", "night_files")) & models.Q(acts_as__isnull=True)),
                name="api_token_floor_acts_as_a_worker",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.public_id})"

    @property
    def actor(self) -> Any:
        """Whose acts the token's are: a floor or night-file token's person, else its maker
        (whose token only reads)."""
        return self.acts_as if self.acts_as_id else self.created_by

    @property
    def active(self) -> bool:
        return self.revoked_at is None

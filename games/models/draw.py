"""The public flashboard of an occasion: the balls called, shown large on the hall's screen
(961 CMR 3.04(3)(b): the drawing is visible to the players; (6)(a): the numbers are displayed)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from occasions.models import Occasion


def new_flashboard_token() -> str:
    """An unguessable token: the link is the only key to the public board."""
    return secrets.token_urlsafe(24)


class Flashboard(models.Model):
    """The per-occasion public link to its flashboard. A new link replaces the token (the old one
    stops answering at once); a revoked link answers nothing until a new one is made."""

    occasion = models.OneToOneField(Occasion, on_delete=models.PROTECT, related_name="flashboard")
    token = models.CharField(max_length=64, unique=True, default=new_flashboard_token)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Flashboard of {self.occasion}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

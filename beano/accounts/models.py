"""What sign-in security keeps per user: the personal PIN a second person types to confirm a
two-person act on the hall laptop (a void's witness, a payout's verifier, the cash count's
verifier), hashed like a password and throttled."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PersonalPin(models.Model):
    """A user's personal PIN: set on their account page, never stored in clear, and locked for
    a while after too many wrong tries (so a PIN cannot be guessed at the laptop)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="personal_pin"
    )
    pin_hash = models.CharField(max_length=256)
    set_at = models.DateTimeField()
    failed_attempts = models.PositiveSmallIntegerField(default=0)
    locked_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Personal PIN of {self.user}"

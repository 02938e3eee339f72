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


class PasswordFailures(models.Model):
    """The wrong passwords given for one account, from wherever they came (``ceiling.py``).

    Keyed by the username as typed, folded to one case, whether or not such a user exists: the
    answer to a guesser must not tell which usernames are real. django-axes keeps its own count
    per username *and address*; this one is the account's across addresses."""

    username_key = models.CharField(max_length=150, unique=True)
    failures = models.PositiveIntegerField(
        default=0, help_text="Wrong passwords in a row since the last right one or lock."
    )
    last_failure_at = models.DateTimeField(null=True, blank=True)
    next_try_at = models.DateTimeField(
        null=True, blank=True, help_text="No password is checked before this (the wait)."
    )
    locked_until = models.DateTimeField(
        null=True, blank=True, help_text="No password is checked before this (the lock)."
    )

    class Meta:
        verbose_name = "failed passwords of an account"
        verbose_name_plural = "failed passwords of accounts"

    def __str__(self) -> str:
        return self.username_key


class OptionalReminder(models.TextChoices):
    """The reminders a user may turn off on their account page. A report due today or late
    and the notice owed before play resumes are always sent: they are not optional."""

    REPORT_DUE_SOON = "report_due_soon", "A financial report due in three days"
    ANNUAL_REPORT = "annual_report", "The annual report, in January"
    LICENSE_RENEWAL = "license_renewal", "The license renewal, in September"


class ReminderOptOut(models.Model):
    """One optional reminder a user asked not to be sent (by e-mail; still listed on their
    organization's dashboard)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reminder_opt_outs"
    )
    kind = models.CharField(max_length=30, choices=OptionalReminder.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="reminder_opt_out_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — no e-mail for {self.get_kind_display().lower()}"


class PasswordResetRequest(models.Model):
    """One request for a password reset e-mail, kept an hour or so to throttle them across every
    web process (``beano/accounts/reset.py``): per address asked for, and per client."""

    class Kind(models.TextChoices):
        EMAIL = "email", "E-mail address"
        CLIENT = "client", "Client address"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    key = models.CharField(max_length=254, help_text="The address, folded to one case.")
    at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["kind", "key", "at"], name="reset_request_lookup")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.key} at {self.at:%Y-%m-%d %H:%M}"

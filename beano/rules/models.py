"""The rules service's own tables: the dated legal figures and the log of refused actions.

The log stores the organization and user as plain values, not foreign keys: ``beano.rules``
imports no app's models, and a refusal must outlive anything it names."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from beano.rules.limits import LimitName
from beano.rules.money import usd


class LawLimit(models.Model):
    """A legal figure from a date on. A blank value means no figure is known (no limit applied)."""

    class Status(models.TextChoices):
        VERIFIED = "verified", "Verified against the legal text"
        SECONDARY = "secondary", "Secondary source"
        UNKNOWN = "unknown", "Not found"

    name = models.CharField(max_length=40, choices=LimitName.choices)
    value = models.DecimalField(
        max_digits=12, decimal_places=4, null=True, blank=True, help_text="Blank: none known."
    )
    unit = models.CharField(max_length=20, blank=True, help_text="USD, rate, days, years, …")
    effective_from = models.DateField()
    source = models.CharField(max_length=300)
    status = models.CharField(max_length=20, choices=Status.choices)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["name", "-effective_from"]
        constraints = [
            models.UniqueConstraint(fields=["name", "effective_from"], name="lawlimit_unique_date"),
            models.CheckConstraint(
                condition=models.Q(value__isnull=True) | models.Q(value__gte=0),
                name="lawlimit_value_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_name_display()}: {self.display_value} from {self.effective_from}"

    @property
    def display_value(self) -> str:
        """The figure as a person reads it: $1,200.00, 5 %, 10 days; or "no figure on record"."""
        if self.value is None:
            return "no figure on record"
        if self.unit.startswith("USD"):
            rest = self.unit[3:]
            amount = usd(self.value, bare_dollars=True)
            return f"{amount}{rest}"
        if self.unit.startswith("rate"):
            percent = (self.value * 100).normalize()
            return f"{percent:f} %{self.unit[4:]}"
        return f"{self.value.normalize():f} {self.unit}".strip()


class RefusedAction(models.Model):
    """An action the rules refused: who tried what, with which facts, and which rules refused it.
    Written after the refused write rolled back, so it survives it."""

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    username = models.CharField(max_length=150)
    organization_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    organization_name = models.CharField(max_length=200, blank=True)
    action = models.CharField(max_length=100, db_index=True)
    on_date = models.DateField(help_text="The date the action was judged for.")
    facts = models.JSONField()
    violations = models.JSONField(help_text="[{code, citation, message}, …]")
    citations = models.CharField(max_length=500, help_text="Comma list, for filtering.")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.action} refused ({self.citations})"

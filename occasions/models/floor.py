"""The floor of an occasion: the opening checklist the member in charge confirms, the workers
present and who is in charge (961 CMR 3.04(1), (3), (4), (9))."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from beano.rules.opening import CHECKLIST, ITEM_CHOICES, ChecklistItem
from beano.rules.workers import WorkerRole
from occasions.models.core import Occasion


class OpeningCheckQuerySet(models.QuerySet):
    def outstanding(self) -> list[ChecklistItem]:
        """The checklist items not confirmed among these checks (one occasion's)."""
        confirmed = set(self.values_list("item", flat=True))
        return [item for item in CHECKLIST if item.code not in confirmed]


class OpeningCheck(models.Model):
    """One item of the opening checklist, confirmed by the member in charge before the occasion
    opens. The items and their citations are the rules' data (``beano.rules.opening``)."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="opening_checks")
    item = models.CharField(max_length=30, choices=ITEM_CHOICES)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField()
    attested_by = models.ForeignKey(
        "occasions.WorkerPresence",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Entered from paper: the member in charge of the night whose signature on the "
        "opening checklist attests it (attested on paper), as 3.04(1)(a) puts them in charge.",
    )

    objects = OpeningCheckQuerySet.as_manager()

    class Meta:
        ordering = ["occasion", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["occasion", "item"], name="opening_check_once"),
        ]

    def __str__(self) -> str:
        return f"{self.get_item_display()} — {self.occasion}"


class WorkerPresenceQuerySet(models.QuerySet):
    def present(self) -> WorkerPresenceQuerySet:
        """Signed in and not yet signed out."""
        return self.filter(signed_out_at__isnull=True)


class WorkerPresence(models.Model):
    """A person of the worker list signed in at an occasion, in one of the roles the list gives
    them, showing the identification the Director specifies (961 CMR 3.04(1)(b)-(d)). A person
    who leaves and comes back has a second presence; only one is open at a time."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="presences")
    entry = models.ForeignKey(
        "organizations.WorkerListEntry", on_delete=models.PROTECT, related_name="presences"
    )
    role = models.CharField(
        max_length=30,
        choices=WorkerRole.choices,
        help_text="The role for the night: one of the roles the worker list gives the person.",
    )
    identification = models.CharField(
        max_length=60, help_text="961 CMR 3.04(1)(d): the identification displayed at sign-in."
    )
    signed_in_at = models.DateTimeField()
    signed_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    signed_out_at = models.DateTimeField(null=True, blank=True)
    signed_out_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = WorkerPresenceQuerySet.as_manager()

    class Meta:
        ordering = ["occasion", "signed_in_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["occasion", "entry"],
                condition=Q(signed_out_at__isnull=True),
                name="presence_one_open_per_person",
            ),
            models.CheckConstraint(
                condition=Q(signed_out_at__isnull=True) | Q(signed_out_at__gte=F("signed_in_at")),
                name="presence_out_after_in",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry.person} as {self.get_role_display().lower()} — {self.occasion}"

    @property
    def is_present(self) -> bool:
        return self.signed_out_at is None


class Handover(models.Model):
    """Charge of the occasion passing from the worker in charge to a qualified designee who is
    present: the member in charge or a qualified designee is present continually
    (961 CMR 3.04(1)(a))."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="handovers")
    from_presence = models.ForeignKey(
        WorkerPresence, on_delete=models.PROTECT, related_name="handed_over"
    )
    to_presence = models.ForeignKey(
        WorkerPresence, on_delete=models.PROTECT, related_name="took_over"
    )
    at = models.DateTimeField()
    reason = models.CharField(max_length=200)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["occasion", "at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(from_presence=F("to_presence")), name="handover_to_someone_else"
            ),
        ]

    def __str__(self) -> str:
        return f"Handover at {self.at:%H:%M} — {self.occasion}"

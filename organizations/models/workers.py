"""The list of Beano workers an organization keeps at the premises for each calendar year
(961 CMR 3.04(1)(b)), and the convictions that decide who may call (3.04(1)(i))."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from beano.rules.workers import WorkerRole
from organizations.models.authorizations import DirectorAuthorization
from organizations.models.core import Organization, Person


def validate_roles(value: object) -> None:
    """A non-empty list of distinct WorkerRole values."""
    allowed = set(WorkerRole.values)
    if (
        not isinstance(value, list)
        or not value
        or any(not isinstance(r, str) or r not in allowed for r in value)
        or len(set(value)) != len(value)
    ):
        raise ValidationError(
            "Roles are a list of distinct worker roles, at least one: "
            + ", ".join(sorted(allowed))
            + "."
        )


class WorkerList(models.Model):
    """One organization's list of persons authorized to conduct or assist in the conduct of Beano
    for one calendar year (961 CMR 3.04(1)(b)). The year is the calendar year because
    3.04(1)(c) counts a person's organizations "in any calendar year"."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="worker_lists"
    )
    year = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1971), MaxValueValidator(2100)],
        help_text="The calendar year the list is for (961 CMR 3.04(1)(c) counts by it).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organization", "-year"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "year"], name="worker_list_unique_year"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.organization} — worker list {self.year}"


class WorkerListEntry(models.Model):
    """A person on a worker list, with the roles they may take. Only persons on the list may
    conduct or assist in the conduct of Beano in any manner (961 CMR 3.04(1)(b), (c))."""

    worker_list = models.ForeignKey(WorkerList, on_delete=models.PROTECT, related_name="entries")
    person = models.ForeignKey(
        Person,
        on_delete=models.PROTECT,
        related_name="worker_list_entries",
        help_text="One person across the system, so (1)(c)'s count of organizations is true.",
    )
    roles = models.JSONField(
        validators=[validate_roles],
        help_text="Worker roles: member in charge (1)(a), gross receipts (1)(e), caller or "
        "assistant (1)(i), bookkeeper or accountant (1)(g), seller, floor worker.",
    )
    identification = models.CharField(
        max_length=60,
        blank=True,
        help_text="961 CMR 3.04(1)(d): the badge or ID number the worker displays. It may be "
        "blank on the list, but a worker without one is refused at sign-in.",
    )
    compensated = models.BooleanField(
        default=False,
        help_text="961 CMR 3.04(1)(f)-(g): only a bookkeeper or accountant may be paid, and then "
        "in no other capacity.",
    )
    compensation_note = models.CharField(
        max_length=200, blank=True, help_text="What is paid and for which services (1)(g)."
    )
    good_moral_character_attested = models.BooleanField(
        default=False,
        help_text="961 CMR 3.04(1)(i): a caller or assistant to the caller is of good moral "
        "character, as attested by the organization.",
    )
    attested_by = models.CharField(
        max_length=200, blank=True, help_text="Who attested good moral character (1)(i)."
    )
    attested_on = models.DateField(
        null=True, blank=True, help_text="When good moral character was attested (1)(i)."
    )
    authorizations = models.ManyToManyField(
        DirectorAuthorization,
        blank=True,
        related_name="worker_list_entries",
        help_text="The Director's written authorizations that waived a rule for this entry, "
        "e.g. more than four organizations (1)(c) or a supplier's person (2).",
    )
    added_on = models.DateField(help_text="The day the person was put on the list.")
    removed_on = models.DateField(
        null=True,
        blank=True,
        help_text="From this day the person may no longer conduct or assist (1)(b).",
    )

    class Meta:
        ordering = ["worker_list", "person__legal_name"]
        verbose_name_plural = "worker list entries"
        constraints = [
            models.UniqueConstraint(
                fields=["worker_list", "person"], name="worker_list_entry_unique_person"
            ),
            models.CheckConstraint(
                condition=Q(removed_on__isnull=True) | Q(removed_on__gte=models.F("added_on")),
                name="worker_list_entry_valid_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} on {self.worker_list}"

    def clean(self) -> None:
        if self.added_on and self.worker_list_id and self.added_on.year != self.worker_list.year:
            raise ValidationError({"added_on": "The day added must fall in the list's year."})
        if self.removed_on and self.added_on and self.removed_on < self.added_on:
            raise ValidationError({"removed_on": "A person cannot leave before being added."})
        if self.good_moral_character_attested and not self.attested_by.strip():
            raise ValidationError({"attested_by": "Name who attests good moral character."})

    @property
    def is_active(self) -> bool:
        return self.removed_on is None

    @property
    def role_labels(self) -> list[str]:
        return [WorkerRole(r).label for r in self.roles if r in WorkerRole.values]


class Conviction(models.Model):
    """A conviction of a person, as known to an organization. Any conviction other than a traffic
    violation in the past five years bars the person from calling or assisting the caller
    (961 CMR 3.04(1)(i)); it is recorded against the person, so every organization's list sees
    it."""

    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="convictions")
    convicted_on = models.DateField(help_text="The date of conviction; (1)(i) counts five years.")
    traffic_only = models.BooleanField(
        default=False, help_text="A traffic violation does not bar a caller (1)(i)."
    )
    description = models.CharField(max_length=300)
    recorded_by_organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="recorded_convictions"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["person", "-convicted_on"]

    def __str__(self) -> str:
        kind = "traffic violation" if self.traffic_only else "conviction"
        return f"{self.person}: {kind} on {self.convicted_on}"

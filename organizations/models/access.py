"""Who may do what: a user's roles in an organization, and the Commission's own staff."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from organizations.models.core import Organization, Person


class Role(models.TextChoices):
    HEAD = "head", "Head of organization"
    MEMBER_IN_CHARGE = "member_in_charge", "Member in charge"
    BOOKKEEPER = "bookkeeper", "Bookkeeper"
    WORKER = "worker", "Worker"


class OrganizationRole(models.Model):
    """A user's role in one organization. A user may hold several roles, in several
    organizations; the person it stands for is named so a user can be matched to a worker list."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="org_roles"
    )
    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="user_roles"
    )
    role = models.CharField(max_length=30, choices=Role.choices)
    person = models.ForeignKey(Person, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["organization", "role"]
        constraints = [
            models.UniqueConstraint(fields=["user", "organization", "role"], name="role_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} of {self.organization}"


class CommissionStaff(models.Model):
    """A State Lottery Commission user: an inspector (read-only over a scope) or an admin."""

    class Kind(models.TextChoices):
        INSPECTOR = "inspector", "Inspector"
        ADMIN = "admin", "Commission admin"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="commission_staff"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    all_organizations = models.BooleanField(
        default=False, help_text="Commission-wide scope; otherwise only the assigned organizations."
    )
    organizations = models.ManyToManyField(Organization, blank=True, related_name="inspectors")

    class Meta:
        verbose_name = "Commission staff member"
        verbose_name_plural = "Commission staff"

    def __str__(self) -> str:
        return f"{self.user} ({self.get_kind_display()})"

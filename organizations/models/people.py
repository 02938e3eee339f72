"""Invitations: how a login is given to a person. The head of an organization (or, for the head
of a new licensee, a Commission admin) invites an e-mail address with one or more roles; the
invitation's signed link lets its person choose a password, once, for a few days
(``settings.INVITATION_VALID_DAYS``)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models

from organizations.models.core import Organization, Person


class Invitation(models.Model):
    """One invitation sent. The user it names exists from the moment it is sent (with no usable
    password and its roles held), so that roles can be changed and the login deactivated before
    the link is used; the link sets the password and is spent."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="invitations"
    )
    email = models.EmailField()
    roles = models.JSONField(help_text="The roles given, as Role values.")
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="invitations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invitations_sent",
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(
        null=True, blank=True, help_text="When the link was used: it is then spent."
    )
    withdrawn_at = models.DateTimeField(
        null=True, blank=True, help_text="When the login was deactivated before the link was used."
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Invitation of {self.email} to {self.organization}"

    def is_pending(self, now: dt.datetime) -> bool:
        return self.accepted_at is None and self.withdrawn_at is None and now < self.expires_at

    def status(self, now: dt.datetime) -> str:
        if self.accepted_at is not None:
            return "Accepted"
        if self.withdrawn_at is not None:
            return "Withdrawn"
        return "Pending" if now < self.expires_at else "Expired"

"""Which winning arrangements the Director has authorized for an organization (961 CMR
3.04(6)(c)): each row ties one arrangement to one of the organization's written authorizations
of the kind "permissible winning arrangements", so an arrangement is authorized on a date when
one of its authorizations is valid that day."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from beano.rules import AuthorizationKind
from games.models.core import Arrangement
from organizations.models import DirectorAuthorization, Organization


class ArrangementAuthorization(models.Model):
    """One arrangement named in a Director's written authorization (961 CMR 3.04(6)(c))."""

    authorization = models.ForeignKey(
        DirectorAuthorization,
        on_delete=models.PROTECT,
        related_name="arrangements",
        limit_choices_to={"kind": AuthorizationKind.WINNING_ARRANGEMENT},
    )
    arrangement = models.ForeignKey(
        Arrangement, on_delete=models.PROTECT, related_name="authorizations"
    )

    class Meta:
        ordering = ["authorization", "arrangement__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["authorization", "arrangement"], name="arrangement_authorized_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.arrangement} ({self.authorization.reference_number})"

    @property
    def organization(self) -> Organization:
        """The organization the authorization was granted to (for the audit trail)."""
        return self.authorization.organization

    def clean(self) -> None:
        if (
            self.authorization_id is not None
            and self.authorization.kind != AuthorizationKind.WINNING_ARRANGEMENT
        ):
            raise ValidationError(
                {"authorization": "Only an authorization of permissible winning arrangements."}
            )

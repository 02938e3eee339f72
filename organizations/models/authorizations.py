"""The Director's written authorizations (961 CMR 3.04: "except as authorized by the Director in
writing"), recorded by Commission admins with the scanned document."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.core.validators import FileExtensionValidator
from django.db import models
from django.db.models import Q

from beano.rules.authorizations import PERSON_KINDS, AuthorizationFact, AuthorizationKind
from organizations.models.core import Organization, Person


class DirectorAuthorization(models.Model):
    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="authorizations"
    )
    kind = models.CharField(max_length=30, choices=AuthorizationKind.choices)
    person = models.ForeignKey(
        Person,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="authorizations",
        help_text="Required for authorizations granted to one person.",
    )
    reference_number = models.CharField(max_length=60, unique=True)
    subject = models.CharField(
        max_length=300, help_text="What it authorizes, e.g. the lessor and fee, or the pattern."
    )
    valid_from = models.DateField()
    valid_to = models.DateField(null=True, blank=True, help_text="Blank: until revoked.")
    revoked_on = models.DateField(null=True, blank=True)
    document = models.FileField(
        upload_to="authorizations/%Y/",
        blank=True,
        validators=[FileExtensionValidator(["pdf", "png", "jpg", "jpeg", "tif", "tiff"])],
        help_text="The scanned letter of the Director.",
    )
    granted_by = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organization", "-valid_from"]
        constraints = [
            models.CheckConstraint(
                condition=Q(valid_to__isnull=True) | Q(valid_to__gte=models.F("valid_from")),
                name="authorization_valid_range",
            ),
        ]

    def __str__(self) -> str:
        who = f" for {self.person}" if self.person_id else ""
        return f"{self.reference_number}: {self.get_kind_display()}{who}"

    def clean(self) -> None:
        if self.kind in PERSON_KINDS and self.person_id is None:
            raise ValidationError({"person": "This kind of authorization is granted to a person."})
        if self.kind not in PERSON_KINDS and self.person_id is not None:
            raise ValidationError({"person": "This kind of authorization is not for one person."})
        if self.valid_to and self.valid_from and self.valid_to < self.valid_from:
            raise ValidationError({"valid_to": "It cannot end before it starts."})

    def as_fact(self) -> AuthorizationFact:
        return AuthorizationFact(
            pk=self.pk,
            kind=self.kind,
            reference=self.reference_number,
            valid_from=self.valid_from,
            valid_to=self.valid_to,
            person_id=self.person_id,
            revoked_on=self.revoked_on,
        )

    def valid_on(self, day: dt.date) -> bool:
        return self.as_fact().valid_on(day)

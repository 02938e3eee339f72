"""Equipment and the inventory of cards (961 CMR 3.04(4)(a), (b) and (e)).

The rules that judge these records live in ``beano.rules.equipment``; the models hold the facts
those rules need, and the database refuses what is never meaningful (negative money, an empty
usage). How many cards are on hand is computed from the purchases and usages, never stored.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import FileExtensionValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from beano.rules.authorizations import AuthorizationKind
from beano.rules.money import money_column
from beano.text import one_line
from organizations.models.authorizations import DirectorAuthorization
from organizations.models.core import Organization

PROOF_EXTENSIONS = ["pdf", "png", "jpg", "jpeg"]
proof_validators = [FileExtensionValidator(PROOF_EXTENSIONS)]


def _proof_path(instance: models.Model, filename: str) -> str:
    """Proofs are filed by organization; they are served only through an access-checked view."""
    folder = instance._meta.model_name
    return f"proofs/org-{instance.organization_id}/{folder}/{dt.date.today():%Y}/{filename}"


class Equipment(models.Model):
    """A piece of Beano equipment the organization owns or leases.

    961 CMR 3.04(4)(a): games are conducted only with equipment the organization owns or that a
    lessor provides under a written lease the Director approved, at a rental fee that is a sum
    certain; no paying for equipment under the guise of a service charge, no buying supplies in
    return for free equipment. 3.04(4)(b): equipment is kept in good repair. 3.04(4)(e): the
    organization possesses and furnishes on request proof of ownership of its equipment."""

    class Kind(models.TextChoices):
        RECEPTACLE = "receptacle", "Receptacle / blower"
        BALL_SET = "ball_set", "Ball set (75 balls)"
        FLASHBOARD = "flashboard", "Flashboard"
        OTHER = "other", "Card minder / other"

    class Ownership(models.TextChoices):
        OWNED = "owned", "Owned"
        LEASED = "leased", "Leased"

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="equipment"
    )
    description = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    serial_number = models.CharField(max_length=100, blank=True)
    ownership = models.CharField(max_length=10, choices=Ownership.choices)
    proof_of_ownership = models.FileField(
        upload_to=_proof_path,
        blank=True,
        validators=proof_validators,
        help_text="3.04(4)(e): the bill of sale or receipt (PDF, PNG or JPG).",
    )
    proof_reference = models.CharField(
        max_length=100,
        blank=True,
        help_text="3.04(4)(e): where the proof is kept, e.g. the bill of sale number.",
    )
    lessor = models.CharField(max_length=200, blank=True)
    lease_authorization = models.ForeignKey(
        DirectorAuthorization,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="leased_equipment",
        help_text="3.04(4)(a): the Director's written approval of the lease.",
    )
    rental_fee = money_column(
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0"))],
        help_text="3.04(4)(a): the lease's rental fee, a sum certain.",
    )
    pays_service_charge = models.BooleanField(
        default=False, help_text="3.04(4)(a): consideration paid for it as a 'service charge'."
    )
    supplies_tie_in = models.BooleanField(
        default=False, help_text="3.04(4)(a): provided free in return for buying supplies."
    )
    in_good_repair = models.BooleanField(
        default=True, help_text="3.04(4)(b): in good repair and sound working condition."
    )
    retired_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organization", "kind", "description"]
        verbose_name_plural = "equipment"
        constraints = [
            models.CheckConstraint(
                condition=Q(rental_fee__isnull=True) | Q(rental_fee__gte=0),
                name="equipment_rental_fee_not_negative",
            ),
        ]

    def __str__(self) -> str:
        serial = f" #{self.serial_number}" if self.serial_number else ""
        return f"{self.description}{serial}"

    @property
    def has_proof(self) -> bool:
        return bool(self.proof_of_ownership) or bool(self.proof_reference.strip())

    def retired_by(self, day: dt.date) -> bool:
        return self.retired_on is not None and self.retired_on <= day

    def clean(self) -> None:
        if self.ownership == self.Ownership.OWNED and (
            self.lease_authorization_id or self.lessor.strip() or self.rental_fee is not None
        ):
            raise ValidationError("Owned equipment has no lessor, lease or rental fee.")
        auth = self.lease_authorization
        if auth is not None:
            if auth.organization_id != self.organization_id:
                raise ValidationError(
                    {"lease_authorization": "That authorization is another organization's."}
                )
            if auth.kind != AuthorizationKind.EQUIPMENT_LEASE:
                raise ValidationError(
                    {"lease_authorization": "That authorization is not an equipment lease."}
                )


class CardPurchase(models.Model):
    """Cards bought: one line of a supplier's invoice. 961 CMR 3.04(4)(e): accurate records of
    the number of Beano cards owned, with proof of ownership furnished on request."""

    class CardType(models.TextChoices):
        ADMISSION = "admission", "Admission"
        EXTRA_REGULAR = "extra_regular", "Extra regular"
        BONUS = "bonus", "Bonus"
        SPECIAL_GAME = "special_game", "Special game"
        WINNER_TAKE_ALL = "winner_take_all", "Winner-take-all"
        PAPER_STRIPS = "paper_strips", "Paper strips"
        OTHER = "other", "Other"

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="card_purchases"
    )
    supplier = models.CharField(max_length=200)
    invoice_number = models.CharField(max_length=60, blank=True)
    invoice_date = models.DateField()
    proof = models.FileField(
        upload_to=_proof_path,
        blank=True,
        validators=proof_validators,
        help_text="3.04(4)(e): the invoice or receipt (PDF, PNG or JPG).",
    )
    proof_reference = models.CharField(
        max_length=100, blank=True, help_text="Where the paper invoice is filed."
    )
    card_type = models.CharField(max_length=20, choices=CardType.choices)
    series = models.CharField(
        max_length=60, blank=True, help_text="The supplier's series or color."
    )
    serial_from = models.PositiveIntegerField(null=True, blank=True)
    serial_to = models.PositiveIntegerField(null=True, blank=True)
    quantity = models.PositiveIntegerField()
    unit_cost = money_column(validators=[MinValueValidator(Decimal("0"))])
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organization", "card_type", "invoice_date", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(quantity__gte=1), name="card_purchase_quantity"),
            models.CheckConstraint(
                condition=Q(unit_cost__gte=0), name="card_purchase_unit_cost_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(serial_from__isnull=True, serial_to__isnull=True)
                | Q(
                    serial_from__isnull=False,
                    serial_to__isnull=False,
                    serial_to__gte=models.F("serial_from"),
                ),
                name="card_purchase_serial_range",
            ),
        ]

    def __str__(self) -> str:
        serials = f", serials {self.serial_from}–{self.serial_to}" if self.serial_from else ""
        invoice = self.invoice_number or "no invoice"
        return f"{self.kind} ({invoice}{serials})"

    @property
    def kind(self) -> str:
        """Its type and series as people say them, "Admission Blue": a series typed with the
        type's name in it ("Admission Orange") does not say the type twice."""
        kind = str(self.get_card_type_display())
        series = one_line(self.series)
        if series.casefold().startswith(kind.casefold()):
            return series
        return f"{kind} {series}".strip()

    @property
    def has_proof(self) -> bool:
        return bool(self.proof) or bool(self.proof_reference.strip())

    @property
    def cost(self) -> Decimal:
        return self.unit_cost * self.quantity

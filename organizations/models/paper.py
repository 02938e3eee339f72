"""Paper by serial (961 CMR 3.04(4)(d)2 and (e)): the cards of a purchase issued to the door for
an occasion by serial range and counted back at its close, destroyed when damaged or expired, and
counted on the shelf. With the purchases these rows are the inventory: on hand = bought − issued
+ returned − destroyed (± a stock-take's difference), computed, never stored.

The occasion is named by a link to its row (``occasions.Occasion``, by the model's label: this
app imports nothing of the occasions app); the services that write these rows, and judge them by
the rules first, are in ``reports.paper_services``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from organizations.models.equipment import CardPurchase

OCCASION = "occasions.Occasion"


class PaperIssue(models.Model):
    """Cards of one purchase, serials ``serial_from``–``serial_to``, issued to the door for an
    occasion; at its close the unsold are counted back (``returned``) and the spoiled ones
    voided: sold = issued − returned − voided, set against the door's count of the category."""

    purchase = models.ForeignKey(CardPurchase, on_delete=models.PROTECT, related_name="issues")
    occasion = models.ForeignKey(OCCASION, on_delete=models.PROTECT, related_name="paper_issues")
    serial_from = models.PositiveIntegerField()
    serial_to = models.PositiveIntegerField()
    issued_at = models.DateTimeField(help_text="When the paper left the stock for the door.")
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    returned = models.PositiveIntegerField(
        null=True, blank=True, help_text="Unsold cards counted back at the close."
    )
    voided = models.PositiveIntegerField(default=0, help_text="Spoiled at the door, not sold.")
    returned_at = models.DateTimeField(null=True, blank=True)
    returned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    from_paper = models.BooleanField(
        default=False, help_text="Entered after the fact, at the time written on the sheet."
    )

    class Meta:
        ordering = ["occasion", "purchase__card_type", "serial_from", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(serial_to__gte=F("serial_from")), name="paper_issue_serial_range"
            ),
            models.CheckConstraint(
                condition=Q(returned__isnull=True)
                | Q(returned__lte=F("serial_to") - F("serial_from") + 1 - F("voided")),
                name="paper_issue_returned_within_issued",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.purchase} serials {self.serial_from}–{self.serial_to}"

    @property
    def quantity(self) -> int:
        return self.serial_to - self.serial_from + 1

    @property
    def counted_back(self) -> bool:
        return self.returned is not None

    @property
    def sold(self) -> int | None:
        """Issued − returned − voided, once counted back."""
        if self.returned is None:
            return None
        return self.quantity - self.returned - self.voided


class PaperDestruction(models.Model):
    """Cards of a purchase taken out of the inventory because damaged or expired, with a witness
    who confirmed it themselves."""

    class Reason(models.TextChoices):
        DAMAGED = "damaged", "Damaged"
        EXPIRED = "expired", "Expired or discontinued"
        MISPRINTED = "misprinted", "Misprinted"

    purchase = models.ForeignKey(
        CardPurchase, on_delete=models.PROTECT, related_name="destructions"
    )
    destroyed_on = models.DateField()
    quantity = models.PositiveIntegerField()
    serial_from = models.PositiveIntegerField(null=True, blank=True)
    serial_to = models.PositiveIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=300, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    witness = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-destroyed_on", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(quantity__gte=1), name="paper_destruction_quantity"),
            models.CheckConstraint(
                condition=Q(serial_from__isnull=True, serial_to__isnull=True)
                | Q(
                    serial_from__isnull=False,
                    serial_to__isnull=False,
                    serial_to__gte=F("serial_from"),
                ),
                name="paper_destruction_serial_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} of {self.purchase} destroyed on {self.destroyed_on}"


class StockTake(models.Model):
    """A physical count of one purchase's cards on the shelf: what the records said, what was
    counted, and why they differ; counted by one person, witnessed by another who confirmed it
    themselves. The count stands from then on: the difference moves the inventory."""

    purchase = models.ForeignKey(CardPurchase, on_delete=models.PROTECT, related_name="stock_takes")
    counted_on = models.DateField()
    expected = models.IntegerField(help_text="On hand by the records when counted.")
    counted = models.PositiveIntegerField()
    reason = models.CharField(max_length=300, blank=True)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    witness = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-counted_on", "-pk"]

    def __str__(self) -> str:
        return f"{self.purchase} counted {self.counted} on {self.counted_on}"

    @property
    def difference(self) -> int:
        return self.counted - self.expected


class PaperExplanation(models.Model):
    """Why an occasion's door counts and its paper by serial disagree, given before its report
    is filed (961 CMR 3.04(4)(d)2)."""

    occasion = models.OneToOneField(
        OCCASION, on_delete=models.PROTECT, related_name="paper_explanation"
    )
    text = models.TextField()
    explained_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    explained_at = models.DateTimeField()

    def __str__(self) -> str:
        return self.text[:60]

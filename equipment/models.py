"""Card stock (961 CMR 3.04(4)(d)2 and (e)): the cards of a purchase used or voided, issued to
the door for an occasion by serial range and counted back at its close, destroyed when damaged or
expired, and counted on the shelf. With the purchases (``organizations.CardPurchase``) these rows
are the inventory: on hand = bought − used − voided − issued + returned − destroyed (± a
stock-take's difference), computed, never stored (``equipment.paper_stock``).

The rows that name an occasion sit here, above occasions: they were organizations' and kept
their tables (``db_table``). The services that write them, and judge them by the rules first,
are ``equipment.inventory_services`` and ``equipment.paper_services``."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from occasions.models import Occasion
from organizations.models import CardPurchase


class CountCategory(models.TextChoices):
    """What the bookkeeper counts after the close: the categories of 961 CMR 3.04(4)(d)2 and the
    charity game tickets."""

    ADMISSION = "admission", "Admissions"
    EXTRA_REGULAR = "extra_regular", "Extra regular cards"
    BONUS = "bonus", "Bonus cards"
    SPECIAL = "special", "Special game cards"
    WINNER_TAKE_ALL = "winner_take_all", "Winner-take-all cards"
    PACKAGE = "package", "Packages"
    CHARITY_TICKETS = "charity_tickets", "Charity game tickets"


#: The card inventory's types, as the close-out counts them.
STOCK_CATEGORY = {
    "admission": "admission",
    "extra_regular": "extra_regular",
    "bonus": "bonus",
    "special_game": "special",
    "winner_take_all": "winner_take_all",
}


class CardUsage(models.Model):
    """Cards of one purchase used or voided (961 CMR 3.04(4)(e)), at an occasion (a link) or
    out of any occasion; with the purchases and the paper issued by serial
    (below), the count of cards on hand."""

    purchase = models.ForeignKey(CardPurchase, on_delete=models.PROTECT, related_name="usages")
    used_on = models.DateField()
    quantity_used = models.PositiveIntegerField(default=0)
    quantity_voided = models.PositiveIntegerField(default=0)
    note = models.CharField(max_length=300, blank=True, help_text="The reason, e.g. misprinted.")
    occasion = models.ForeignKey(
        Occasion,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="card_usages",
        help_text="The occasion the cards were used at.",
    )
    occasion_label = models.CharField(
        max_length=100,
        blank=True,
        help_text="Rows recorded before occasions were linked: the occasion as it was written.",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "organizations_cardusage"
        ordering = ["purchase", "used_on", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(quantity_used__gt=0) | Q(quantity_voided__gt=0),
                name="card_usage_not_empty",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quantity_used} used, {self.quantity_voided} voided on {self.used_on}"

    def clean(self) -> None:
        if self.purchase_id and self.used_on and self.used_on < self.purchase.invoice_date:
            raise ValidationError({"used_on": "Cards cannot be used before they were bought."})


class PaperIssue(models.Model):
    """Cards of one purchase, serials ``serial_from``–``serial_to``, issued to the door for an
    occasion; at its close the unsold are counted back (``returned``) and the spoiled ones
    voided: sold = issued − returned − voided, set against the door's count of the category."""

    purchase = models.ForeignKey(CardPurchase, on_delete=models.PROTECT, related_name="issues")
    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="paper_issues")
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
        db_table = "organizations_paperissue"
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
        db_table = "organizations_paperdestruction"
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
        db_table = "organizations_stocktake"
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
        Occasion, on_delete=models.PROTECT, related_name="paper_explanation"
    )
    text = models.TextField()
    explained_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    explained_at = models.DateTimeField()

    class Meta:
        db_table = "organizations_paperexplanation"

    def __str__(self) -> str:
        return self.text[:60]

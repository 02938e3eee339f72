"""The price list posted where admissions are sold (961 CMR 3.04(4)(c), (5)(a))."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from beano.rules.money import money_column, usd
from occasions.models.core import Occasion


class PriceListItem(models.Model):
    """One posted price. Every sale is at this price; the list is fixed once the occasion opens."""

    class Category(models.TextChoices):
        ADMISSION = "admission", "Admission"
        EXTRA_REGULAR = "extra_regular", "Extra regular card"
        BONUS = "bonus", "Bonus card"
        SPECIAL = "special", "Special game card"
        WINNER_TAKE_ALL = "winner_take_all", "Winner-take-all card"
        PACKAGE = "package", "Package"

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="price_items")
    category = models.CharField(max_length=20, choices=Category.choices)
    label = models.CharField(
        max_length=100, help_text="As posted, e.g. 'Admission (3-on regular card)'."
    )
    price = money_column()
    package_contents = models.CharField(
        max_length=200, blank=True, help_text="For a package: what it includes."
    )
    authorization = models.ForeignKey(
        "organizations.DirectorAuthorization",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="961 CMR 3.04(5)(a): packages only with the Director's written permission.",
    )

    class Meta:
        ordering = ["occasion", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(price__gte=0), name="price_not_negative"),
            models.UniqueConstraint(fields=["occasion", "label"], name="price_label_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.label}: {usd(self.price)}"

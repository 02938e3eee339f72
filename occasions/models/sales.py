"""The door: admissions and cards sold at the posted prices, counted by category, and the
attendance announced before the second half (961 CMR 3.04(4)(c), (4)(d), (5)(b), (5)(c))."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from beano.rules.money import cents, money_column, usd
from occasions.models.core import Occasion
from occasions.models.prices import PriceListItem


class Sale(models.Model):
    """One door transaction, one receipt. Its lines are the counts 961 CMR 3.04(4)(d)2 asks to
    keep by category. A sale is never deleted or edited: a mistake is voided, with a reason and
    a second worker as witness, so the count stays accurate and the void shows."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="sales")
    number = models.PositiveIntegerField(
        help_text="The receipt number: 1, 2, 3… within the occasion, in the order sold."
    )
    admission_sale = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="extra_sales",
        help_text="961 CMR 3.04(5)(b): extras sold later against the player's paid admission.",
    )
    sold_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who recorded the sale; empty for a tally imported from a night file, whose "
        "provenance names the file.",
    )
    sold_at = models.DateTimeField()
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=300, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_witness = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="A second person of the organization, neither the seller nor the one voiding.",
    )
    void_witness_worker = models.ForeignKey(
        "occasions.WorkerPresence",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Entered from paper: the worker of the night whose signature witnesses the void "
        "on the control sheet (attested on paper).",
    )
    tally = models.BooleanField(
        default=False,
        help_text="Entered from paper: the count of many paper receipts of the door by category "
        "(totals or serial ranges), not one player's transaction.",
    )

    class Meta:
        ordering = ["occasion", "number"]
        constraints = [
            models.UniqueConstraint(fields=["occasion", "number"], name="sale_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="sale_number_positive"),
            models.CheckConstraint(
                condition=(
                    Q(voided_at__isnull=True, voided_by__isnull=True, void_witness__isnull=True)
                    & Q(void_reason="")
                )
                | (
                    Q(voided_at__isnull=False)
                    & (
                        Q(voided_by__isnull=False, void_witness__isnull=False)
                        | Q(void_witness_worker__isnull=False)
                    )
                    & ~Q(void_reason="")
                ),
                name="sale_void_complete",
            ),
            models.CheckConstraint(
                condition=Q(void_witness__isnull=True)
                | (~Q(void_witness=F("voided_by")) & ~Q(void_witness=F("sold_by"))),
                name="sale_void_witness_is_a_second_person",
            ),
        ]

    def __str__(self) -> str:
        return f"Receipt {self.number}"

    @property
    def is_voided(self) -> bool:
        return self.voided_at is not None

    @property
    def total(self) -> Decimal:
        """The receipt's money, from its lines (prefetch them when listing receipts)."""
        return sum((line.amount for line in self.lines.all()), Decimal("0.00"))

    @property
    def has_admission(self) -> bool:
        return any(line.category == PriceListItem.Category.ADMISSION for line in self.lines.all())


class SaleLine(models.Model):
    """A quantity of one posted item in a sale. The category and the price are copied from the
    posted list when sold: the sale records what was charged, at the posted price
    (961 CMR 3.04(4)(c)), in the category it is counted in (961 CMR 3.04(4)(d)2)."""

    sale = models.ForeignKey(Sale, on_delete=models.PROTECT, related_name="lines")
    price_item = models.ForeignKey(
        PriceListItem, on_delete=models.PROTECT, related_name="sale_lines"
    )
    category = models.CharField(max_length=20, choices=PriceListItem.Category.choices)
    quantity = models.PositiveIntegerField()
    unit_price = money_column()
    amount = money_column()
    serial_first = models.PositiveIntegerField(
        null=True, blank=True, help_text="A paper tally by serials: the first serial sold."
    )
    serial_last = models.PositiveIntegerField(null=True, blank=True)
    serials_excluded = models.JSONField(
        default=list,
        blank=True,
        help_text="Serials within the range that were not sold here (voided on their own line).",
    )

    class Meta:
        ordering = ["sale", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(serial_first__isnull=True, serial_last__isnull=True)
                | Q(
                    serial_first__isnull=False,
                    serial_last__isnull=False,
                    serial_last__gte=F("serial_first"),
                ),
                name="sale_line_serial_range",
            ),
            models.CheckConstraint(
                condition=Q(quantity__gte=1), name="sale_line_quantity_positive"
            ),
            models.CheckConstraint(
                condition=Q(unit_price__gte=0), name="sale_line_unit_price_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(amount__gte=0), name="sale_line_amount_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} × {self.get_category_display()} at {usd(self.unit_price)}"

    #: How a receipt line reads in the door's list of recent sales, where room is short.
    SHORT_LABELS = {
        PriceListItem.Category.ADMISSION: "admission",
        PriceListItem.Category.EXTRA_REGULAR: "extra",
        PriceListItem.Category.BONUS: "bonus",
        PriceListItem.Category.SPECIAL: "special",
        PriceListItem.Category.WINNER_TAKE_ALL: "WTA",
        PriceListItem.Category.PACKAGE: "package",
    }

    @property
    def short_label(self) -> str:
        return self.SHORT_LABELS.get(self.category, self.category)

    @property
    def serials_label(self) -> str:
        """A paper tally's serials as the sheet gives them: "serials 501–542 less 510, 511"."""
        if self.serial_first is None:
            return ""
        label = f"serials {self.serial_first}–{self.serial_last}"
        if self.serials_excluded:
            label += " less " + ", ".join(str(n) for n in self.serials_excluded)
        return label

    @staticmethod
    def amount_for(quantity: int, unit_price: Decimal) -> Decimal:
        return cents(unit_price * quantity)


class AttendanceAnnouncement(models.Model):
    """The number of players in attendance, announced before the second half starts
    (961 CMR 3.04(5)(c)). Announced once: the record is what was said in the hall."""

    occasion = models.OneToOneField(
        Occasion, on_delete=models.PROTECT, related_name="attendance_announcement"
    )
    players = models.PositiveIntegerField()
    announced_at = models.DateTimeField()
    announced_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.players} players announced"

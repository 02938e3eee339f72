"""The cash after the close and the gaming bank account: the drawer counted by denomination by
one person and verified by a second; the account each organization keeps for its gaming money,
each occasion's deposit into it, the checks and transfers out of it, and the monthly
reconciliation with the bank's statement.

They were the reports app's until issue 41 split it: each keeps its table (``db_table``), and
the audit events written before the split name them ``reports.<model>`` (see
``organizations.audit.target_types``)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q

from beano.rules.money import money_column, usd
from occasions.models import Occasion
from organizations.models import Organization

#: The pieces of a drawer, largest first: (code, label, value of one piece).
DENOMINATIONS: tuple[tuple[str, str, Decimal], ...] = (
    ("100", "$100 bills", Decimal("100")),
    ("50", "$50 bills", Decimal("50")),
    ("20", "$20 bills", Decimal("20")),
    ("10", "$10 bills", Decimal("10")),
    ("5", "$5 bills", Decimal("5")),
    ("2", "$2 bills", Decimal("2")),
    ("1", "$1 bills and coins", Decimal("1")),
    ("0.50", "Half dollars", Decimal("0.50")),
    ("0.25", "Quarters", Decimal("0.25")),
    ("0.10", "Dimes", Decimal("0.10")),
    ("0.05", "Nickels", Decimal("0.05")),
    ("0.01", "Pennies", Decimal("0.01")),
)


def _user(**extra: object) -> models.ForeignKey:
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        **extra,  # type: ignore[arg-type]
    )


class DrawerCount(models.Model):
    """The drawer of one occasion counted piece by piece after the close: its total is the
    close-out's cash counted. One person counts, a second verifies for themselves (3.04(1)(e))."""

    closeout = models.OneToOneField(
        "reports.CloseOut", on_delete=models.PROTECT, related_name="drawer"
    )
    pieces = models.JSONField(help_text="How many pieces of each denomination, by its code.")
    total = money_column()
    counted_by = _user()
    verified_by = _user()
    counted_at = models.DateTimeField()

    class Meta:
        db_table = "reports_drawercount"
        constraints = [
            models.CheckConstraint(condition=Q(total__gte=0), name="drawer_total_not_negative"),
        ]

    def __str__(self) -> str:
        return f"Drawer of {self.closeout.occasion}: {usd(self.total)}"

    def lines(self) -> list[tuple[str, int, Decimal]]:
        """(label, pieces, amount) for each denomination counted."""
        return [
            (label, int(self.pieces.get(code, 0)), value * int(self.pieces.get(code, 0)))
            for code, label, value in DENOMINATIONS
            if self.pieces.get(code)
        ]


class GamingAccount(models.Model):
    """The bank account an organization keeps for its gaming money, apart from its others."""

    organization = models.OneToOneField(
        Organization, on_delete=models.PROTECT, related_name="gaming_account"
    )
    bank_name = models.CharField(max_length=120)
    account_last4 = models.CharField(
        max_length=4, help_text="The last four digits of the account number only."
    )
    opened_on = models.DateField(help_text="The day its book balance starts from.")
    opening_balance = money_column(default=0)
    recorded_by = _user()
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "reports_gamingaccount"

    def __str__(self) -> str:
        return f"{self.bank_name} …{self.account_last4}"


class Deposit(models.Model):
    """One occasion's receipts deposited to the gaming account, due by the next business day."""

    account = models.ForeignKey(GamingAccount, on_delete=models.PROTECT, related_name="deposits")
    occasion = models.OneToOneField(Occasion, on_delete=models.PROTECT, related_name="deposit")
    amount = money_column()
    deposited_on = models.DateField()
    due_on = models.DateField(help_text="The business day after the occasion.")
    slip_reference = models.CharField(max_length=60)
    late_reason = models.CharField(max_length=300, blank=True)
    recorded_by = _user()
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "reports_deposit"
        ordering = ["account", "deposited_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="deposit_amount_positive"),
        ]
        indexes = [models.Index(fields=["account", "deposited_on"], name="deposit_account_day")]

    def __str__(self) -> str:
        return f"Deposit of {self.occasion}: {usd(self.amount)}"

    @property
    def days_late(self) -> int:
        return max((self.deposited_on - self.due_on).days, 0)


class BankEntry(models.Model):
    """A check or transfer out of the gaming account."""

    class Kind(models.TextChoices):
        PRIZE = "prize", "Prize paid by check"
        EXPENSE = "expense", "Expense of an occasion"
        LAWFUL_PURPOSE = "lawful_purpose", "Lawful Purpose disbursement"
        BANK_CHARGE = "bank_charge", "Bank charge"

    class Method(models.TextChoices):
        CHECK = "check", "Check"
        TRANSFER = "transfer", "Transfer"

    account = models.ForeignKey(GamingAccount, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    method = models.CharField(max_length=10, choices=Method.choices, default=Method.CHECK)
    paid_on = models.DateField()
    payee = models.CharField(max_length=200)
    amount = money_column()
    reference = models.CharField(max_length=60, help_text="Check number or transfer reference.")
    occasion = models.ForeignKey(
        Occasion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    disbursement = models.OneToOneField(
        "reports.LawfulPurposeDisbursement",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="bank_entry",
    )
    memo = models.CharField(max_length=300, blank=True)
    recorded_by = _user()
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "reports_bankentry"
        ordering = ["account", "paid_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="bank_entry_amount_positive"),
            models.UniqueConstraint(
                fields=["account", "method", "reference"], name="bank_entry_reference_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_method_display()} {self.reference} to {self.payee}: {usd(self.amount)}"


class BankReconciliation(models.Model):
    """A month of the gaming account reconciled with the bank's statement by the bookkeeper:
    statement balance + deposits in transit − outstanding checks = the book balance, or the
    difference explained."""

    account = models.ForeignKey(
        GamingAccount, on_delete=models.PROTECT, related_name="reconciliations"
    )
    month = models.DateField(help_text="The first day of the month reconciled.")
    statement_balance = money_column()
    deposits_in_transit = money_column(default=0)
    outstanding_checks = money_column(default=0)
    book_balance = money_column()
    difference = money_column()
    explanation = models.TextField(blank=True)
    completed_by = _user()
    completed_at = models.DateTimeField()

    class Meta:
        db_table = "reports_bankreconciliation"
        ordering = ["account", "-month"]
        constraints = [
            models.UniqueConstraint(fields=["account", "month"], name="reconciliation_one_a_month"),
            models.CheckConstraint(
                condition=Q(difference=0) | ~Q(explanation=""),
                name="reconciliation_difference_explained",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.account} {self.month:%B %Y}"

"""Close-out and the financial report (961 CMR 3.05(1), 3.04(4)(d)2, M.G.L. c. 10 § 39).

The bookkeeper's close-out (counts, cash, expenses) is the only thing typed after the night;
every other figure of a report is computed from the rows the night recorded. A filed report is a
version: its figures are frozen in the row, its PDF is made by a Celery task, and a correction is
a new version with a reason that keeps every earlier one."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from beano.rules.money import money_column, usd
from equipment.models import CountCategory  # the door counts by the card stock's categories
from occasions.models import Occasion
from organizations.models import (
    DirectorAuthorization,
    Equipment,
    License,
    Organization,
    WorkerListEntry,
)


def _by(**extra: object) -> models.ForeignKey:
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        **extra,  # type: ignore[arg-type]
    )


class ExpenseKind(models.Model):
    """A kind of expense, as data: the Commission may add kinds without a release."""

    class Source(models.TextChoices):
        ENTERED = "entered", "Entered by the bookkeeper"
        EQUIPMENT_LEASE = "equipment_lease", "Rental under an approved equipment lease"
        COMPENSATION = "compensation", "Compensation of a bookkeeper or accountant"
        POLICE = "police", "The police detail recorded at the occasion"

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=100, unique=True)
    description = models.CharField(max_length=300, blank=True)
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.ENTERED)
    citation = models.CharField(max_length=60, blank=True)
    order = models.PositiveSmallIntegerField(default=0)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["order", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def enterable(self) -> bool:
        """Police details are taken from the occasion's records, never typed again."""
        return self.active and self.source != self.Source.POLICE


class CloseOut(models.Model):
    """The bookkeeper's close-out of one occasion: the cash in the box before the doors opened,
    the cash counted at the end, and why they differ from what the records expect."""

    occasion = models.OneToOneField(Occasion, on_delete=models.PROTECT, related_name="closeout")
    opening_bank = money_column(
        default=0, help_text="Cash in the box before the doors opened (the float)."
    )
    cash_counted = money_column(null=True, blank=True, help_text="Cash counted after the close.")
    cash_counted_by = _by()
    cash_verified_by = _by()
    cash_verified_by_worker = models.ForeignKey(
        "occasions.WorkerPresence",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Entered from paper: the worker of the night whose signature verifies the count.",
    )
    cash_verified_at = models.DateTimeField(null=True, blank=True)
    explanation = models.TextField(
        blank=True, help_text="Why the counts or the cash differ from the records."
    )
    amendment_reason = models.TextField(
        blank=True, help_text="While an amendment is open: why the filed report is corrected."
    )
    amendment_opened_at = models.DateTimeField(null=True, blank=True)
    amendment_opened_by = _by()
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = _by()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(opening_bank__gte=0), name="closeout_opening_bank_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(cash_counted__isnull=True) | Q(cash_counted__gte=0),
                name="closeout_cash_counted_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"Close-out of {self.occasion}"

    @property
    def amendment_open(self) -> bool:
        return self.amendment_opened_at is not None


class ClosingCount(models.Model):
    """Cards (or tickets) of one category counted as sold, from the stock and serials."""

    closeout = models.ForeignKey(CloseOut, on_delete=models.CASCADE, related_name="counts")
    category = models.CharField(max_length=20, choices=CountCategory.choices)
    counted = models.PositiveIntegerField()

    class Meta:
        ordering = ["closeout", "category"]
        constraints = [
            models.UniqueConstraint(
                fields=["closeout", "category"], name="closing_count_one_per_category"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_category_display()}: {self.counted}"


class Expense(models.Model):
    """An expense of the occasion, entered at close-out. Rent of equipment names its approved
    lease (3.04(4)(a)); a bookkeeper's or accountant's pay names the worker list entry
    (3.04(1)(f), (g)). Donated merchandise is never an expense (3.04(8)(c))."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="expenses")
    kind = models.ForeignKey(ExpenseKind, on_delete=models.PROTECT, related_name="expenses")
    payee = models.CharField(max_length=200)
    description = models.CharField(max_length=300, blank=True)
    amount = money_column()
    invoice_reference = models.CharField(
        max_length=100, blank=True, help_text="Invoice, receipt or check number."
    )
    equipment = models.ForeignKey(
        Equipment, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    worker_entry = models.ForeignKey(
        WorkerListEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    authorization = models.ForeignKey(
        DirectorAuthorization,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The Director's authorization that waived a rule for this expense, if any.",
    )
    recorded_by = _by()
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["occasion", "kind__order", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="expense_amount_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.payee} {usd(self.amount)}"


class ReportObligation(models.Model):
    """A financial report owed for one authorized day, played or not (961 CMR 3.05(1)(a))."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="report_obligations"
    )
    license = models.ForeignKey(License, on_delete=models.PROTECT, related_name="+")
    day = models.DateField()
    due_on = models.DateField()

    class Meta:
        ordering = ["-day"]
        constraints = [
            models.UniqueConstraint(fields=["organization", "day"], name="obligation_one_per_day"),
        ]
        indexes = [models.Index(fields=["due_on"], name="obligation_due_on")]

    def __str__(self) -> str:
        return f"{self.organization}: report for {self.day:%b %-d, %Y} due {self.due_on:%b %-d}"


class RenderStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RENDERING = "rendering", "Being made"
    READY = "ready", "Ready"
    FAILED = "failed", "Failed"


class FiledDocument(models.Model):
    """What every filed report version holds: its frozen figures, its filing, the audit chain's
    head at the moment of filing, and the PDF the worker makes of it."""

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveSmallIntegerField()
    reason = models.TextField(blank=True, help_text="For an amendment: why.")
    changes = models.JSONField(
        default=list, blank=True, help_text="What changed from the version before."
    )
    figures = models.JSONField()
    figures_sha256 = models.CharField(max_length=64)
    filed_at = models.DateTimeField()
    filed_by = _by()
    due_on = models.DateField()
    days_late = models.PositiveIntegerField(default=0)
    chain_length = models.PositiveBigIntegerField(help_text="The audit chain's head at filing.")
    chain_head_hash = models.CharField(max_length=64)
    pdf = models.FileField(upload_to="reports/%Y/", blank=True)
    pdf_sha256 = models.CharField(max_length=64, blank=True)
    render_status = models.CharField(
        max_length=20, choices=RenderStatus.choices, default=RenderStatus.QUEUED
    )
    render_error = models.TextField(blank=True)
    render_task_id = models.CharField(max_length=60, blank=True)
    render_progress = models.PositiveSmallIntegerField(default=0)
    rendered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_amendment(self) -> bool:
        return self.version > 1

    @property
    def is_ready(self) -> bool:
        return self.render_status == RenderStatus.READY and bool(self.pdf)


class FinancialReport(FiledDocument):
    """One filed version of an occasion's financial report."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="reports")

    class Meta:
        ordering = ["occasion", "version"]
        constraints = [
            models.UniqueConstraint(fields=["occasion", "version"], name="report_version_unique"),
            models.CheckConstraint(condition=Q(version__gte=1), name="report_version_positive"),
            models.CheckConstraint(
                condition=Q(version=1) | ~Q(reason=""), name="report_amendment_has_reason"
            ),
        ]
        indexes = [models.Index(fields=["organization", "filed_at"], name="report_org_filed")]

    def __str__(self) -> str:
        label = "report" if self.version == 1 else f"amendment {self.version - 1}"
        return f"{self.occasion}: {label}"


class LawfulPurposeDisbursement(models.Model):
    """Net proceeds spent for a Lawful Purpose (961 CMR 3.05(1)(c)). Never edited: a mistaken
    entry is voided with a reason and stays on record."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="disbursements"
    )
    paid_on = models.DateField()
    payee = models.CharField(max_length=200)
    purpose = models.CharField(max_length=300)
    amount = money_column()
    reference = models.CharField(max_length=100, blank=True, help_text="Check or transfer number.")
    recorded_by = _by()
    recorded_at = models.DateTimeField()
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = _by()
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["organization", "paid_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="disbursement_amount_positive"),
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True) | ~Q(void_reason=""),
                name="disbursement_void_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.paid_on:%b %-d, %Y} {self.payee}: {usd(self.amount)}"


class AnnualReport(FiledDocument):
    """One filed version of the annual report of Lawful Purpose disbursements for a calendar
    year, due before January 31 with a copy to the Local Licensing Authority."""

    year = models.PositiveSmallIntegerField()
    authority_pdf = models.FileField(upload_to="reports/%Y/", blank=True)

    class Meta:
        ordering = ["organization", "year", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "year", "version"], name="annual_version_unique"
            ),
            models.CheckConstraint(
                condition=Q(version=1) | ~Q(reason=""), name="annual_amendment_has_reason"
            ),
        ]

    def __str__(self) -> str:
        label = "annual report" if self.version == 1 else f"annual amendment {self.version - 1}"
        return f"{self.organization} {self.year}: {label}"


from reports.kept_models import (  # noqa: E402  (the kept figures, found by Django here)
    KeptOccasionFigures,
    KeptStatewideMonth,
    KeptWinnerMatch,
)
from reports.reminder_models import ReminderKind, SentReminder  # noqa: E402

__all__ = [
    "AnnualReport",
    "CloseOut",
    "ClosingCount",
    "CountCategory",
    "Expense",
    "ExpenseKind",
    "FiledDocument",
    "FinancialReport",
    "KeptOccasionFigures",
    "KeptStatewideMonth",
    "KeptWinnerMatch",
    "LawfulPurposeDisbursement",
    "ReminderKind",
    "RenderStatus",
    "ReportObligation",
    "SentReminder",
]

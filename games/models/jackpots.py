"""Progressive jackpot series carried from occasion to occasion (961 CMR 3.04(6)(h), (8)(a)2):
the rules announced at the start, each occasion's game and the ledger of the carried amount."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from beano.rules.jackpots import ALL_BALLS, JackpotMode
from beano.rules.money import money_column
from games.models.core import Arrangement, Game
from occasions.models import Occasion
from organizations.models import Organization


class ProgressiveSeries(models.Model):
    """One progressive jackpot, from the announcement of its rules to the win. Its rules cannot
    change after its first game and before the jackpot is won (3.04(6)(h)); after a win, a new
    series carries any new rules."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        WON = "won", "Won"

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="jackpot_series"
    )
    name = models.CharField(max_length=100)
    mode = models.CharField(
        max_length=20,
        choices=JackpotMode.choices,
        help_text="The element of 3.04(6)(h) the series incorporates.",
    )
    starting_amount = money_column(help_text="The jackpot at the series' first occasion.")
    increment = money_column(
        default=0, help_text="Added at each occasion after one at which it was not won."
    )
    cap = money_column(
        null=True,
        blank=True,
        help_text="The jackpot grows up to this; never above the maximum in force (3.04(8)(a)2).",
    )
    arrangement = models.ForeignKey(Arrangement, on_delete=models.PROTECT, related_name="+")
    calls_allowed = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(ALL_BALLS)],
        help_text="Calls within which the arrangement wins the jackpot, at the first occasion.",
    )
    calls_increment = models.PositiveSmallIntegerField(
        default=0, help_text="Calls added at each occasion after one at which it was not won."
    )
    consolation_amount = money_column(
        default=0,
        help_text="Paid to the first winner after the calls allowed (0: none). It is funded "
        "that night and does not reduce the jackpot.",
    )
    rules_text = models.TextField(help_text="The rules as announced to the players.")
    started_on = models.DateField(help_text="The day the rules were announced.")
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    won_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-started_on", "name"]
        verbose_name_plural = "progressive series"
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "name"], name="progressive_series_name_unique"
            ),
            models.CheckConstraint(
                condition=Q(starting_amount__gte=0)
                & Q(increment__gte=0)
                & Q(consolation_amount__gte=0)
                & (Q(cap__isnull=True) | Q(cap__gte=0)),
                name="progressive_series_amounts_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(calls_allowed__gte=1) & Q(calls_allowed__lte=ALL_BALLS),
                name="progressive_series_calls_in_range",
            ),
            models.CheckConstraint(
                condition=Q(status="active", won_on__isnull=True)
                | Q(status="won", won_on__isnull=False),
                name="progressive_series_won_has_date",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class ProgressiveGame(models.Model):
    """An occasion's progressive game carrying a series' jackpot: the amount and the calls
    allowed that night, computed from the ledger under the announced rules, and its outcome."""

    class Outcome(models.TextChoices):
        PENDING = "pending", "Not yet recorded"
        WON = "won", "Won within the calls"
        CONSOLATION = "consolation", "Not won; consolation paid"
        NOT_WON = "not_won", "Not won"

    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="progressive")
    series = models.ForeignKey(ProgressiveSeries, on_delete=models.PROTECT, related_name="games")
    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="+")
    carried_in = money_column(help_text="The jackpot carried from the series' previous occasion.")
    jackpot_amount = money_column()
    calls_allowed = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(ALL_BALLS)]
    )
    outcome = models.CharField(max_length=20, choices=Outcome.choices, default=Outcome.PENDING)
    attached_at = models.DateTimeField()
    attached_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["occasion__date", "game__number"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "occasion"], name="progressive_game_once_per_occasion"
            ),
            models.CheckConstraint(
                condition=Q(carried_in__gte=0) & Q(jackpot_amount__gte=F("carried_in")),
                name="progressive_game_jackpot_not_below_carried",
            ),
            models.CheckConstraint(
                condition=Q(calls_allowed__gte=1) & Q(calls_allowed__lte=ALL_BALLS),
                name="progressive_game_calls_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series}: game {self.game.number} of {self.occasion.date:%b %-d, %Y}"

    @property
    def is_settled(self) -> bool:
        return self.outcome != self.Outcome.PENDING


class JackpotLedgerEntry(models.Model):
    """One occasion of a series in its ledger, visible to the inspector:
    ``carried_in + added − paid = carried_out``. ``added`` is what the night put in: the
    starting amount at the first occasion or the increment after (stopped at the cap), and the
    consolation when one is paid that night; ``paid`` is the jackpot or the consolation."""

    class Paid(models.TextChoices):
        NOTHING = "", "Nothing"
        JACKPOT = "jackpot", "Jackpot"
        CONSOLATION = "consolation", "Consolation"

    series = models.ForeignKey(ProgressiveSeries, on_delete=models.PROTECT, related_name="ledger")
    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="+")
    game = models.OneToOneField(
        ProgressiveGame, on_delete=models.PROTECT, related_name="ledger_entry"
    )
    carried_in = money_column()
    added = money_column()
    paid = money_column()
    paid_kind = models.CharField(max_length=20, choices=Paid.choices, blank=True)
    carried_out = money_column()
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["series", "occasion__date"]
        verbose_name_plural = "jackpot ledger entries"
        constraints = [
            models.UniqueConstraint(
                fields=["series", "occasion"], name="jackpot_ledger_once_per_occasion"
            ),
            models.CheckConstraint(
                condition=Q(carried_in__gte=0)
                & Q(added__gte=0)
                & Q(paid__gte=0)
                & Q(carried_out__gte=0),
                name="jackpot_ledger_amounts_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(carried_out=F("carried_in") + F("added") - F("paid")),
                name="jackpot_ledger_balances",
            ),
            models.CheckConstraint(
                condition=Q(paid=0, paid_kind="") | (Q(paid__gt=0) & ~Q(paid_kind="")),
                name="jackpot_ledger_paid_has_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} on {self.occasion.date:%b %-d, %Y}"

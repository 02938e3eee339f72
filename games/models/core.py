"""Games of an occasion: the program, their prize parts and arrangements, and the draw."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from beano.rules.cards import covers
from beano.rules.money import money_column, usd
from occasions.models import Occasion


class Arrangement(models.Model):
    """A winning arrangement of numbers (a pattern), as data the Commission keeps: one or more
    variants, each a set of squares; a card wins on any variant (961 CMR 3.04(6)(c): only
    arrangements the Director has authorized in writing may be required)."""

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=100, unique=True)
    variants = models.JSONField(
        help_text='A list of lists of squares, e.g. [["B1","O1","B5","O5"]].'
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def is_won_by(self, covered: set[str]) -> bool:
        return covers(self.variants, covered)


class Game(models.Model):
    """One game of an occasion's program, in the first or second half."""

    class Kind(models.TextChoices):
        REGULAR = "regular", "Regular"
        SPECIAL = "special", "Special"
        REGULAR_BONUS = "regular_bonus", "Regular with bonus prize"
        WINNER_TAKE_ALL = "winner_take_all", "Winner-take-all"
        PROGRESSIVE = "progressive", "Progressive jackpot"

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        IN_PLAY = "in_play", "In play"
        FINISHED = "finished", "Finished"

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="games")
    number = models.PositiveSmallIntegerField(help_text="Its place in the program: 1, 2, 3 …")
    half = models.PositiveSmallIntegerField(
        choices=[(1, "First half"), (2, "Second half")],
        validators=[MinValueValidator(1), MaxValueValidator(2)],
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PLANNED)
    balls_confirmed_at = models.DateTimeField(
        null=True, blank=True, help_text="961 CMR 3.04(4)(b): all 75 balls in the receptacle."
    )
    balls_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["occasion", "number"]
        constraints = [
            models.UniqueConstraint(fields=["occasion", "number"], name="game_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} ({self.get_kind_display()})"


class PrizePart(models.Model):
    """One prize of a game, with its own arrangement: a game may be divided into several
    (961 CMR 3.04(6)(b)). Cash, or merchandise valued at cost, or at fair market value if donated
    (which counts toward the prize limits but is never an expense, 3.04(8)(c))."""

    class Kind(models.TextChoices):
        CASH = "cash", "Cash"
        MERCHANDISE = "merchandise", "Merchandise"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="parts")
    order = models.PositiveSmallIntegerField(default=1)
    arrangement = models.ForeignKey(Arrangement, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.CASH)
    amount = money_column(help_text="Cash, or the merchandise's value.")
    description = models.CharField(max_length=200, blank=True, help_text="For merchandise.")
    donated = models.BooleanField(
        default=False, help_text="Donated merchandise: fair market value."
    )
    is_bonus = models.BooleanField(
        default=False, help_text="A bonus prize paid on a bonus card (961 CMR 3.04(8)(a)1)."
    )
    announced_at = models.DateTimeField(null=True, blank=True)
    announced_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["game", "order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "order"], name="prize_part_order_unique"),
            models.CheckConstraint(
                condition=Q(amount__gte=0), name="prize_part_amount_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.arrangement} for {usd(self.amount)}"


class BallCall(models.Model):
    """One ball as the caller called it (961 CMR 3.04(6)(a)), in order and with its time. A
    mis-keyed entry is never deleted: it is voided by a recorded correction."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="calls")
    sequence = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(75)]
    )
    called_at = models.DateTimeField()
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["game", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="ball_call_sequence_unique"),
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=Q(voided_at__isnull=True),
                name="ball_called_once_per_game",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=75), name="ball_number_in_range"
            ),
        ]

    def __str__(self) -> str:
        from beano.rules.cards import ball_label

        return f"{ball_label(self.number)} (#{self.sequence})"

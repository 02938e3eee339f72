"""Claims of Beano, their verification, the winners and what each was paid
(961 CMR 3.04(6)(a), (d), (e), (f); (1)(h); 26 CFR 7.6041-1 for Form W-2G)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from beano.rules.money import money_column, usd
from games.models.core import Game, PrizePart


class Claim(models.Model):
    """A player calls Beano. The moment is kept relative to the call in progress: the ball in the
    caller's hand, if any, and whether its calling had begun. A ball removed but not yet begun
    does not count; one whose calling had begun is finished and counts (961 CMR 3.04(6)(a))."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="claims")
    part = models.ForeignKey(PrizePart, on_delete=models.PROTECT, related_name="claims")
    player_name = models.CharField(max_length=200, blank=True)
    table = models.CharField(
        max_length=40,
        blank=True,
        help_text="Where the player sits: (6)(e)'s witnesses sit at another table.",
    )
    claimed_at = models.DateTimeField()
    ball_in_hand = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(75)],
        help_text="The ball removed from the receptacle and not completely called, if any.",
    )
    calling_begun = models.BooleanField(
        default=False,
        help_text="961 CMR 3.04(6)(a): the calling of the ball in hand had begun, so it counts.",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["game", "claimed_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ball_in_hand__isnull=True)
                | (Q(ball_in_hand__gte=1) & Q(ball_in_hand__lte=75)),
                name="claim_ball_in_hand_in_range",
            ),
            models.CheckConstraint(
                condition=Q(calling_begun=False) | Q(ball_in_hand__isnull=False),
                name="claim_calling_begun_needs_a_ball",
            ),
        ]

    def __str__(self) -> str:
        who = f" by {self.player_name}" if self.player_name else ""
        return f"Claim #{self.pk}{who} in {self.game}"


class DrawVerification(models.Model):
    """At a player's request, the numbers drawn and the balls remaining are shown, in the
    immediate presence of the member in charge and one or more players other than the winner
    (961 CMR 3.04(6)(d)). What was shown is kept as it was then."""

    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="draw_verifications")
    requested_by = models.CharField(
        max_length=200, blank=True, help_text="The player who asked (present at their option)."
    )
    member_in_charge = models.CharField(max_length=200)
    witnesses = models.JSONField(help_text="Names of the players present, other than the winner.")
    numbers_drawn = models.JSONField(help_text="The balls that count for the claim, in order.")
    balls_remaining = models.JSONField(help_text="The balls still in the receptacle.")
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    verified_at = models.DateTimeField()

    class Meta:
        ordering = ["claim", "verified_at", "pk"]

    def __str__(self) -> str:
        return f"Draw verified for claim #{self.claim_id}"


class CardVerification(models.Model):
    """The numbers read from the winning card, checked against the balls that count and the
    announced arrangement, in front of one or more players at another table (961 CMR
    3.04(6)(e)). An invalid result is recorded with its reasons, not refused."""

    class Scope(models.TextChoices):
        ARRANGEMENT = "arrangement", "The arrangement's squares"
        WHOLE_CARD = "whole_card", "The whole card"

    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="card_verifications")
    scope = models.CharField(max_length=20, choices=Scope.choices, default=Scope.ARRANGEMENT)
    numbers = models.JSONField(help_text='The numbers read, by square: {"B1": 7, …}.')
    valid = models.BooleanField()
    reasons = models.JSONField(
        default=list, blank=True, help_text="Each reason it is not a winning card, with its rule."
    )
    witnesses = models.JSONField(help_text='Players at another table: [{"name", "table"}].')
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    verified_at = models.DateTimeField()
    attested_on_paper = models.BooleanField(
        default=False,
        help_text="Entered from paper with no balls recorded: the game sheet's signatures attest "
        "the card was verified as winning in front of the witnesses named.",
    )

    class Meta:
        ordering = ["claim", "verified_at", "pk"]

    def __str__(self) -> str:
        return f"Card of claim #{self.claim_id}: {'valid' if self.valid else 'invalid'}"


class Winner(models.Model):
    """A player who won a prize part on a claim, with their share: several winners on the call
    of the same number divide the prize equally to the nearest dollar, or get substitute prizes of
    equal value for merchandise (961 CMR 3.04(6)(f)). A known person is checked against the
    organization's worker list (3.04(1)(h))."""

    class Kind(models.TextChoices):
        CASH = "cash", "Cash"
        MERCHANDISE = "merchandise", "Merchandise"

    claim = models.OneToOneField(Claim, on_delete=models.PROTECT, related_name="winner")
    player_name = models.CharField(max_length=200)
    person = models.ForeignKey(
        "organizations.Person",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="wins",
        help_text="When the player is a known person: 961 CMR 3.04(1)(h) is judged for them.",
    )
    share = money_column()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    substitute_description = models.CharField(
        max_length=200, blank=True, help_text="A merchandise prize that could not be divided."
    )
    authorization = models.ForeignKey(
        "organizations.DirectorAuthorization",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The Director's authorization for a worker to play (3.04(1)(h)), if used.",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["claim__game", "claim__claimed_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(share__gte=0), name="winner_share_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.player_name}: {usd(self.share)}"


class Payout(models.Model):
    """What a winner was paid, once: paid by one user and verified by another. A single win at or
    above the W-2G threshold in force collects the winner's legal name, address, TIN (or backup
    withholding without one) and two IDs seen (26 CFR 7.6041-1). The TIN and ID numbers are
    stored only sealed (games.sealed); the last four digits of the TIN are kept for display."""

    winner = models.OneToOneField(Winner, on_delete=models.PROTECT, related_name="payout")
    amount = money_column()
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    paid_by_worker = models.ForeignKey(
        "occasions.WorkerPresence",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Entered from paper: the worker of the night who paid, as the sheet is signed.",
    )
    verified_by_worker = models.ForeignKey(
        "occasions.WorkerPresence",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Entered from paper: the worker of the night who verified, as the sheet is "
        "signed (attested on paper).",
    )
    paid_at = models.DateTimeField()
    w2g_required = models.BooleanField(default=False)
    w2g_legal_name = models.CharField(max_length=200, blank=True)
    w2g_address = models.CharField(max_length=300, blank=True)
    tin_sealed = models.TextField(blank=True, help_text="The TIN, encrypted.")
    tin_last4 = models.CharField(max_length=4, blank=True)
    backup_withholding = models.BooleanField(
        default=False, help_text="No TIN furnished: backup withholding applies."
    )
    id1_kind = models.CharField(max_length=60, blank=True)
    id1_number_sealed = models.TextField(blank=True)
    id2_kind = models.CharField(max_length=60, blank=True)
    id2_number_sealed = models.TextField(blank=True)

    class Meta:
        ordering = ["paid_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="payout_amount_not_negative"),
            models.CheckConstraint(
                condition=~Q(paid_by=F("verified_by")), name="payout_verified_by_another"
            ),
            models.CheckConstraint(
                condition=Q(verified_by__isnull=False) | Q(verified_by_worker__isnull=False),
                name="payout_has_a_verifier",
            ),
            models.CheckConstraint(
                condition=~Q(paid_by_worker=F("verified_by_worker")),
                name="payout_paper_verified_by_another",
            ),
        ]

    def __str__(self) -> str:
        return f"Payout of {usd(self.amount)} to {self.winner.player_name}"

    @property
    def masked_tin(self) -> str:
        return f"••••{self.tin_last4}" if self.tin_last4 else ""

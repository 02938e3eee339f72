"""Figures kept, not recomputed: what the Commission's pages total over and over for a closed
occasion, written in the same transaction as its close, its filing and each amendment
(``reports.kept``), and the statewide median of each month kept the same way. The records stay
the truth: ``rebuild_kept_figures`` writes every row again from them, and the tests compare the
kept rows with the figures recomputed after every kind of write.

Imported by ``reports.models`` so that Django finds them."""

from __future__ import annotations

from django.db import models

from beano.rules.money import money_column
from games.models import Winner
from occasions.models import Occasion
from organizations.models import Organization, WorkerListEntry


class KeptOccasionFigures(models.Model):
    """One closed occasion's figures as the inspector's pages show them: the door's admissions
    and gross receipts (voided sales left out), the prizes awarded to winners, the games, the
    attendance announced, the net proceeds of the current version of its filed report, its
    prizes game by game judged against the limits in force on its date (961 CMR 3.04(8)), the
    door's counts by category that the occasion's pages show (961 CMR 3.04(4)(d)2), and the
    totals of its prizes and other sales that the occasion page shows."""

    occasion = models.OneToOneField(
        Occasion, primary_key=True, on_delete=models.CASCADE, related_name="kept_figures"
    )
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    month = models.DateField(help_text="The first day of the occasion's month.")
    practice = models.BooleanField(
        default=False, help_text="Played under a practice license: in no statewide figure."
    )
    admissions = models.PositiveIntegerField(default=0)
    gross_receipts = money_column()
    prizes = money_column()
    games_played = models.PositiveIntegerField(default=0)
    attendance = models.PositiveIntegerField(null=True, blank=True)
    net_proceeds = money_column(null=True, blank=True)
    door_prizes = money_column()
    games_prizes = money_column(help_text="The games' prizes, regular and bonus.")
    prize_games = models.JSONField(
        default=list,
        blank=True,
        help_text="Each game with prizes awarded: number, kind, regular and bonus (strings).",
    )
    prize_problems = models.JSONField(
        default=list, blank=True, help_text="Each prize over a limit in force, in words."
    )
    flagged = models.BooleanField(default=False, help_text="A prize over a limit.")
    door = models.JSONField(
        default=dict,
        blank=True,
        help_text="The door's counts: receipts, voided receipts, and each category's quantity "
        "and amount, voided sales left out (empty: kept before they were; counted live).",
    )
    extras = models.JSONField(
        default=dict,
        blank=True,
        help_text="The totals the occasion page shows of its prizes and other sales (door "
        "prizes, raffle tickets, charity sales, other sales, police details), as strings (empty: "
        "kept before they were; totalled live).",
    )
    kept_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["month", "practice"], name="kept_figures_month"),
            models.Index(fields=["organization", "date"], name="kept_figures_org_date"),
        ]

    def __str__(self) -> str:
        return f"Figures of occasion #{self.occasion_id} ({self.date})"


class KeptWinnerMatch(models.Model):
    """A winner at a closed occasion who is on a worker list of the occasion's year (961 CMR
    3.04(1)(h)): the person for certain, or only the name."""

    figures = models.ForeignKey(
        KeptOccasionFigures, on_delete=models.CASCADE, related_name="winner_matches"
    )
    winner = models.ForeignKey(Winner, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(WorkerListEntry, on_delete=models.CASCADE, related_name="+")
    certain = models.BooleanField()
    same_organization = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["winner", "entry"], name="kept_match_once"),
        ]

    def __str__(self) -> str:
        return f"Winner #{self.winner_id} on list entry #{self.entry_id}"


class KeptStatewideMonth(models.Model):
    """The statewide median per closed occasion of one month, of one measure (attendance, gross
    receipts, prizes, net proceeds), over every licensee's occasions (no practice license's)."""

    month = models.DateField()
    measure = models.CharField(max_length=40)
    median = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    occasions = models.PositiveIntegerField(default=0)
    kept_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["month", "measure"], name="kept_month_measure_once"),
        ]

    def __str__(self) -> str:
        return f"{self.measure} {self.month:%Y-%m}: {self.median}"

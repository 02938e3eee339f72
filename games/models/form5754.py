"""Form 5754: a prize at or over the W-2G threshold shared by a group (several people sharing one
card's winnings). The person paid lists everyone entitled to a share, with their address, TIN
and share, so that a Form W-2G is made out to each (IRS Instructions for Forms W-2G and 5754).
The TIN is stored only sealed (games.sealed), its last four digits kept for display."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from beano.rules.money import money_column, usd
from games.models.claims import Payout


class PrizeShare(models.Model):
    """One person's share of a payout shared by a group (Form 5754)."""

    payout = models.ForeignKey(Payout, on_delete=models.PROTECT, related_name="form5754_shares")
    position = models.PositiveSmallIntegerField()
    legal_name = models.CharField(max_length=200)
    address = models.CharField(max_length=300)
    tin_sealed = models.TextField(help_text="The TIN, encrypted.")
    tin_last4 = models.CharField(max_length=4)
    amount = money_column()

    class Meta:
        ordering = ["payout", "position"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="prize_share_amount_positive"),
            models.UniqueConstraint(fields=["payout", "position"], name="prize_share_position"),
        ]

    def __str__(self) -> str:
        return f"{self.legal_name}: {usd(self.amount)}"

    @property
    def masked_tin(self) -> str:
        return f"••••{self.tin_last4}"

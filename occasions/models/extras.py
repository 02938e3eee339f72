"""What happens at an occasion besides the games: prizes varied with attendance and refunds
(961 CMR 3.04(8)(d)), door prizes and authorized gifts (8)(e), raffles under a permit (9)(a),
charity game tickets sold and redeemed (8)(f) and M.G.L. c. 10 § 37, other sales (9)(e), the
police detail (3)(e) and transportation of players (9)(d).

The rules that judge these rows live in ``beano.rules.prizes``, ``prohibited`` and
``facilities``; the database refuses what is never meaningful (negative money)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.core.validators import FileExtensionValidator
from django.db import models
from django.db.models import Q

from beano.rules.money import money_column, usd
from beano.rules.prizes import GiftKind
from beano.rules.prohibited import RafflePrizeKind, SaleKind
from occasions.models.core import Occasion
from organizations.models import DirectorAuthorization, Organization

DOCUMENT_EXTENSIONS = ["pdf", "png", "jpg", "jpeg"]


def _by(**extra: object) -> models.ForeignKey:
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        **extra,  # type: ignore[arg-type]
    )


def _not_negative(field: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=Q(**{f"{field}__gte": 0}), name=name)


class VaryingPrizesAnnouncement(models.Model):
    """961 CMR 3.04(8)(d): prizes varied with the number of persons entitled to play present.
    Announced before any game is played, with that number and the prizes; it then applies to
    every game of the occasion (one per occasion), and paid patrons are offered refunds."""

    occasion = models.OneToOneField(
        Occasion, on_delete=models.PROTECT, related_name="varying_prizes"
    )
    persons_entitled_to_play = models.PositiveIntegerField()
    prizes_announced = models.TextField(help_text="The prizes to be awarded, as announced.")
    refunds_offered = models.BooleanField(
        default=False, help_text="Paid patrons were offered refunds (8)(d)."
    )
    announced_at = models.DateTimeField()
    announced_by = _by()

    def __str__(self) -> str:
        return f"Varying prizes for {self.persons_entitled_to_play} players, {self.occasion}"


class Refund(models.Model):
    """A refund paid to a patron who declined to play once prizes were varied (3.04(8)(d))."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="refunds")
    amount = money_column()
    player_reference = models.CharField(
        max_length=100, help_text="The player's name or admission receipt number."
    )
    refunded_at = models.DateTimeField()
    refunded_by = _by()

    class Meta:
        ordering = ["occasion", "refunded_at"]
        constraints = [_not_negative("amount", "refund_amount_not_negative")]

    def __str__(self) -> str:
        return f"Refund {usd(self.amount)} to {self.player_reference}"


class DoorPrize(models.Model):
    """961 CMR 3.04(8)(e): door prizes, whose aggregate value per occasion stays within the
    figure in force ($200). A donated prize counts at its fair market value (3.04(8)(c))."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="door_prizes")
    description = models.CharField(max_length=200)
    value = money_column(help_text="Cost, or fair market value if donated.")
    donated = models.BooleanField(default=False)
    winner_name = models.CharField(max_length=200, blank=True)
    awarded_at = models.DateTimeField()
    recorded_by = _by()

    class Meta:
        ordering = ["occasion", "awarded_at"]
        constraints = [_not_negative("value", "door_prize_value_not_negative")]

    def __str__(self) -> str:
        return f"Door prize: {self.description} ({usd(self.value)})"


class Gift(models.Model):
    """961 CMR 3.04(8)(e): a service, thing of value or opportunity to play given without
    charge, only under the Director's written authorization valid on the date, named here."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="gifts")
    kind = models.CharField(max_length=20, choices=GiftKind.choices)
    description = models.CharField(max_length=200)
    value = money_column()
    recipient = models.CharField(max_length=200, blank=True)
    authorization = models.ForeignKey(
        DirectorAuthorization, on_delete=models.PROTECT, related_name="+"
    )
    given_at = models.DateTimeField()
    recorded_by = _by()

    class Meta:
        ordering = ["occasion", "given_at"]
        constraints = [_not_negative("value", "gift_value_not_negative")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.description}"


def _permit_path(instance: models.Model, filename: str) -> str:
    return f"proofs/org-{instance.organization_id}/rafflepermit/{dt.date.today():%Y}/{filename}"


class RafflePermit(models.Model):
    """961 CMR 3.04(9)(a): the raffle permit issued by the city or town clerk of the
    organization's municipality; raffles are held at an occasion only while it is valid."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="raffle_permits"
    )
    permit_number = models.CharField(max_length=60)
    issued_by = models.CharField(max_length=200, help_text="e.g. 'Town Clerk'.")
    town = models.CharField("city or town", max_length=100)
    valid_from = models.DateField()
    valid_to = models.DateField()
    document = models.FileField(
        upload_to=_permit_path,
        blank=True,
        validators=[FileExtensionValidator(DOCUMENT_EXTENSIONS)],
        help_text="The scanned permit; served only through an access-checked page.",
    )
    recorded_by = _by()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organization", "-valid_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "permit_number"], name="raffle_permit_unique_number"
            ),
            models.CheckConstraint(
                condition=Q(valid_to__gte=models.F("valid_from")), name="raffle_permit_valid_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Raffle permit {self.permit_number} ({self.issued_by}, {self.town})"

    def valid_on(self, day: dt.date) -> bool:
        return self.valid_from <= day <= self.valid_to


class Raffle(models.Model):
    """A raffle held at an occasion under a permit (3.04(9)(a)): no cash or cash-equivalent
    prize, and no break-open tickets except charity game tickets as prizes. Its drawing is
    recorded once, after its tickets are sold: the winning ticket, who holds it, and when."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="raffles")
    permit = models.ForeignKey(RafflePermit, on_delete=models.PROTECT, related_name="raffles")
    prize_description = models.CharField(max_length=200)
    prize_kind = models.CharField(max_length=20, choices=RafflePrizeKind.choices)
    ticket_price = money_column()
    recorded_by = _by()
    created_at = models.DateTimeField(auto_now_add=True)
    drawn_at = models.DateTimeField(null=True, blank=True, help_text="When it was drawn.")
    winning_ticket = models.CharField(max_length=40, blank=True)
    winner_name = models.CharField(max_length=200, blank=True)
    drawn_by = _by()

    class Meta:
        ordering = ["occasion", "pk"]
        constraints = [_not_negative("ticket_price", "raffle_ticket_price_not_negative")]

    def __str__(self) -> str:
        return f"Raffle: {self.prize_description}"


class RaffleTicketSale(models.Model):
    """Raffle tickets sold to a player, who must have paid the admission (3.04(5)(b)): the
    buyer's admission receipt number is recorded with the sale."""

    raffle = models.ForeignKey(Raffle, on_delete=models.PROTECT, related_name="ticket_sales")
    admission_receipt_number = models.PositiveIntegerField()
    quantity = models.PositiveIntegerField()
    amount = money_column()
    sold_at = models.DateTimeField()
    sold_by = _by()

    class Meta:
        ordering = ["raffle", "sold_at"]
        constraints = [
            _not_negative("amount", "raffle_ticket_amount_not_negative"),
            models.CheckConstraint(condition=Q(quantity__gte=1), name="raffle_ticket_quantity"),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} raffle ticket(s) to receipt {self.admission_receipt_number}"


class CharityTicketSerialAssignment(models.Model):
    """The serial numbers the Commission assigned to the organization for its charity game
    tickets (3.04(8)(f)): a prefix and a numeric range, from the day assigned. Commission data."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="charity_serial_assignments"
    )
    serial_prefix = models.CharField(max_length=20, blank=True)
    serial_from = models.PositiveIntegerField()
    serial_to = models.PositiveIntegerField()
    assigned_on = models.DateField()
    reference = models.CharField(max_length=100, blank=True, help_text="Commission reference.")

    class Meta:
        ordering = ["organization", "serial_prefix", "serial_from"]
        constraints = [
            models.CheckConstraint(
                condition=Q(serial_to__gte=models.F("serial_from")), name="charity_serial_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.serial_prefix}{self.serial_from}–{self.serial_prefix}{self.serial_to}"

    def covers(self, serial: str) -> bool:
        """Does ``serial`` (prefix then digits) fall in this assignment?"""
        serial = serial.strip().upper()
        prefix = self.serial_prefix.strip().upper()
        rest = serial[len(prefix) :] if serial.startswith(prefix) else ""
        return rest.isdigit() and self.serial_from <= int(rest) <= self.serial_to


class CharityTicketSale(models.Model):
    """Charity game tickets sold at the occasion, on the licensee's premises only
    (M.G.L. c. 10 § 37), from a deal whose serial the Commission assigned (3.04(8)(f))."""

    occasion = models.ForeignKey(
        Occasion, on_delete=models.PROTECT, related_name="charity_ticket_sales"
    )
    game_name = models.CharField(max_length=100)
    serial_number = models.CharField(max_length=40, db_index=True)
    quantity = models.PositiveIntegerField(default=1)
    price = money_column(help_text="Resale value of one ticket.")
    sold_on_premises = models.BooleanField(default=True)
    sold_at = models.DateTimeField()
    sold_by = _by()

    class Meta:
        ordering = ["occasion", "sold_at"]
        constraints = [
            _not_negative("price", "charity_ticket_price_not_negative"),
            models.CheckConstraint(condition=Q(quantity__gte=1), name="charity_ticket_quantity"),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} × {self.game_name} ({self.serial_number})"

    @property
    def amount(self) -> Decimal:
        return self.price * self.quantity


class CharityRedemption(models.Model):
    """A winning charity game ticket redeemed (3.04(8)(f)): only the organization's own
    serial, sold by it, and within one year of the sale it is matched to."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="charity_redemptions"
    )
    serial_number = models.CharField(max_length=40)
    sale = models.ForeignKey(
        CharityTicketSale, on_delete=models.PROTECT, related_name="redemptions"
    )
    occasion = models.ForeignKey(
        Occasion,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="charity_redemptions",
        help_text="The occasion at which it was redeemed, if any.",
    )
    prize_amount = money_column()
    redeemed_on = models.DateField()
    recorded_by = _by()

    class Meta:
        ordering = ["organization", "redeemed_on"]
        constraints = [_not_negative("prize_amount", "charity_redemption_not_negative")]

    def __str__(self) -> str:
        return f"Redeemed {self.serial_number}: {usd(self.prize_amount)}"


class OtherSale(models.Model):
    """Something else sold at the occasion (3.04(9)(e)): where Beano is played, from an hour
    before the occasion to an hour after, only Beano supplies, raffle or lottery tickets and
    food or refreshments."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="other_sales")
    kind = models.CharField(max_length=20, choices=SaleKind.choices)
    description = models.CharField(max_length=200)
    amount = money_column()
    on_beano_portion = models.BooleanField(
        default=True, help_text="Sold on the portion of the premises used for Beano."
    )
    sold_at = models.DateTimeField()
    recorded_by = _by()

    class Meta:
        ordering = ["occasion", "sold_at"]
        constraints = [_not_negative("amount", "other_sale_amount_not_negative")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.description} ({usd(self.amount)})"


class PrevailingPoliceRate(models.Model):
    """The hourly rate prevailing for police details in a city or town, from a date on
    (3.04(3)(e)). Dated data the Commission keeps, never a constant."""

    town = models.CharField("city or town", max_length=100)
    hourly_rate = money_column()
    effective_from = models.DateField()
    source = models.CharField(max_length=300)

    class Meta:
        ordering = ["town", "-effective_from"]
        constraints = [
            models.UniqueConstraint(fields=["town", "effective_from"], name="police_rate_unique"),
            _not_negative("hourly_rate", "police_rate_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.town}: {usd(self.hourly_rate)}/h from {self.effective_from}"


class PoliceDetail(models.Model):
    """961 CMR 3.04(3)(e): a police officer of the town of the occasion, paid no more than the
    town's prevailing rate, in no other capacity (the name is checked against the worker list
    of the year: the officer is not a worker)."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="police_details")
    officer_name = models.CharField(max_length=200)
    department_town = models.CharField(max_length=100)
    hours = models.DecimalField(max_digits=5, decimal_places=2)
    hourly_rate = money_column()
    amount = money_column(help_text="Hours × rate, to the cent.")
    prevailing_rate = models.ForeignKey(
        PrevailingPoliceRate, null=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = _by()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["occasion", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(hours__gt=0), name="police_hours_positive"),
            _not_negative("hourly_rate", "police_detail_rate_not_negative"),
            _not_negative("amount", "police_detail_amount_not_negative"),
        ]

    def __str__(self) -> str:
        return f"Police detail: {self.officer_name} ({self.department_town})"


class TransportationArrangement(models.Model):
    """961 CMR 3.04(9)(d): transportation of players to or from the premises, only with the
    Director's prior written authorization valid on the date, named here."""

    occasion = models.ForeignKey(Occasion, on_delete=models.PROTECT, related_name="transportation")
    description = models.CharField(max_length=300)
    authorization = models.ForeignKey(
        DirectorAuthorization, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = _by()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Transportation: {self.description}"

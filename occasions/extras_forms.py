"""Forms for the "Prizes and other sales" page: they only shape input (dollars and cents, sizes,
times); the services and the rules of 961 CMR 3.04 decide."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms

from beano.rules.money import (
    DOOR_PRIZE,
    HOURLY_RATE,
    PRIZE,
    REFUND,
    SALE,
    TICKET_PRICE,
    HoursField,
    MoneyField,
    QuantityField,
)
from beano.rules.prizes import GiftKind
from beano.rules.prohibited import RafflePrizeKind, SaleKind
from occasions.models import Occasion, Raffle, RafflePermit
from occasions.night_time import NightTimeField, moment
from organizations.equipment_forms import ProofField
from organizations.forms import DateInput

MAX_COUNT = 100_000


def _count(label: str, **kwargs: Any) -> QuantityField:
    kwargs.setdefault("min_value", 1)
    kwargs.setdefault("max_value", MAX_COUNT)
    return QuantityField(label=label, **kwargs)


class ExtrasForm(forms.Form):
    """A compact form of the page; an optional time of day on the occasion's date."""

    title = ""
    submit_label = "Record"
    has_time = False

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.occasion = occasion
        if self.has_time:
            self.fields["time"] = NightTimeField(
                required=False, label="Time", help_text="Blank: now. E.g. 19:05 or 7:05 PM."
            )

    def service_values(self) -> dict[str, Any]:
        """The cleaned data as the service takes it (``at`` for the time of day)."""
        data = dict(self.cleaned_data)
        if self.has_time:
            at = data.pop("time", None)
            if at is not None:
                data["at"] = moment(self.occasion, at)
        return data


class VaryingPrizesForm(ExtrasForm):
    title = "Prizes varying with attendance"
    submit_label = "Record the announcement"
    persons_entitled_to_play = _count("Persons entitled to play")
    prizes_announced = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Prizes announced",
        help_text="e.g. 'Regular games $40, coverall $150'.",
    )
    applies_to_all_games = forms.BooleanField(
        required=False, label="For every game of this occasion"
    )
    refunds_offered = forms.BooleanField(required=False, label="Refunds offered to paid patrons")


class RefundForm(ExtrasForm):
    title = "Refund"
    submit_label = "Record refund"
    has_time = True
    amount = MoneyField(kind=REFUND, positive=True)
    player_reference = forms.CharField(max_length=100, label="Player or admission receipt")


class DoorPrizeForm(ExtrasForm):
    title = "Door prize"
    submit_label = "Record door prize"
    has_time = True
    description = forms.CharField(max_length=200)
    value = MoneyField(kind=DOOR_PRIZE, help_text="Cost, or fair market value if donated.")
    winner_name = forms.CharField(max_length=200, required=False, label="Winner")
    donated = forms.BooleanField(required=False)


class GiftForm(ExtrasForm):
    title = "Free play or gift (Director's authorization)"
    submit_label = "Record gift"
    has_time = True
    kind = forms.ChoiceField(choices=GiftKind.choices)
    description = forms.CharField(max_length=200)
    value = MoneyField(kind=DOOR_PRIZE)
    recipient = forms.CharField(max_length=200, required=False)


class RaffleForm(ExtrasForm):
    title = "Raffle"
    submit_label = "Hold raffle"
    permit = forms.ModelChoiceField(queryset=RafflePermit.objects.none(), label="Raffle permit")
    prize_description = forms.CharField(max_length=200, label="Prize")
    prize_kind = forms.ChoiceField(choices=RafflePrizeKind.choices, label="Kind of prize")
    ticket_price = MoneyField(kind=TICKET_PRICE)

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, occasion=occasion, **kwargs)
        self.fields["permit"].queryset = RafflePermit.objects.filter(  # type: ignore[attr-defined]
            organization_id=occasion.organization_id
        )


class RaffleTicketForm(ExtrasForm):
    title = "Raffle tickets sold"
    submit_label = "Record tickets"
    has_time = True
    raffle = forms.ModelChoiceField(queryset=Raffle.objects.none())
    admission_receipt_number = _count("Admission receipt no.", max_value=2_147_483_647)
    quantity = _count("Tickets")

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, occasion=occasion, **kwargs)
        self.fields["raffle"].queryset = Raffle.objects.filter(  # type: ignore[attr-defined]
            occasion=occasion
        )


class RaffleDrawForm(ExtrasForm):
    title = "Raffle drawn"
    submit_label = "Record the drawing"
    has_time = True
    raffle = forms.ModelChoiceField(queryset=Raffle.objects.none())
    winning_ticket = forms.CharField(max_length=40, label="Winning ticket")
    winner_name = forms.CharField(max_length=200, required=False, label="Winner")

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, occasion=occasion, **kwargs)
        self.fields["raffle"].queryset = Raffle.objects.filter(  # type: ignore[attr-defined]
            occasion=occasion, drawn_at__isnull=True
        )


class CharitySaleForm(ExtrasForm):
    title = "Charity game tickets sold"
    submit_label = "Record sale"
    has_time = True
    game_name = forms.CharField(max_length=100, label="Game")
    serial_number = forms.CharField(max_length=40, label="Serial number")
    quantity = _count("Tickets")
    price = MoneyField(kind=TICKET_PRICE, label="Resale value each")
    sold_on_premises = forms.BooleanField(
        required=False, initial=True, label="Sold on our premises"
    )


class CharityRedemptionForm(ExtrasForm):
    title = "Charity game ticket redeemed"
    submit_label = "Record redemption"
    serial_number = forms.CharField(max_length=40, label="Serial number")
    prize_amount = MoneyField(kind=PRIZE, label="Prize paid")
    redeemed_on = forms.DateField(widget=DateInput, label="Redeemed on")

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, occasion=occasion, **kwargs)
        self.fields["redeemed_on"].initial = occasion.date


class OtherSaleForm(ExtrasForm):
    title = "Other sales"
    submit_label = "Record sale"
    has_time = True
    kind = forms.ChoiceField(choices=SaleKind.choices)
    description = forms.CharField(max_length=200)
    amount = MoneyField(kind=SALE)
    on_beano_portion = forms.BooleanField(
        required=False, initial=True, label="Where Beano is played"
    )


class PoliceDetailForm(ExtrasForm):
    title = "Police detail"
    submit_label = "Record police detail"
    officer_name = forms.CharField(max_length=200, label="Officer")
    department_town = forms.CharField(max_length=100, label="Department (city or town)")
    hours = HoursField(
        max_digits=5,
        decimal_places=2,
        min_value=Decimal("0.25"),
        max_value=Decimal("24"),
        error_messages={
            "max_decimal_places": "Give the hours with at most two decimals.",
            "max_digits": "That is too many hours.",
        },
    )
    hourly_rate = MoneyField(kind=HOURLY_RATE, label="Hourly rate")

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, occasion=occasion, **kwargs)
        self.fields["department_town"].initial = occasion.organization.town


class TransportationForm(ExtrasForm):
    title = "Transportation of players (Director's authorization)"
    submit_label = "Record transportation"
    description = forms.CharField(max_length=300)


#: The page's forms, by the kind named in their URL.
EXTRAS_FORMS: dict[str, type[ExtrasForm]] = {
    "varying": VaryingPrizesForm,
    "refund": RefundForm,
    "door-prize": DoorPrizeForm,
    "gift": GiftForm,
    "raffle": RaffleForm,
    "raffle-tickets": RaffleTicketForm,
    "raffle-drawing": RaffleDrawForm,
    "charity-sale": CharitySaleForm,
    "charity-redemption": CharityRedemptionForm,
    "other-sale": OtherSaleForm,
    "police": PoliceDetailForm,
    "transportation": TransportationForm,
}


class RafflePermitForm(forms.Form):
    permit_number = forms.CharField(max_length=60)
    issued_by = forms.CharField(max_length=200, initial="Town Clerk", label="Issued by")
    town = forms.CharField(max_length=100, label="City or town")
    valid_from = forms.DateField(widget=DateInput)
    valid_to = forms.DateField(widget=DateInput)
    document = ProofField(label="Scanned permit (PDF, PNG or JPG)")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("valid_from"), data.get("valid_to")
        if start and end and end < start:
            self.add_error("valid_to", "A permit cannot end before it starts.")
        return data

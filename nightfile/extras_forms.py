"""The forms of the extras sheet: door prizes, refunds, charity game tickets, other sales, the
police detail, raffles."""

from __future__ import annotations

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
)
from beano.rules.prohibited import RafflePrizeKind, SaleKind
from nightfile import format as fmt

#: A time before this is the morning after the night (a night that runs past midnight).
from nightfile.forms import NightTimeField, RowForm, count_field, moment, money_field
from occasions.models import Occasion

# Extras ---------------------------------------------------------------------------------------


class DoorPrizeRowForm(RowForm):
    key = "description"
    needs = ("value", "at")
    description = forms.CharField(label="Door prize", max_length=200, required=False)
    value = money_field("Value ($)", DOOR_PRIZE)
    donated = forms.BooleanField(label="Donated", required=False)
    winner = forms.CharField(label="Winner", max_length=200, required=False)
    at = NightTimeField(label="Awarded at", required=False)

    def row(self, occasion: Occasion) -> fmt.DoorPrizeRow | None:
        d = self.cleaned_data
        if not self.filled:
            return None
        return fmt.DoorPrizeRow(
            at=moment(occasion, d["at"]),
            description=d["description"],
            value=d["value"],
            donated=bool(d.get("donated")),
            winner=d.get("winner", ""),
        )


class RefundRowForm(RowForm):
    key = "player"
    needs = ("amount", "at")
    player = forms.CharField(
        label="Refunded to (receipt or player)", max_length=100, required=False
    )
    amount = money_field("Amount ($)", REFUND)
    at = NightTimeField(label="At", required=False)

    def row(self, occasion: Occasion) -> fmt.RefundRow | None:
        d = self.cleaned_data
        if not self.filled:
            return None
        return fmt.RefundRow(
            at=moment(occasion, d["at"]), amount=d["amount"], player_reference=d["player"]
        )


class CharityRowForm(RowForm):
    key = "serial_number"
    needs = ("game_name", "quantity", "price", "at")
    game_name = forms.CharField(label="Charity game", max_length=100, required=False)
    serial_number = forms.CharField(label="Serial", max_length=40, required=False)
    quantity = count_field("Tickets sold")
    price = money_field("Price ($)", TICKET_PRICE)
    at = NightTimeField(label="At", required=False)

    def row(self, occasion: Occasion) -> fmt.CharitySaleRow | None:
        d = self.cleaned_data
        if not self.filled:
            return None
        return fmt.CharitySaleRow(
            at=moment(occasion, d["at"]),
            game_name=d["game_name"],
            serial_number=d["serial_number"],
            quantity=d["quantity"],
            price=d["price"],
        )


class RedemptionRowForm(RowForm):
    key = "serial_number"
    needs = ("prize_amount", "at")
    serial_number = forms.CharField(label="Winning ticket's serial", max_length=40, required=False)
    prize_amount = money_field("Prize paid ($)", PRIZE)
    at = NightTimeField(label="At", required=False)

    def row(self, occasion: Occasion) -> fmt.RedemptionRow | None:
        d = self.cleaned_data
        if not self.filled:
            return None
        return fmt.RedemptionRow(
            at=moment(occasion, d["at"]),
            serial_number=d["serial_number"],
            prize_amount=d["prize_amount"],
        )


class OtherSaleRowForm(RowForm):
    key = "kind"
    needs = ("description", "amount", "at")
    kind = forms.ChoiceField(label="Kind", choices=[("", "—"), *SaleKind.choices], required=False)
    description = forms.CharField(label="What", max_length=200, required=False)
    amount = money_field("Amount ($)", SALE)
    on_beano_portion = forms.BooleanField(label="Where Beano is played", required=False)
    at = NightTimeField(label="At", required=False)

    def row(self, occasion: Occasion) -> fmt.OtherSaleRow | None:
        d = self.cleaned_data
        if not self.filled:
            return None
        return fmt.OtherSaleRow(
            at=moment(occasion, d["at"]),
            kind=d["kind"],
            description=d["description"],
            amount=d["amount"],
            on_beano_portion=bool(d.get("on_beano_portion")),
        )


class PoliceRowForm(RowForm):
    key = "officer"
    needs = ("department", "hours", "rate")
    officer = forms.CharField(label="Officer", max_length=200, required=False)
    department = forms.CharField(label="Department (town)", max_length=100, required=False)
    hours = HoursField(label="Hours", required=False, max_digits=5)
    rate = money_field("Rate ($ an hour)", HOURLY_RATE)

    def row(self, occasion: Occasion) -> fmt.PoliceRow | None:
        d = self.cleaned_data
        if not self.filled:
            return None
        return fmt.PoliceRow(
            officer=d["officer"], department=d["department"], hours=d["hours"], rate=d["rate"]
        )


class RaffleRowForm(RowForm):
    key = "permit"
    needs = ("prize_description", "prize_kind", "ticket_price", "quantity", "at")

    permit = forms.ModelChoiceField(label="Raffle permit", queryset=None, required=False)
    prize_description = forms.CharField(label="Raffle prize", max_length=200, required=False)
    prize_kind = forms.ChoiceField(
        label="Kind of prize", choices=[("", "—"), *RafflePrizeKind.choices], required=False
    )
    ticket_price = money_field("Ticket price ($)", TICKET_PRICE)
    quantity = count_field("Tickets sold")
    at = NightTimeField(label="Sold by", required=False)

    def __init__(self, *args: Any, permits: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["permit"].queryset = permits
        self.fields["permit"].label_from_instance = lambda p: f"{p.permit_number} ({p.town})"

    def row(self, occasion: Occasion) -> fmt.RaffleRow | None:
        d = self.cleaned_data
        if not self.filled:
            return None
        return fmt.RaffleRow(
            permit=d["permit"].permit_number,
            prize_description=d["prize_description"],
            prize_kind=d["prize_kind"],
            ticket_price=d["ticket_price"],
            sales=(fmt.RaffleTickets(at=moment(occasion, d["at"]), quantity=d["quantity"]),),
        )

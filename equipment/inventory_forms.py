"""Forms of the card inventory: a purchase and the cards of one used or voided. They shape
input; the services and the rules of 961 CMR 3.04(4)(e) decide."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms

from beano.rules.money import CARD_COST, MoneyField, QuantityField
from occasions.models import Occasion
from organizations.equipment_forms import MAX_QUANTITY, MAX_SERIAL, ProofField
from organizations.forms import DateInput, _CrispyForm
from organizations.models import CardPurchase, Organization


class CardPurchaseForm(_CrispyForm, forms.Form):
    submit_label = "Record the purchase"
    supplier = forms.CharField(max_length=200)
    invoice_number = forms.CharField(max_length=60, required=False)
    invoice_date = forms.DateField(widget=DateInput, initial=dt.date.today)
    card_type = forms.ChoiceField(choices=CardPurchase.CardType.choices)
    series = forms.CharField(max_length=60, required=False, help_text="Series or color.")
    serial_from = QuantityField(min_value=0, max_value=MAX_SERIAL, required=False)
    serial_to = QuantityField(min_value=0, max_value=MAX_SERIAL, required=False)
    quantity = QuantityField(min_value=1, max_value=MAX_QUANTITY, label="Cards bought")
    unit_cost = MoneyField(kind=CARD_COST, label="Cost per card ($)")
    proof = ProofField(label="Invoice or receipt (file)", help_text="PDF, PNG or JPG.")
    proof_reference = forms.CharField(
        max_length=100,
        required=False,
        label="Invoice or receipt (reference)",
        help_text="Or where the paper invoice is filed.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = self._helper()


class CardUsageForm(_CrispyForm, forms.Form):
    submit_label = "Record"
    used_on = forms.DateField(widget=DateInput, initial=dt.date.today, label="Date")
    quantity_used = QuantityField(
        min_value=0, max_value=MAX_QUANTITY, initial=0, label="Cards used"
    )
    quantity_voided = QuantityField(
        min_value=0, max_value=MAX_QUANTITY, initial=0, label="Cards voided"
    )
    occasion = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Occasion",
        help_text="The occasion the cards were used at; leave empty for cards voided in stock.",
    )
    note = forms.CharField(max_length=300, required=False, help_text="e.g. why cards were voided.")

    def __init__(self, *args: Any, organization: Organization, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["occasion"]
        field.queryset = Occasion.objects.filter(organization=organization).order_by("-date")
        field.label_from_instance = lambda o: f"{o.date:%a %b %-d, %Y}"
        self.helper = self._helper()

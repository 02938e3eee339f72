"""The paper-by-serial forms: they parse input only (whole numbers as typed, a time as the sheet
writes it); ``equipment.paper_services`` and the rules decide."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone

from beano.rules.money import QuantityField
from equipment.models import PaperDestruction
from equipment.paper_selectors import purchases_with_serials
from occasions.models import Occasion
from occasions.night_time import NightTimeField, moment
from organizations.forms import DateInput
from organizations.models import CardPurchase, Organization

MAX_SERIAL = 999_999_999
COUNT_ERRORS = {
    "invalid": "Give a whole number, with the digits 0 to 9.",
    "min_value": "It cannot be below %(limit_value)s.",
    "max_value": "It is at most %(limit_value)s.",
}


def number(label: str, *, minimum: int = 0, required: bool = True, **kwargs: Any) -> QuantityField:
    return QuantityField(
        label=label,
        min_value=minimum,
        max_value=MAX_SERIAL,
        required=required,
        error_messages=COUNT_ERRORS,
        **kwargs,
    )


class _PurchaseChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: CardPurchase) -> str:
        on_hand = getattr(obj, "on_hand", None)
        serials = f"{obj.serial_from}–{obj.serial_to}" if obj.serial_from else "no serials"
        kind = obj.kind
        tail = f", {on_hand} on hand" if on_hand is not None else ""
        return f"{kind} · {serials} · invoice {obj.invoice_number or '—'}{tail}"


class _SheetTime:
    """An optional time written on the sheet: the act is judged as of it."""

    occasion: Occasion
    cleaned_data: dict[str, Any]

    def at(self) -> dt.datetime | None:
        written = self.cleaned_data.get("at_time")
        return moment(self.occasion, written) if written else None


class IssueForm(_SheetTime, forms.Form):
    purchase = _PurchaseChoice(queryset=None, label="Paper from")
    serial_from = number("First serial", minimum=1)
    serial_to = number("Last serial", minimum=1)
    at_time = NightTimeField(
        required=False,
        label="Time issued (entered after the fact)",
        help_text="As written on the sheet; leave empty for now.",
    )

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.occasion = occasion
        self.fields["purchase"].queryset = purchases_with_serials(occasion.organization)

    def service_values(self) -> dict[str, Any]:
        values = {k: self.cleaned_data[k] for k in ("purchase", "serial_from", "serial_to")}
        return values | {"at": self.at()}


class CountBackForm(_SheetTime, forms.Form):
    returned = number("Unsold, counted back")
    voided = number("Voided (spoiled)", initial=0, required=False)
    at_time = NightTimeField(required=False, label="Time counted (entered after the fact)")

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.occasion = occasion

    def service_values(self) -> dict[str, Any]:
        return {
            "returned": self.cleaned_data["returned"],
            "voided": self.cleaned_data["voided"] or 0,
            "at": self.at(),
        }


class ExplainForm(forms.Form):
    explanation = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        label="Why the door's counts and the serials differ",
    )


def _witnesses(organization: Organization) -> Any:
    return (
        get_user_model()
        .objects.filter(org_roles__organization=organization)
        .distinct()
        .order_by("first_name", "last_name", "username")
    )


class _WitnessedForm(forms.Form):
    witness = forms.ModelChoiceField(queryset=None, label="Witness")
    witness_secret = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        label="The witness types their own password or PIN",
        max_length=128,
    )

    def __init__(self, *args: Any, organization: Organization, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["purchase"].queryset = CardPurchase.objects.filter(
            organization=organization
        ).order_by("card_type", "series", "invoice_date", "pk")
        self.fields["witness"].queryset = _witnesses(organization)
        self.fields["witness"].label_from_instance = lambda u: (
            f"{u.get_full_name() or u.get_username()} ({u.get_username()})"
        )


class DestructionForm(_WitnessedForm):
    purchase = _PurchaseChoice(queryset=None, label="Paper from")
    quantity = number("Cards destroyed", minimum=1)
    serial_from = number("First serial", minimum=1, required=False)
    serial_to = number("Last serial", minimum=1, required=False)
    reason = forms.ChoiceField(choices=PaperDestruction.Reason.choices)
    note = forms.CharField(max_length=300, required=False, label="How, and where it was kept")
    destroyed_on = forms.DateField(widget=DateInput, initial=timezone.localdate, label="Date")
    field_order = [
        "purchase",
        "quantity",
        "serial_from",
        "serial_to",
        "reason",
        "note",
        "destroyed_on",
        "witness",
        "witness_secret",
    ]


class StockTakeForm(_WitnessedForm):
    purchase = _PurchaseChoice(queryset=None, label="Paper of")
    counted = number("Cards counted on the shelf")
    reason = forms.CharField(
        max_length=300, required=False, label="Why the count differs from the records"
    )
    counted_on = forms.DateField(widget=DateInput, initial=timezone.localdate, label="Date")
    field_order = ["purchase", "counted", "reason", "counted_on", "witness", "witness_secret"]

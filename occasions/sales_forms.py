"""The door's forms: they only shape input. Whether a sale, a void or an announcement is allowed
is the rules' answer, given by the services with its citation."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS

from beano.rules.money import QuantityField
from occasions.floor_forms import request_key_field
from occasions.models import PriceListItem
from occasions.sales_services import MAX_QUANTITY

QUANTITY_FIELD = re.compile(r"qty_([0-9]{1,18})")
RECEIPT_MAX = 10**9
RECEIPT_ERRORS = {
    "invalid": "A receipt number is a whole number.",
    "min_value": "Receipt numbers start at 1.",
    "max_value": "No receipt has that number.",
}
#: How long after a receipt is shown a press of Enter with nothing new typed is taken for the
#: same press again (a bounce, a habit of pressing twice: 80 to 300 ms apart on the practice
#: night) rather than the next player's sale: a player paying takes longer than this.
REPEAT_MOMENT_MS = 700
ALREADY_SOLD = (
    "Already sold: receipt #{receipt}. Nothing new was typed, so nothing was sold again: "
    "type the next sale, or press Enter again."
)
QUANTITY_ERRORS = {
    "invalid": "Each quantity is a whole number, typed with the digits 0–9.",
    "min_value": "A quantity cannot be negative.",
    "max_value": f"At most {MAX_QUANTITY} of one item in a sale.",
}


def quantity_field(label: str) -> QuantityField:
    return QuantityField(
        required=False,
        min_value=0,
        max_value=MAX_QUANTITY,
        label=label,
        error_messages=QUANTITY_ERRORS,
    )


class SaleForm(forms.Form):
    """One number box per posted item, and the admission receipt extras are sold against.
    There is deliberately no field for a card's numbers (961 CMR 3.04(4)(d)1)."""

    admission_receipt = QuantityField(
        required=False,
        min_value=1,
        max_value=RECEIPT_MAX,
        label="Against admission receipt #",
        error_messages=RECEIPT_ERRORS,
    )
    request_key = request_key_field()
    repeat_of = QuantityField(
        required=False,
        min_value=1,
        max_value=RECEIPT_MAX,
        widget=forms.HiddenInput,
        label="Enter again after receipt #",
        error_messages=RECEIPT_ERRORS,
    )
    repeat_moment_ms = REPEAT_MOMENT_MS
    already_sold = ALREADY_SOLD

    def __init__(self, *args: Any, items: Iterable[PriceListItem], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.items = list(items)
        for item in self.items:
            self.fields[f"qty_{item.pk}"] = quantity_field(item.label)
        self.lines: list[tuple[int, int]] = []

    def item_fields(self) -> list[tuple[PriceListItem, forms.BoundField]]:
        return [(item, self[f"qty_{item.pk}"]) for item in self.items]

    def invalid_names(self) -> list[str]:
        """The boxes with an error, for an answer that leaves the boxes as they are (the door's
        htmx answer marks them from these)."""
        return [name for name in self.errors if name != NON_FIELD_ERRORS]

    def field_problems(self) -> list[str]:
        """Each box's error with the box's name, shown beside the form instead of in it."""
        return [
            f"{self.fields[name].label}: {message}"
            for name in self.invalid_names()
            for message in self.errors[name]
        ]

    @property
    def focus_name(self) -> str:
        """The box the cursor starts in: the first with an error, else the first extra (the
        admission box already holds its 1), else the first box."""
        names = [f"qty_{item.pk}" for item in self.items]
        if self.is_bound and self.errors:
            wrong = [name for name in [*names, "admission_receipt"] if name in self.errors]
            if wrong:
                return wrong[0]
        extras = [
            f"qty_{item.pk}"
            for item in self.items
            if item.category != PriceListItem.Category.ADMISSION
        ]
        return (extras or names or ["admission_receipt"])[0]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("repeat_of"):
            # The door marks a press of Enter that came within a moment of receipt
            # ``repeat_of`` with nothing typed since (door.js): the same press again, which
            # the page does not send; if it comes anyway, it is still no sale. Only the page
            # saw whether anything was typed and when the receipt was shown to the seller,
            # so its word is the fact (the server's clock would count the network's delay).
            raise forms.ValidationError(ALREADY_SOLD.format(receipt=data["repeat_of"]))
        lines = [
            (item.pk, data[f"qty_{item.pk}"]) for item in self.items if data.get(f"qty_{item.pk}")
        ]
        # A box for an item no longer on this list (a stale screen, another occasion's page) is
        # passed on as it is: the rules refuse it with their citation, and the refusal is logged.
        for key, value in self.data.items():
            match = QUANTITY_FIELD.fullmatch(key)
            if match is None or key in self.fields or not str(value).strip():
                continue
            quantity = quantity_field(key).clean(value)
            if quantity:
                lines.append((int(match.group(1)), quantity))
        if not lines and not self.errors:
            raise forms.ValidationError("Enter a quantity for at least one item.")
        self.lines = lines
        return data


class VoidForm(forms.Form):
    """The reason and the witness are left to the rules (961 CMR 3.04(4)(d)), so that a void
    missing either is refused with its citation and logged."""

    receipt = QuantityField(
        min_value=1,
        max_value=RECEIPT_MAX,
        error_messages={
            **RECEIPT_ERRORS,
            "required": "Give the receipt number.",
            "invalid": "Not a receipt number.",
        },
    )
    reason = forms.CharField(max_length=300, required=False)
    witness = forms.ModelChoiceField(queryset=None, required=False, empty_label="Witness…")
    witness_secret = forms.CharField(
        max_length=128, required=False, strip=False, widget=forms.PasswordInput
    )

    def __init__(self, *args: Any, witnesses: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["witness"].queryset = witnesses
        self.fields["witness"].error_messages["invalid_choice"] = (
            "The witness must be a person of this organization."
        )

    @property
    def receipt_number(self) -> int | None:
        """The receipt the form was sent for, as typed (its row shows the form again)."""
        try:
            return int(str(self.data.get("receipt", "")).strip())
        except ValueError:
            return None

    @property
    def witness_chosen(self) -> str:
        return str(self.data.get("witness", ""))

    def all_messages(self) -> list[str]:
        """Every error, for a page that cannot show them on the form's fields."""
        return [message for errors in self.errors.values() for message in errors]


class ReceiptsForm(forms.Form):
    """Which of the night's receipts the door lists: the one numbered ``receipt``, or a page of
    those before ``before``, or (neither) the latest."""

    receipt = QuantityField(
        required=False,
        min_value=1,
        max_value=RECEIPT_MAX,
        label="Find receipt #",
        error_messages=RECEIPT_ERRORS,
    )
    before = QuantityField(
        required=False, min_value=1, max_value=RECEIPT_MAX, error_messages=RECEIPT_ERRORS
    )


class AttendanceForm(forms.Form):
    players = QuantityField(
        min_value=0,
        max_value=100_000,
        label="Players in attendance",
        error_messages={
            "required": "Give the number of players announced.",
            "invalid": "The number of players is a whole number.",
            "min_value": "The number of players cannot be negative.",
            "max_value": "That is more players than a hall holds.",
        },
    )

"""Forms of the program page: they only shape input; the services judge it."""

from __future__ import annotations

from typing import Any

from django import forms

from beano.rules.money import PRIZE, MoneyField, QuantityField
from games.models import Arrangement, Game, PrizePart
from occasions.models import Occasion


class GameForm(forms.Form):
    number = QuantityField(min_value=1, max_value=99, label="Game no.")
    half = forms.TypedChoiceField(
        choices=[(1, "First half"), (2, "Second half")], coerce=int, label="Half"
    )
    kind = forms.ChoiceField(choices=Game.Kind.choices, label="Kind")


class PrizePartForm(forms.Form):
    """The arrangement offered are those authorized on the occasion's date; another one sent is
    passed on, for the rules to refuse with their citation."""

    arrangement = forms.CharField(label="Arrangement", max_length=12, widget=forms.Select)
    kind = forms.ChoiceField(choices=PrizePart.Kind.choices, label="Prize")
    amount = MoneyField(kind=PRIZE, label="Amount")
    description = forms.CharField(max_length=200, required=False, label="Merchandise")
    donated = forms.BooleanField(required=False, label="Donated")
    is_bonus = forms.BooleanField(required=False, label="Bonus prize")

    def __init__(self, *args: Any, authorized: list[Arrangement], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["arrangement"].widget.choices = [("", "Choose…")] + [
            (str(a.pk), a.name) for a in authorized
        ]
        for name in ("arrangement", "kind"):
            self.fields[name].widget.attrs["class"] = "form-select"
        for name in ("amount", "description"):
            self.fields[name].widget.attrs["class"] = "form-control"
        for name in ("donated", "is_bonus"):
            self.fields[name].widget.attrs["class"] = "form-check-input"

    def clean_arrangement(self) -> Arrangement:
        value = self.cleaned_data["arrangement"]
        digits = value.isascii() and value.isdigit()
        found = Arrangement.objects.filter(pk=int(value)).first() if digits else None
        if found is None:
            raise forms.ValidationError("Choose an arrangement.")
        return found


class CopyProgramForm(forms.Form):
    from_occasion = forms.TypedChoiceField(coerce=int, label="Copy the program of")

    def __init__(self, *args: Any, occasions: list[Occasion], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from_occasion"].choices = [
            (o.pk, f"{o.date:%a %b %-d, %Y}") for o in occasions
        ]

"""Forms of the program page: they only shape input; the services judge it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.safestring import SafeString, mark_safe

from beano.rules.money import PRIZE, MoneyField, QuantityField
from beano.widgets import QuickSelect
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

    arrangement = forms.CharField(label="Arrangement", max_length=12, widget=QuickSelect)
    kind = forms.ChoiceField(choices=PrizePart.Kind.choices, label="Prize", widget=QuickSelect)
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


#: The prefix the blank form is drawn under, put in each game's place: Django writes it only at
#: the start of a name or an id (``name="gGAME-amount"``, ``id="id_gGAME-amount"``), and
#: nothing escaped can hold the quote before it, so an arrangement's name is never touched.
_DRAWN_AS = "gGAME"


class _DrawnField:
    def __init__(self, html: str, id_for_label: str) -> None:
        self.html, self.id_for_label = mark_safe(html), id_for_label

    def __html__(self) -> SafeString:
        return self.html

    __str__ = __html__


class DrawnForm:
    """A game's blank form as the template reads it: ``f.amount``, ``f.amount.id_for_label``,
    ``f.is_bound``."""

    is_bound = False

    def __init__(self, fields: dict[str, _DrawnField]) -> None:
        self._fields = fields

    def __getitem__(self, name: str) -> _DrawnField:
        return self._fields[name]


class BlankPartForms:
    """The unbound "add a prize" form of each planned game, drawn once for the page: Django
    draws a form's fields a template each (19 planned games made 114 a view); the games' forms
    differ only by their prefix, ``g<game>``."""

    def __init__(self, authorized: list[Arrangement]) -> None:
        form = PrizePartForm(authorized=authorized, prefix=_DRAWN_AS)
        self._drawn = {name: (str(form[name]), form[name].id_for_label) for name in form.fields}

    def of(self, game_pk: int) -> DrawnForm:
        prefix = f"g{game_pk}"

        def put(text: str) -> str:
            return text.replace(f'"{_DRAWN_AS}-', f'"{prefix}-').replace(
                f'"id_{_DRAWN_AS}-', f'"id_{prefix}-'
            )

        return DrawnForm(
            {
                name: _DrawnField(
                    put(html), f"id_{prefix}-" + label.removeprefix(f"id_{_DRAWN_AS}-")
                )
                for name, (html, label) in self._drawn.items()
            }
        )


class CopyProgramForm(forms.Form):
    from_occasion = forms.TypedChoiceField(coerce=int, label="Copy the program of")

    def __init__(self, *args: Any, occasions: list[Occasion], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from_occasion"].choices = [
            (o.pk, f"{o.date:%a %b %-d, %Y}") for o in occasions
        ]

"""Forms of the progressive jackpot pages: they only shape input (dollars and cents, whole
calls, a choice among this organization's objects); the services and 3.04(6)(h), (8)(a)2 decide."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone

from beano.rules.jackpots import ALL_BALLS, JackpotMode
from beano.rules.money import JACKPOT, MoneyField, QuantityField
from games.jackpot_services import RULE_FIELDS
from games.models import Arrangement, Game, ProgressiveSeries
from organizations.forms import DateInput


class SeriesRulesForm(forms.Form):
    """The rules of a series as announced to the players."""

    mode = forms.ChoiceField(
        choices=JackpotMode.choices,
        widget=forms.RadioSelect,
        label="Element of 3.04(6)(h)",
    )
    starting_amount = MoneyField(kind=JACKPOT, label="Jackpot at the first occasion")
    increment = MoneyField(
        kind=JACKPOT,
        label="Added each occasion it is not won",
        initial=Decimal("0"),
        required=False,
    )
    cap = MoneyField(kind=JACKPOT, label="Grows up to (cap)", required=False)
    arrangement = forms.ModelChoiceField(queryset=Arrangement.objects.all(), label="Arrangement")
    calls_allowed = QuantityField(
        min_value=1, max_value=ALL_BALLS, label="Within how many calls (first occasion)"
    )
    calls_increment = QuantityField(
        min_value=0,
        max_value=ALL_BALLS,
        initial=0,
        required=False,
        label="Calls added each occasion it is not won",
    )
    consolation_amount = MoneyField(
        kind=JACKPOT,
        label="Consolation to the first winner after the calls (0: none)",
        initial=Decimal("0"),
        required=False,
    )
    rules_text = forms.CharField(
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="The rules as announced",
    )

    def service_values(self) -> dict[str, Any]:
        data = {name: self.cleaned_data.get(name) for name in RULE_FIELDS}
        for name in ("increment", "consolation_amount"):
            if data[name] is None:
                data[name] = Decimal("0.00")
        if data["calls_increment"] is None:
            data["calls_increment"] = 0
        return data


class StartSeriesForm(SeriesRulesForm):
    name = forms.CharField(max_length=100, label="Name of the series")
    started_on = forms.DateField(
        widget=DateInput, initial=timezone.localdate, label="Rules announced on"
    )
    field_order = ["name", "started_on", *RULE_FIELDS]

    def clean_started_on(self) -> dt.date:
        day = self.cleaned_data["started_on"]
        if day.year < 2000:
            raise forms.ValidationError("Check the year.")
        return day

    def service_values(self) -> dict[str, Any]:
        return {
            **super().service_values(),
            "name": self.cleaned_data["name"],
            "started_on": self.cleaned_data["started_on"],
        }


def rules_initial(series: ProgressiveSeries) -> dict[str, Any]:
    return {name: getattr(series, name) for name in RULE_FIELDS}


class AttachForm(forms.Form):
    """One of the occasion's progressive games and the series whose jackpot it carries."""

    game = forms.ModelChoiceField(
        queryset=Game.objects.none(),
        widget=forms.Select(attrs={"class": "form-select form-select-lg"}),
    )
    series = forms.ModelChoiceField(
        queryset=ProgressiveSeries.objects.none(),
        widget=forms.Select(attrs={"class": "form-select form-select-lg"}),
    )

    def __init__(self, *args: Any, occasion: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].queryset = Game.objects.filter(  # type: ignore[attr-defined]
            occasion=occasion, kind=Game.Kind.PROGRESSIVE, progressive__isnull=True
        )
        self.fields["series"].queryset = ProgressiveSeries.objects.filter(  # type: ignore[attr-defined]
            organization_id=occasion.organization_id, status=ProgressiveSeries.Status.ACTIVE
        )


class OutcomeForm(forms.Form):
    OUTCOMES = [
        ("won", "Won within the calls: jackpot paid"),
        ("consolation", "Not won within the calls: consolation paid"),
        ("not_won", "Not won: nothing paid"),
    ]
    outcome = forms.ChoiceField(
        choices=OUTCOMES, widget=forms.RadioSelect(attrs={"class": "btn-check"})
    )

    def service_values(self) -> dict[str, bool]:
        outcome = self.cleaned_data["outcome"]
        return {
            "won_within_calls": outcome == "won",
            "consolation_paid": outcome == "consolation",
        }

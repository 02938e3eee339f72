from __future__ import annotations

import datetime as dt

from django import forms

from beano.rules.money import PRICE, MoneyField
from occasions.models import PriceListItem
from organizations.forms import DateInput


class NotPlayedForm(forms.Form):
    reason = forms.CharField(
        max_length=300,
        widget=forms.TextInput(attrs={"placeholder": "e.g. hall closed for a storm"}),
    )


class ResumptionNoticeForm(forms.Form):
    sent_on = forms.DateField(widget=DateInput, initial=dt.date.today, label="Notice sent on")
    reference = forms.CharField(max_length=100, label="Letter or e-mail reference")

    def clean_sent_on(self) -> dt.date:
        sent_on = self.cleaned_data["sent_on"]
        if sent_on > dt.date.today():
            raise forms.ValidationError("A notice cannot be sent in the future.")
        return sent_on


class PriceRowForm(forms.Form):
    category = forms.ChoiceField(
        choices=[("", "—"), *list(PriceListItem.Category.choices)], required=False
    )
    label = forms.CharField(max_length=100, required=False)
    price = MoneyField(kind=PRICE, required=False)
    package_contents = forms.CharField(max_length=200, required=False)

    def clean(self) -> dict:
        data = super().clean()
        filled = [data.get("category"), data.get("label"), data.get("price")]
        if any(v not in (None, "") for v in filled) and not all(
            v not in (None, "") for v in filled
        ):
            raise forms.ValidationError("Give each row a category, a label and a price.")
        return data

    @property
    def is_blank(self) -> bool:
        return not self.cleaned_data.get("category")


class BasePriceFormSet(forms.BaseFormSet):
    def clean(self) -> None:
        if any(self.errors):
            return
        if not [f for f in self.forms if not f.is_blank]:
            raise forms.ValidationError("The price list is empty.")

    def items(self) -> list[dict]:
        # A price of $0.00 is a price (for the rules to judge), not a blank.
        return [
            {
                k: "" if f.cleaned_data.get(k) is None else f.cleaned_data[k]
                for k in ("category", "label", "price", "package_contents")
            }
            for f in self.forms
            if not f.is_blank
        ]


PriceFormSet = forms.formset_factory(PriceRowForm, formset=BasePriceFormSet, extra=2, max_num=20)

"""Forms of the close-out and the reports: they parse input; the services decide."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms

from beano.rules.money import CASH, DISBURSEMENT, EXPENSE, MoneyField, QuantityField
from occasions.floor_selectors import list_entries
from occasions.models import Occasion
from occasions.second_person import offer
from organizations.models import Equipment, Organization
from reports.models import CountCategory, ExpenseKind

COUNT_PREFIX = "count_"


def _person_label(user: Any) -> str:
    full = user.get_full_name()
    return f"{full} ({user.get_username()})" if full else user.get_username()


class CloseOutForm(forms.Form):
    """The opening bank, the counts of the categories sold, the cash counted, the explanation."""

    opening_bank = MoneyField(
        kind=CASH,
        label="Opening bank",
        help_text="Cash in the box before the doors opened.",
    )
    cash_counted = MoneyField(
        kind=CASH,
        required=False,
        label="Cash counted",
        help_text="All the cash in the box after the close, the opening bank included.",
    )
    cash_verified_by = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Count verified by",
        help_text="A second person who worked tonight; not a paid bookkeeper (3.04(1)(e), (g)).",
    )
    cash_verifier_secret = forms.CharField(
        required=False,
        max_length=128,
        strip=False,
        label="The verifier types their own password or PIN",
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )
    explanation = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Explanation of differences",
        help_text="Required when the counts or the cash differ from the records by more than "
        "the threshold.",
    )

    def __init__(
        self, *args: Any, categories: list[dict[str, Any]], verifiers: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.categories = categories
        from django.contrib.auth import get_user_model

        self.fields["cash_verified_by"].queryset = (
            verifiers if verifiers is not None else get_user_model().objects.none()
        )
        self.fields["cash_verified_by"].label_from_instance = _person_label
        self.offered: list[Any] | None = None
        for c in categories:
            self.fields[COUNT_PREFIX + c["category"]] = QuantityField(
                min_value=0,
                max_value=1_000_000,
                required=False,
                label=c["label"],
                help_text=f"Recorded sold: {c['recorded']}",
                error_messages={
                    "invalid": "Give the count as a whole number.",
                    "min_value": "A count cannot be negative.",
                    "max_value": "That count is too large.",
                },
            )

    def offer(self, people: list[Any]) -> None:
        """The verifiers listed: who worked that night and could confirm (``who_can_confirm``)."""
        self.offered = people
        offer(self.fields["cash_verified_by"], people, _person_label)

    def count_fields(self) -> list[forms.BoundField]:
        return [self[COUNT_PREFIX + c["category"]] for c in self.categories]

    def counts(self) -> dict[str, int | None]:
        return {
            c: self.cleaned_data.get(COUNT_PREFIX + c)
            for c in CountCategory.values
            if COUNT_PREFIX + c in self.fields
        }


class ExpenseForm(forms.Form):
    kind = forms.ModelChoiceField(queryset=ExpenseKind.objects.none(), label="Kind")
    payee = forms.CharField(max_length=200, required=False, label="Paid to")
    amount = MoneyField(kind=EXPENSE, positive=True)
    description = forms.CharField(max_length=300, required=False)
    invoice_reference = forms.CharField(
        max_length=100, required=False, label="Invoice, receipt or check number"
    )
    equipment = forms.ModelChoiceField(
        queryset=Equipment.objects.none(), required=False, label="Leased equipment (for rent)"
    )
    worker_entry = forms.ModelChoiceField(
        queryset=None, required=False, label="Bookkeeper or accountant (for compensation)"
    )
    other_person_reason = forms.CharField(
        max_length=300,
        required=False,
        label="Not the worker of a similar name: who, and why",
        help_text="Only when asked: a payee whose name is close to a listed worker's (3.04(1)(f)).",
    )

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].queryset = ExpenseKind.objects.filter(active=True).exclude(
            source=ExpenseKind.Source.POLICE
        )
        self.fields["equipment"].queryset = Equipment.objects.filter(
            organization=occasion.organization, ownership=Equipment.Ownership.LEASED
        )
        entries = list_entries(occasion)
        paid = [e.pk for e in entries if {"bookkeeper", "accountant"} & set(e.roles)]
        entries = entries.filter(pk__in=paid)
        self.fields["worker_entry"].queryset = entries
        self.fields["worker_entry"].label_from_instance = lambda e: e.person.legal_name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("kind")
        needs_payee = kind is not None and kind.source != ExpenseKind.Source.COMPENSATION
        if needs_payee and not (data.get("payee") or "").strip():
            self.add_error("payee", "Say who was paid.")
        return data

    def service_values(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            "kind": d["kind"],
            "payee": d.get("payee") or "",
            "amount": d["amount"],
            "description": d.get("description") or "",
            "invoice_reference": d.get("invoice_reference") or "",
            "equipment": d.get("equipment"),
            "worker_entry": d.get("worker_entry"),
            "other_person_reason": d.get("other_person_reason") or "",
        }


class AmendmentForm(forms.Form):
    reason = forms.CharField(
        max_length=2000,
        min_length=10,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Why the filed report is corrected",
        error_messages={"min_length": "Say why the filed report is corrected (a sentence)."},
    )


class DisbursementForm(forms.Form):
    paid_on = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}),
        label="Paid on",
        error_messages={"invalid": "Give the date as YYYY-MM-DD."},
    )
    payee = forms.CharField(max_length=200, label="Paid to")
    purpose = forms.CharField(max_length=300, label="Lawful purpose")
    amount = MoneyField(kind=DISBURSEMENT, positive=True)
    reference = forms.CharField(max_length=100, required=False, label="Check or transfer number")

    def __init__(self, *args: Any, year: int, organization: Organization, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.year = year

    def clean_paid_on(self) -> dt.date:
        value = self.cleaned_data["paid_on"]
        if value.year != self.year:
            raise forms.ValidationError(
                f"This is the {self.year} report: give a date in {self.year}."
            )
        return value


class VoidForm(forms.Form):
    reason = forms.CharField(max_length=300, label="Why it is voided")


class StockUsedForm(forms.Form):
    """Cards of one purchase used at the occasion (and voided), from the card inventory."""

    purchase = forms.ModelChoiceField(queryset=None, label="Cards from")
    quantity_used = QuantityField(
        min_value=0,
        max_value=1_000_000,
        initial=0,
        label="Used",
        error_messages={
            "invalid": "Give a whole number of cards.",
            "min_value": "A number of cards cannot be negative.",
        },
    )
    quantity_voided = QuantityField(
        min_value=0,
        max_value=1_000_000,
        initial=0,
        label="Voided",
        error_messages={
            "invalid": "Give a whole number of cards.",
            "min_value": "A number of cards cannot be negative.",
        },
    )
    note = forms.CharField(max_length=300, required=False)

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from organizations.models import CardPurchase

        self.fields["purchase"].queryset = CardPurchase.objects.filter(
            organization=occasion.organization
        ).order_by("card_type", "invoice_date", "pk")

"""Forms of the drawer count and the gaming bank account: they parse input; the services
decide."""

from __future__ import annotations

from typing import Any

from django import forms

from banking.models import DENOMINATIONS, BankEntry
from beano.rules.money import CASH, DISBURSEMENT, MoneyField, QuantityField
from occasions.models import Occasion
from occasions.second_person import offer
from organizations.models import Organization
from reports.models import LawfulPurposeDisbursement

PIECE_PREFIX = "n_"
DATE = forms.DateInput(attrs={"type": "date"})


def _person(user: Any) -> str:
    full = user.get_full_name()
    return f"{full} ({user.get_username()})" if full else user.get_username()


class DrawerForm(forms.Form):
    """The pieces of each denomination, and the second person who verifies the count by typing
    their own password or PIN."""

    verified_by = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Count verified by",
        help_text="A second person who worked tonight; not a paid bookkeeper (3.04(1)(e), (g)).",
    )
    verifier_secret = forms.CharField(
        required=False,
        max_length=128,
        strip=False,
        label="The verifier types their own password or PIN",
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )

    def offer(self, people: list[Any]) -> None:
        """The verifiers listed: who worked that night and could confirm (``who_can_confirm``)."""
        self.offered = people
        offer(self.fields["verified_by"], people, _person)

    def __init__(self, *args: Any, verifiers: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["verified_by"]
        field.queryset = verifiers  # type: ignore[attr-defined]
        field.label_from_instance = _person  # type: ignore[attr-defined]
        self.offered: list[Any] | None = None
        for code, label, _value in DENOMINATIONS:
            self.fields[PIECE_PREFIX + code] = QuantityField(
                min_value=0,
                max_value=1_000_000,
                required=False,
                label=label,
                error_messages={
                    "invalid": "Give the number of pieces as a whole number.",
                    "min_value": "A number of pieces cannot be negative.",
                    "max_value": "That number of pieces is too large.",
                },
            )

    def piece_fields(self) -> list[forms.BoundField]:
        return [self[PIECE_PREFIX + code] for code, _label, _value in DENOMINATIONS]

    def pieces(self) -> dict[str, int | None]:
        return {code: self.cleaned_data.get(PIECE_PREFIX + code) for code, _l, _v in DENOMINATIONS}


class AccountForm(forms.Form):
    institution = forms.CharField(max_length=120, label="Bank")
    account_last4 = forms.RegexField(
        regex=r"^[0-9]{4}$",
        label="Last four digits of the account",
        error_messages={"invalid": "Give the last four digits of the account (0 to 9)."},
    )
    opened_on = forms.DateField(label="Book starts on", widget=DATE)
    opening_balance = MoneyField(kind=DISBURSEMENT, label="Balance on that day")


class DepositForm(forms.Form):
    occasion = forms.ModelChoiceField(queryset=Occasion.objects.none(), label="Occasion")
    amount = MoneyField(kind=CASH, positive=True, label="Amount deposited")
    deposited_on = forms.DateField(label="Deposited on", widget=DATE)
    slip_reference = forms.CharField(max_length=60, label="Deposit slip reference")
    late_reason = forms.CharField(
        max_length=300,
        required=False,
        label="If after the next business day: why",
    )

    def __init__(self, *args: Any, organization: Organization, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["occasion"].queryset = (  # type: ignore[attr-defined]
            Occasion.objects.filter(organization=organization, status=Occasion.Status.CLOSED)
            .filter(deposit__isnull=True)
            .order_by("-date")
        )


class BankEntryForm(forms.Form):
    kind = forms.ChoiceField(choices=BankEntry.Kind.choices, label="Paid for")
    method = forms.ChoiceField(choices=BankEntry.Method.choices)
    paid_on = forms.DateField(label="Dated", widget=DATE)
    payee = forms.CharField(max_length=200, label="Paid to")
    amount = MoneyField(kind=DISBURSEMENT, positive=True)
    reference = forms.CharField(max_length=60, label="Check number or transfer reference")
    occasion = forms.ModelChoiceField(
        queryset=Occasion.objects.none(), required=False, label="Occasion (prize or expense)"
    )
    disbursement = forms.ModelChoiceField(
        queryset=LawfulPurposeDisbursement.objects.none(),
        required=False,
        label="Lawful Purpose disbursement",
    )
    memo = forms.CharField(max_length=300, required=False)

    def __init__(self, *args: Any, organization: Organization, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["occasion"].queryset = Occasion.objects.filter(  # type: ignore[attr-defined]
            organization=organization
        ).order_by("-date")
        self.fields["disbursement"].queryset = (  # type: ignore[attr-defined]
            LawfulPurposeDisbursement.objects.filter(
                organization=organization, voided_at__isnull=True, bank_entry__isnull=True
            ).order_by("-paid_on")
        )


class ReconciliationForm(forms.Form):
    month = forms.DateField(
        label="Month",
        input_formats=["%Y-%m"],
        widget=forms.DateInput(attrs={"type": "month"}, format="%Y-%m"),
        error_messages={"invalid": "Give the month as YYYY-MM."},
    )
    statement_balance = MoneyField(kind=DISBURSEMENT, label="Statement balance at month end")
    deposits_in_transit = MoneyField(kind=DISBURSEMENT, label="+ Deposits in transit")
    outstanding_checks = MoneyField(kind=DISBURSEMENT, label="− Outstanding checks")
    explanation = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Explanation of a difference",
    )

"""Forms for equipment and the card inventory: they shape input; the services and the rules of
961 CMR 3.04(4) decide."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile

from beano.rules.money import EXPENSE, MoneyField
from beano.uploads import ContentMatchesName
from organizations.equipment_selectors import lease_authorizations_of
from organizations.forms import DateInput, _CrispyForm
from organizations.models import (
    DirectorAuthorization,
    Equipment,
    Organization,
)
from organizations.models.equipment import PROOF_EXTENSIONS, proof_validators

MAX_PROOF_BYTES = 10 * 1024 * 1024
MAX_QUANTITY = 1_000_000
MAX_SERIAL = 2_147_483_647


class ProofField(forms.FileField):
    """A scanned document: PDF, PNG or JPG by its name and by its content (``beano.uploads``),
    at most 10 MB. Proofs of ownership and invoices (961 CMR 3.04(4)(e)), raffle permits."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("validators", [*proof_validators, ContentMatchesName(PROOF_EXTENSIONS)])
        super().__init__(**kwargs)
        self.widget.attrs["accept"] = ",".join(f".{ext}" for ext in PROOF_EXTENSIONS)

    def clean(self, data: Any, initial: Any = None) -> Any:
        value = super().clean(data, initial)
        if isinstance(value, UploadedFile) and value.size > MAX_PROOF_BYTES:
            raise forms.ValidationError("The file is larger than 10 MB.")
        return value


class EquipmentForm(_CrispyForm, forms.Form):
    submit_label = "Save equipment"
    description = forms.CharField(max_length=200, help_text="e.g. 'Blower, Bingo King Gold'.")
    kind = forms.ChoiceField(choices=Equipment.Kind.choices)
    serial_number = forms.CharField(max_length=100, required=False)
    ownership = forms.ChoiceField(
        choices=Equipment.Ownership.choices, widget=forms.RadioSelect, initial="owned"
    )
    proof_of_ownership = ProofField(
        label="Proof of ownership (file)",
        help_text="Bill of sale or receipt: PDF, PNG or JPG. 961 CMR 3.04(4)(e).",
    )
    proof_reference = forms.CharField(
        max_length=100,
        required=False,
        label="Proof of ownership (reference)",
        help_text="Or where the paper proof is kept, e.g. 'Bill of sale 2019-0311'.",
    )
    lessor = forms.CharField(max_length=200, required=False, help_text="Leased equipment only.")
    lease_authorization = forms.ModelChoiceField(
        queryset=DirectorAuthorization.objects.none(),
        required=False,
        label="Director's approval of the lease",
        help_text="Leased equipment only. 961 CMR 3.04(4)(a).",
    )
    rental_fee = MoneyField(
        kind=EXPENSE,
        required=False,
        label="Rental fee ($)",
        help_text="The lease's sum certain, in dollars.",
    )
    pays_service_charge = forms.BooleanField(
        required=False, label="We pay a 'service charge' for this equipment"
    )
    supplies_tie_in = forms.BooleanField(
        required=False, label="It was given to us in return for buying our supplies"
    )
    in_good_repair = forms.BooleanField(
        required=False, initial=True, label="In good repair and sound working condition"
    )

    def __init__(self, *args: Any, organization: Organization, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["lease_authorization"].queryset = lease_authorizations_of(organization)
        self.helper = self._helper()

    @staticmethod
    def initial_for(equipment: Equipment) -> dict[str, Any]:
        names = [
            "description",
            "kind",
            "serial_number",
            "ownership",
            "proof_reference",
            "lessor",
            "lease_authorization",
            "rental_fee",
            "pays_service_charge",
            "supplies_tie_in",
            "in_good_repair",
        ]
        return {name: getattr(equipment, name) for name in names}


class RetireEquipmentForm(_CrispyForm, forms.Form):
    submit_label = "Retire from use"
    retired_on = forms.DateField(widget=DateInput, initial=dt.date.today, label="Out of use from")
    reason = forms.CharField(max_length=200, required=False, help_text="e.g. 'sold', 'broken'.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = self._helper()
        self.helper.inputs[0].field_classes = "btn btn-danger btn-lg"

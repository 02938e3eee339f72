"""The Commission admin's onboarding forms: they shape input (the weekdays as boxes, the hours
as times, the Director's letter checked by its content); the services decide and save."""

from __future__ import annotations

import datetime as dt
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.core.validators import FileExtensionValidator
from django.utils import timezone

from beano.rules.authorizations import AuthorizationKind
from beano.uploads import ContentMatchesName
from games.models import Arrangement
from organizations.equipment_forms import ProofField
from organizations.forms import DateInput
from organizations.models import WEEKDAY_NAMES, DirectorAuthorization, Organization

LETTER_EXTENSIONS = ["pdf", "png", "jpg", "jpeg", "tif", "tiff"]


class TimeInput(forms.TimeInput):
    input_type = "time"


def _no_tag() -> FormHelper:
    helper = FormHelper()
    helper.form_tag = False
    return helper


class OrganizationForm(forms.ModelForm):
    class Meta:
        model = Organization
        fields = [
            "name",
            "kind",
            "founded_on",
            "street",
            "town",
            "zip_code",
            "telephone",
            "federal_id",
        ]
        widgets = {"founded_on": DateInput}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = _no_tag()

    def validate_unique(self) -> None:
        """The service checks the row whole (a name already licensed is refused there)."""


class LicenseForm(forms.Form):
    number = forms.CharField(label="License number", max_length=40)
    valid_from = forms.DateField(widget=DateInput)
    valid_to = forms.DateField(widget=DateInput)
    authorized_weekdays = forms.TypedMultipleChoiceField(
        label="Authorized weekdays",
        choices=list(enumerate(WEEKDAY_NAMES)),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        help_text="The days of the week the license authorizes Beano.",
    )
    start_time = forms.TimeField(
        widget=TimeInput, required=False, help_text="The hours, if the license states them."
    )
    end_time = forms.TimeField(widget=TimeInput, required=False)
    premises_name = forms.CharField(label="Premises", max_length=200)
    premises_address = forms.CharField(max_length=300)
    local_licensing_authority = forms.CharField(
        max_length=200, help_text="e.g. the Select Board of the town."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = _no_tag()
        year = timezone.localdate().year
        self.fields["valid_from"].initial = dt.date(year, 1, 1)
        self.fields["valid_to"].initial = dt.date(year, 12, 31)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("valid_from"), data.get("valid_to")
        if start and end and end < start:
            self.add_error("valid_to", "A license cannot end before it starts.")
        if bool(data.get("start_time")) != bool(data.get("end_time")):
            self.add_error("end_time", "Give both the start and the end of the hours, or neither.")
        return data


class AuthorizationForm(forms.Form):
    kind = forms.ChoiceField(choices=AuthorizationKind.choices, label="What it authorizes")
    reference_number = forms.CharField(max_length=60, help_text="The letter's reference.")
    subject = forms.CharField(
        max_length=300, help_text="What it authorizes, e.g. the lessor and fee, or the patterns."
    )
    valid_from = forms.DateField(widget=DateInput)
    valid_to = forms.DateField(
        widget=DateInput, required=False, help_text="Leave empty: until revoked."
    )
    person_name = forms.CharField(
        label="Person's legal name",
        max_length=200,
        required=False,
        help_text="Only for an authorization granted to one person (3.04(1)(c), (1)(g), (1)(h), "
        "(2)).",
    )
    person_born = forms.DateField(label="Person's date of birth", widget=DateInput, required=False)
    granted_by = forms.CharField(max_length=200, required=False, label="Signed by")
    document = ProofField(
        label="The Director's letter",
        required=True,
        validators=[
            FileExtensionValidator(LETTER_EXTENSIONS),
            ContentMatchesName(LETTER_EXTENSIONS),
        ],
        help_text="The scanned letter: PDF, PNG, JPEG or TIFF, at most 10 MB.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = _no_tag()
        self.fields["document"].widget.attrs["accept"] = ",".join(
            f".{e}" for e in LETTER_EXTENSIONS
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("valid_from"), data.get("valid_to")
        if start and end and end < start:
            self.add_error("valid_to", "It cannot end before it starts.")
        return data


class ArrangementGrantForm(forms.Form):
    authorization = forms.ModelChoiceField(
        queryset=DirectorAuthorization.objects.none(),
        label="The Director's letter",
        help_text="A letter of this organization authorizing permissible winning arrangements.",
    )
    arrangements = forms.ModelMultipleChoiceField(
        queryset=Arrangement.objects.order_by("name"),
        widget=forms.CheckboxSelectMultiple,
        label="Arrangements it authorizes",
    )

    def __init__(self, *args: Any, organization: Organization, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = _no_tag()
        self.fields["authorization"].queryset = DirectorAuthorization.objects.filter(
            organization=organization,
            kind=AuthorizationKind.WINNING_ARRANGEMENT,
            revoked_on__isnull=True,
        ).order_by("-valid_from")

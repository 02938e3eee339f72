"""Forms only shape input; the services decide and save."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpResponse

from organizations.models import Membership, Organization


def show_refusal(form: forms.Form, error: ValidationError) -> None:
    """Put a service's refusal on the form, field by field where it names a field of the form;
    a RuleViolation's messages each start with the citation of the paragraph that refused."""
    if hasattr(error, "error_dict"):
        for name, errors in error.error_dict.items():
            for e in errors:
                form.add_error(name if name in form.fields else None, e)
    else:
        for message in error.messages:
            form.add_error(None, message)


def show_above(form: forms.Form, error: ValidationError) -> None:
    """Put each message of a service's refusal above the form, whatever field it names (a
    ``show`` of ``submit`` for a form whose fields are not the service's)."""
    for message in error.messages:
        form.add_error(None, message)


def submit(
    form: forms.Form | None,
    act: Callable[[dict[str, Any]], Any],
    *,
    done: Callable[[Any], HttpResponse],
    again: Callable[[], HttpResponse] | None = None,
    show: Callable[[forms.Form, ValidationError], None] = show_refusal,
    refused: Callable[[ValidationError], HttpResponse] | None = None,
) -> HttpResponse:
    """A page's form handed to its service, the one way a view does it: on valid input ``act``
    runs with the cleaned values and ``done`` answers with what it returned; bad input, or the
    service's refusal put on the form (``show``: by default ``show_refusal``), comes back through
    ``again`` with nothing saved. ``refused``: the refusal answered otherwise (a message and back
    to the list, an htmx part, a status of its own). ``form`` None: an act of a button with
    nothing typed; ``act`` runs with no values and a refusal goes to ``refused``.
    tests/test_one_submit.py fails on a view that catches a refusal itself."""
    if form is None or form.is_valid():
        try:
            result = act({} if form is None else form.cleaned_data)
        except ValidationError as error:
            if refused is not None:
                return refused(error)
            if form is None:
                raise
            show(form, error)
        else:
            return done(result)
    if again is None:
        raise ValueError("submit() with a form needs again=, the page with the form.")
    return again()


class _CrispyForm:
    submit_label = "Save"

    def _helper(self) -> FormHelper:
        helper = FormHelper()
        helper.add_input(Submit("submit", self.submit_label, css_class="btn-lg"))
        return helper


class OrganizationDetailsForm(_CrispyForm, forms.ModelForm):
    class Meta:
        model = Organization
        fields = ["street", "town", "zip_code", "telephone", "federal_id"]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.helper = self._helper()


class DateInput(forms.DateInput):
    input_type = "date"


class AddMemberForm(_CrispyForm, forms.Form):
    submit_label = "Add to the membership list"
    legal_name = forms.CharField(max_length=200)
    date_of_birth = forms.DateField(widget=DateInput)
    commission_worker_id = forms.CharField(
        label="Commission worker ID", max_length=40, required=False
    )
    kind = forms.ChoiceField(choices=Membership.Kind.choices, label="Standing")
    family_of = forms.ModelChoiceField(
        queryset=Membership.objects.none(),
        required=False,
        label="Immediate family member of",
        help_text="Only for an immediate family member: the member in good standing.",
    )
    relationship = forms.CharField(max_length=60, required=False)
    since = forms.DateField(widget=DateInput, initial=dt.date.today)

    def __init__(self, *args: object, organization: Organization, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["family_of"].queryset = (
            Membership.objects.filter(organization=organization)
            .exclude(kind=Membership.Kind.FAMILY)
            .select_related("person")
        )
        self.fields["family_of"].label_from_instance = lambda m: m.person.legal_name
        self.helper = self._helper()

    def clean_date_of_birth(self) -> dt.date:
        born = self.cleaned_data["date_of_birth"]
        if born > dt.date.today():
            raise forms.ValidationError("A date of birth cannot be in the future.")
        if born.year < 1900:
            raise forms.ValidationError("Check the year of birth.")
        return born


class MembershipForm(_CrispyForm, forms.Form):
    submit_label = "Save standing"
    kind = forms.ChoiceField(choices=Membership.Kind.choices, label="Standing")
    relationship = forms.CharField(max_length=60, required=False)
    until = forms.DateField(widget=DateInput, required=False, label="Membership ended on")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.helper = self._helper()

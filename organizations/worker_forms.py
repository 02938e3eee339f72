"""Forms for the worker list pages: they only shape input; the worker services decide and save."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms

from beano.rules.workers import WorkerRole
from organizations.forms import DateInput, _CrispyForm
from organizations.models import Membership, Organization, Person, WorkerListEntry


def _people(organization: Organization) -> forms.ModelChoiceField:
    field = forms.ModelChoiceField(
        queryset=Person.objects.filter(memberships__organization=organization).order_by(
            "legal_name"
        ),
        label="Person",
        help_text="From the organization's membership list (961 CMR 3.04(1)(b)).",
        widget=forms.Select(attrs={"class": "form-select-lg"}),
    )
    kinds = dict(
        Membership.objects.filter(organization=organization).values_list("person_id", "kind")
    )
    labels = dict(Membership.Kind.choices)
    field.label_from_instance = lambda p: f"{p.legal_name} — {labels.get(kinds.get(p.pk), '')}"
    return field


class WorkerEntryForm(_CrispyForm, forms.Form):
    """A person's place on the list: roles, identification, pay and attestation."""

    submit_label = "Save"
    roles = forms.MultipleChoiceField(
        choices=WorkerRole.choices,
        widget=forms.CheckboxSelectMultiple,
        help_text="Each role is checked against 961 CMR 3.04(1)(a)–(i).",
    )
    identification = forms.CharField(
        label="Badge or ID number",
        max_length=60,
        required=False,
        help_text="961 CMR 3.04(1)(d): displayed while working. Without one, the worker cannot "
        "be signed in at an occasion.",
    )
    compensated = forms.BooleanField(
        required=False,
        label="Receives compensation",
        help_text="961 CMR 3.04(1)(f)–(g): only a bookkeeper or accountant may be paid.",
    )
    compensation_note = forms.CharField(
        max_length=200, required=False, label="What is paid, for which services"
    )
    good_moral_character_attested = forms.BooleanField(
        required=False,
        label="Good moral character attested",
        help_text="961 CMR 3.04(1)(i): required of a caller or assistant to the caller.",
    )
    attested_by = forms.CharField(max_length=200, required=False, label="Attested by")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = self._helper()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("good_moral_character_attested") and not data.get("attested_by", "").strip():
            self.add_error("attested_by", "Name who attests good moral character.")
        return data


class AddWorkerForm(WorkerEntryForm):
    submit_label = "Add to the worker list"
    field_order = ["person", "roles", "identification", "added_on"]
    added_on = forms.DateField(widget=DateInput, label="On the list from")

    def __init__(self, *args: Any, organization: Organization, year: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.year = year
        person = self.fields["person"] = _people(organization)
        # Someone on the year's list now is not offered again; someone taken off it this year is
        # (the services put the same entry back).
        listed = WorkerListEntry.objects.filter(
            worker_list__organization=organization,
            worker_list__year=year,
            removed_on__isnull=True,
        )
        person.queryset = person.queryset.exclude(pk__in=listed.values("person_id"))
        person.help_text = (
            f"A member who is not already on the {year} worker list (961 CMR 3.04(1)(b)). "
            "Someone new goes on the membership list first."
        )
        person.error_messages["invalid_choice"] = (
            f"Choose a member of the organization who is not already on the {year} worker list."
        )
        self.order_fields(self.field_order)

    def clean_added_on(self) -> dt.date:
        day = self.cleaned_data["added_on"]
        if day.year != self.year:
            raise forms.ValidationError(f"The day must fall in {self.year}.")
        return day


class RemoveWorkerForm(_CrispyForm, forms.Form):
    submit_label = "Remove from the list"
    removed_on = forms.DateField(
        widget=DateInput,
        label="Off the list from",
        help_text="From this day the person may not conduct or assist in Beano (3.04(1)(b)).",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = self._helper()


class ConvictionForm(_CrispyForm, forms.Form):
    submit_label = "Record the conviction"
    convicted_on = forms.DateField(widget=DateInput, label="Convicted on")
    traffic_only = forms.BooleanField(
        required=False,
        label="A traffic violation only",
        help_text="961 CMR 3.04(1)(i): a traffic violation does not bar a caller.",
    )
    description = forms.CharField(max_length=300)

    def __init__(self, *args: Any, organization: Organization, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["person"] = _people(organization)
        self.order_fields(["person", "convicted_on", "traffic_only", "description"])
        self.helper = self._helper()

"""Forms of the floor pages: they only shape input; the services judge it."""

from __future__ import annotations

from typing import Any

from django import forms

from beano.rules.opening import ITEM_CHOICES
from beano.rules.workers import WorkerRole
from occasions import floor_selectors
from occasions.models import Occasion, WorkerPresence


def request_key_field() -> forms.UUIDField:
    """The key the browser made for one submission from the floor (occasions/submissions.py),
    so that the same submission sent again is recorded once. Blank without JavaScript."""
    return forms.UUIDField(
        required=False,
        widget=forms.HiddenInput,
        label="This entry's key",
        error_messages={"invalid": "Not a key this page made: reload the page and enter it again."},
    )


class CheckForm(forms.Form):
    item = forms.ChoiceField(choices=ITEM_CHOICES)
    confirmed = forms.BooleanField(required=False)


class SignInForm(forms.Form):
    entry = forms.ModelChoiceField(
        queryset=None,  # type: ignore[arg-type]  # set per occasion
        error_messages={"invalid_choice": "Choose a person on this year's worker list."},
    )
    role = forms.ChoiceField(choices=WorkerRole.choices)
    identification = forms.CharField(max_length=60, required=False)

    def __init__(self, *args: Any, occasion: Occasion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = floor_selectors.list_entries(occasion)


class HandoverForm(forms.Form):
    to_presence = forms.ModelChoiceField(
        queryset=None,  # type: ignore[arg-type]  # set per occasion
        label="Hand over to",
        error_messages={"invalid_choice": "Choose a member in charge who is present."},
    )
    reason = forms.CharField(max_length=200)

    def __init__(
        self, *args: Any, occasion: Occasion, current: WorkerPresence | None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        designees = (
            floor_selectors.presences(occasion).present().filter(role=WorkerRole.MEMBER_IN_CHARGE)
        )
        if current is not None:
            designees = designees.exclude(pk=current.pk)
        field = self.fields["to_presence"]
        field.queryset = designees
        field.label_from_instance = lambda p: f"{p.entry.person.legal_name} ({p.identification})"

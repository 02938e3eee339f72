"""The people pages' forms: an invitation, a login's roles, the Commission's invitation of a
head of organization, and the password an invited person chooses."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.password_validation import password_validators_help_text_html

from organizations.forms import _CrispyForm
from organizations.models import Organization, Person, Role
from organizations.people import ROLES_A_HEAD_GIVES

ROLE_CHOICES = [(role.value, role.label) for role in ROLES_A_HEAD_GIVES]


class InviteForm(_CrispyForm, forms.Form):
    submit_label = "Send the invitation"
    person = forms.ModelChoiceField(
        queryset=Person.objects.none(),
        label="Person",
        help_text="From the member list: add them there first if they are not on it.",
    )
    email = forms.EmailField(label="E-mail address", help_text="The invitation goes there.")
    roles = forms.MultipleChoiceField(
        choices=ROLE_CHOICES, widget=forms.CheckboxSelectMultiple, label="Roles"
    )

    def __init__(self, *args: Any, organization: Organization, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = Person.objects.filter(
            memberships__organization=organization
        ).order_by("legal_name")
        self.helper = self._helper()


class RolesForm(_CrispyForm, forms.Form):
    submit_label = "Save the roles"
    roles = forms.MultipleChoiceField(
        choices=ROLE_CHOICES, widget=forms.CheckboxSelectMultiple, label="Roles"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = self._helper()


class InviteHeadForm(_CrispyForm, forms.Form):
    submit_label = "Invite the head of organization"
    organization = forms.ModelChoiceField(queryset=Organization.objects.order_by("name"))
    email = forms.EmailField(label="The head's e-mail address")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = self._helper()

    def values(self) -> dict[str, Any]:
        return {
            "organization": self.cleaned_data["organization"],
            "email": self.cleaned_data["email"],
            "roles": [Role.HEAD],
        }


class ChoosePasswordForm(_CrispyForm, forms.Form):
    submit_label = "Save my password and log in"
    password1 = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password", "autofocus": True}),
        help_text=password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="The same password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = self._helper()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", "The two passwords differ.")
        return data

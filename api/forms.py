"""The form where a token is made: a head's for the organization's devices and systems (read,
floor, night files), a Commission admin's for the Commission's systems (Commission read)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model

from api import tokens
from api.models import ApiToken
from beano.rules.money import QuantityField
from organizations.models import Organization, OrganizationRole

#: Everyone a token of the organization may act as, whatever its scope (the service judges
#: whether the one chosen fits the scope chosen).
_ACTING_ROLES = sorted({role for roles in tokens.ACTS_AS_ROLES.values() for role in roles})


def acting_people(organization: Organization) -> list[tuple[Any, str]]:
    """The organization's active logins a floor or night-file token may act as, each with a
    label naming them and their roles, by name."""
    held: dict[int, list[str]] = {}
    for role in (
        OrganizationRole.objects.filter(
            organization=organization, role__in=_ACTING_ROLES, user__is_active=True
        )
        .select_related("user")
        .order_by("pk")
    ):
        held.setdefault(role.user_id, []).append(role.get_role_display())
    users = get_user_model().objects.filter(pk__in=held)
    people = []
    for user in users:
        name = user.get_full_name() or user.get_username()
        roles = ", ".join(sorted(set(held[user.pk])))
        people.append((user, f"{name} ({user.get_username()}): {roles}"))
    return sorted(people, key=lambda p: p[1].casefold())


def scope_name(scope: ApiToken.Scope) -> str:
    """A scope's name without its explanation: "read", "floor", "night files"."""
    return str(scope.label).split(":")[0].lower()


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=80, help_text="What will use it: “Door point of sale”, “Flashboard, hall B”."
    )
    scope = forms.ChoiceField(label="What it may do", widget=forms.RadioSelect)
    acts_as = forms.TypedChoiceField(
        label="Whose acts they are (floor and night-file tokens)",
        coerce=int,
        empty_value=None,
        required=False,
        help_text="For floor and night-file tokens only: the device records its acts as this "
        "person, as if the hall laptop had been handed to them. A floor token acts as a head, "
        "a member in charge or a worker (the door's seller, the caller); a night-file token as "
        "a bookkeeper or a head. Left empty for a read token.",
    )
    acts_as_secret = forms.CharField(
        label="Their own PIN or password (floor and night-file tokens)",
        max_length=128,
        strip=False,
        required=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text="Typed by that person themselves, to agree that the device's acts are "
        "theirs: like handing them the hall laptop. It is checked, never kept.",
    )
    rate_per_minute = QuantityField(
        label="Requests a minute",
        min_value=1,
        max_value=tokens.MOST_RATE,
        required=False,
    )

    def __init__(self, *args: Any, organization: Organization | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.people: dict[int, Any] = {}
        if organization is None:  # the Commission's
            scopes = [ApiToken.Scope.COMMISSION_READ]
            del self.fields["acts_as"], self.fields["acts_as_secret"]
            self.fields["name"].help_text = "What will use it: “Commission data warehouse”."
        else:
            scopes = [ApiToken.Scope.READ, ApiToken.Scope.FLOOR, ApiToken.Scope.NIGHT_FILES]
            people = acting_people(organization)
            self.people = {user.pk: user for user, _ in people}
            self.fields["acts_as"].choices = [("", "Nobody: a read token")] + [
                (user.pk, label) for user, label in people
            ]
            self.fields["acts_as"].error_messages["invalid_choice"] = (
                "Choose one of the organization's people listed (a head, member in charge, "
                "bookkeeper or worker with a login)."
            )
        self.fields["scope"].choices = [(s.value, s.label) for s in scopes]
        usual = ", ".join(f"{scope_name(s)} {tokens.DEFAULT_RATE[s]}" for s in scopes)
        self.fields[
            "rate_per_minute"
        ].help_text = (
            f"How many it may make before it is told to wait. Empty: the usual rate ({usual})."
        )
        self.fields["scope"].error_messages["invalid_choice"] = "Choose one of the scopes listed."
        self.fields["scope"].error_messages["required"] = "Choose what the token may do."
        self.fields["scope"].initial = scopes[0].value
        self.fields["name"].error_messages["required"] = (
            "Name the token by what uses it: “Door point of sale”."
        )
        rate = f"A whole number of requests a minute, from 1 to {tokens.MOST_RATE}."
        for code in ("invalid", "min_value", "max_value"):
            self.fields["rate_per_minute"].error_messages[code] = rate

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("scope") in tokens.ACTS_AS_ROLES:
            chosen = data.get("acts_as")
            data["acts_as"] = self.people.get(chosen) if chosen is not None else None
            data["acts_as_secret"] = data.get("acts_as_secret") or ""
        else:  # a read token acts as nobody: whatever was chosen or typed there is ignored
            self._errors.pop("acts_as", None)
            data.pop("acts_as", None)
            data.pop("acts_as_secret", None)
        return data

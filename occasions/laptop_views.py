"""The page that hands the hall laptop to a worker of the night, or back (``occasions.laptop``):
the member in charge's session, whoever is at the laptop now."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from occasions import laptop
from occasions.floor_bar import floor_bar
from occasions.views import get_occasion
from organizations.access import OrgRequest, org_view
from organizations.forms import submit
from organizations.models import OrganizationRole

#: The page is open to whoever is at the laptop (a worker hands it back); the session's login
#: must run the night (``laptop.HANDS_IT``), checked in the view.


class LaptopForm(forms.Form):
    to = forms.TypedChoiceField(coerce=int, label="Who takes the laptop", widget=forms.RadioSelect)
    secret = forms.CharField(
        label="Their PIN or password",
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text="Typed by the one who takes the laptop, as a second person confirms.",
    )

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["to"].choices = choices
        self.fields["to"].error_messages["invalid_choice"] = (
            "Choose someone signed in on the floor tonight."
        )


def _login(request: OrgRequest) -> Any:
    """The session's login (the page may be answered for the worker at the laptop)."""
    return getattr(request, "laptop_login", request.user)


def _choices(occasion: Any, login: Any, at_laptop: Any) -> tuple[list[tuple[int, str]], dict]:
    takers = laptop.takers(occasion, exclude=at_laptop)
    users = {t.user.pk: t.user for t in takers}
    choices = [(t.user.pk, t.label) for t in takers if t.user.pk != login.pk]
    if at_laptop.pk != login.pk:
        name = f"{login.get_full_name() or login.get_username()} ({login.get_username()})"
        choices.insert(0, (login.pk, f"{name}: back to the session's login"))
        users[login.pk] = login
    return choices, users


@org_view()
def hand_laptop(request: OrgRequest, pk: int) -> HttpResponse:
    """Who is at the laptop; POST hands it to the one chosen, confirmed by their credential."""
    access = request.access
    occasion = get_occasion(access, pk)
    login = _login(request)
    held = OrganizationRole.objects.filter(
        user=login, organization=access.organization, role__in=laptop.HANDS_IT
    )
    if not held.exists():
        raise PermissionDenied("Only the member in charge's session hands the laptop over.")
    choices, users = _choices(occasion, login, request.user)
    form = LaptopForm(request.POST or None, choices=choices)

    def page() -> HttpResponse:
        return render(
            request,
            "occasions/laptop.html",
            {
                "org": access.organization,
                "access": access,
                "occasion": occasion,
                "floor": floor_bar(occasion, ""),
                "form": form,
                "login": login,
                "on_the_day": occasion.records_on(timezone.localdate()),
            },
        )

    def hand(data: dict[str, Any]) -> tuple[Any, str]:
        to = users[data["to"]]
        name = laptop.hand_laptop(
            occasion=occasion, to=to, secret=data["secret"], at_laptop=request.user, by=login
        )
        return to, name

    def done(handed: tuple[Any, str]) -> HttpResponse:
        to, name = handed
        laptop.remember(request, occasion, to, name, login)
        messages.success(request, f"{name} is at the laptop.")
        return redirect("door_sales", org_id=access.organization.pk, pk=occasion.pk)

    return submit(form, hand, done=done, again=page, show=_refused)


def _refused(form: LaptopForm, error: ValidationError) -> None:
    """The refusal shown in place, the focus on the credential to type again (never typed
    back)."""
    form.data = form.data.copy()
    form.data["secret"] = ""
    form.fields["secret"].widget.attrs["autofocus"] = True
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            for message in errors:
                form.add_error(field if field in form.fields else None, message)
    else:
        for message in error.messages:
            form.add_error(None, message)

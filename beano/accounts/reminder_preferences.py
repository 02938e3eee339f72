"""A user's choice of the optional reminders (``OptionalReminder``) they are e-mailed: kept on
their account page, read by the reminder task (reports/reminders.py)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from django import forms
from django.db import transaction

from beano.accounts.models import OptionalReminder, ReminderOptOut


def opted_out(user: Any) -> set[str]:
    return set(ReminderOptOut.objects.filter(user=user).values_list("kind", flat=True))


def opted_out_by_user(user_ids: Iterable[int]) -> dict[int, set[str]]:
    """The optional reminders each of these users turned off: one query."""
    out: dict[int, set[str]] = {}
    for user_id, kind in ReminderOptOut.objects.filter(user_id__in=list(user_ids)).values_list(
        "user_id", "kind"
    ):
        out.setdefault(user_id, set()).add(kind)
    return out


@transaction.atomic
def set_wanted(*, user: Any, wanted: Collection[str]) -> set[str]:
    """Keep the optional reminders ``wanted`` and turn off the others; returns those off."""
    unknown = set(wanted) - set(OptionalReminder.values)
    if unknown:
        raise ValueError(f"not an optional reminder: {sorted(unknown)}")
    off = set(OptionalReminder.values) - set(wanted)
    ReminderOptOut.objects.filter(user=user).exclude(kind__in=off).delete()
    for kind in off:
        ReminderOptOut.objects.get_or_create(user=user, kind=kind)
    return off


class ReminderChoiceForm(forms.Form):
    wanted = forms.MultipleChoiceField(
        label="E-mail me these reminders",
        choices=OptionalReminder.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="A report due today or late, and the notice owed before play resumes after "
        "two nights not played, are always e-mailed to the head and the bookkeeper.",
    )

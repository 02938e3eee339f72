from __future__ import annotations

from typing import Any

from django import forms

from api import tokens
from api.models import ApiToken


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=80, help_text="What will use it: “Door point of sale”, “Flashboard, hall B”."
    )
    scope = forms.ChoiceField()
    rate_per_minute = forms.IntegerField(
        min_value=1,
        max_value=tokens.MOST_RATE,
        required=False,
        help_text="Requests a minute before it is told to wait. Empty: the scope's usual rate.",
    )

    def __init__(self, *args: Any, commission: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        scopes = (
            [ApiToken.Scope.COMMISSION_READ]
            if commission
            else [ApiToken.Scope.READ, ApiToken.Scope.FLOOR]
        )
        self.fields["scope"].choices = [(s.value, s.label) for s in scopes]

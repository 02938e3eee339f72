"""Forms of the caller's console: they only shape input; the services decide."""

from __future__ import annotations

from django import forms

from games.draw_services import REASON_MAX
from occasions.floor_forms import request_key_field


class BallForm(forms.Form):
    """One ball as typed (42 or N42) or tapped on the board."""

    ball = forms.CharField(
        max_length=8,
        error_messages={"required": "Enter the ball called: 42 or N42."},
    )
    request_key = request_key_field()


class CorrectionForm(forms.Form):
    """Left optional here: a missing reason is refused by the rule, with its citation."""

    reason = forms.CharField(max_length=REASON_MAX, required=False)

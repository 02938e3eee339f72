"""The one form of the second factor: a code from the authenticator app."""

from __future__ import annotations

from django import forms


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Code from your authenticator app",
        max_length=9,
        help_text="Six digits; a new code appears every 30 seconds.",
        widget=forms.TextInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "one-time-code",
                "autofocus": True,
                "pattern": "[0-9 ]*",
                "class": "form-control-lg font-monospace",
                "size": 9,
            }
        ),
    )

    def clean_code(self) -> str:
        code = self.cleaned_data["code"].replace(" ", "")
        if not (code.isdigit() and len(code) == 6):
            raise forms.ValidationError("Type the six digits your app shows.")
        return code

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


class PinForm(forms.Form):
    """A personal PIN for confirming two-person acts on the hall laptop, set after the current
    password (so nobody sets one for a person who left the laptop signed in)."""

    current_password = forms.CharField(
        label="Your current password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    pin = forms.CharField(
        label="New PIN",
        max_length=8,
        strip=False,
        help_text="4 to 8 digits, not all the same nor in a row.",
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    pin_again = forms.CharField(
        label="The PIN again",
        max_length=8,
        strip=False,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def clean(self) -> dict[str, str]:
        data = super().clean()
        if data.get("pin") and data.get("pin") != data.get("pin_again"):
            self.add_error("pin_again", "The two PINs are not the same.")
        return data

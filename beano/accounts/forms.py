"""The sign-in forms: a code from the authenticator app; the login and the password change,
whose passwords are proved through ``authenticate()`` and may be refused unchecked (a wait, a
lock: ``THROTTLED``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from beano.accounts.ceiling import refusal_of
from beano.accounts.recovery import looks_like_recovery_code, normalized

#: The error code of a password refused unchecked (a wait, a lock).
THROTTLED = "throttled"


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


class VerifyForm(CodeForm):
    """The login's second step: the app's code, or one of the printed recovery codes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        code = self.fields["code"]
        code.label = "Code from your authenticator app"
        code.help_text = (
            "Six digits; a new code appears every 30 seconds. Lost your phone? Type one of your "
            "printed recovery codes instead."
        )
        code.widget.attrs.update({"inputmode": "text", "pattern": "[0-9A-Za-z -]*"})

    def clean_code(self) -> str:
        code = normalized(self.cleaned_data["code"])
        if not (code.isdigit() and len(code) == 6) and not looks_like_recovery_code(code):
            raise forms.ValidationError(
                "Type the six digits your app shows, or a recovery code (eight letters and digits)."
            )
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


class SignInForm(AuthenticationForm):
    """Django's login form, saying why when the password was not even checked."""

    def get_invalid_login_error(self) -> ValidationError:
        refusal = refusal_of(self.request)
        if refusal is not None:
            return ValidationError(refusal.message, code=THROTTLED)
        return super().get_invalid_login_error()


class CurrentPasswordChangeForm(PasswordChangeForm):
    """Django's password change form, whose current password is proved as a login's is: by
    ``authenticate()``, under the address lock and the account's ceiling (``backends.py``),
    instead of ``check_password``, which nothing limits."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        proved = authenticate(
            self.request, username=self.user.get_username(), password=old_password
        )
        if proved is None or proved.pk != self.user.pk:
            refusal = refusal_of(self.request)
            if refusal is not None:
                raise ValidationError(refusal.message, code=THROTTLED)
            raise ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password

"""The login and the password change (their passwords under the lockout rules), the account
page and the second factor (verify, set up, turn off)."""

from __future__ import annotations

import time
from base64 import b32encode
from typing import Any

import django_otp
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_otp.plugins.otp_totp.models import TOTPDevice, default_key

from beano.accounts import recovery
from beano.accounts.ceiling import refusal_of
from beano.accounts.forms import (
    CodeForm,
    CurrentPasswordChangeForm,
    PinForm,
    SignInForm,
    VerifyForm,
)
from beano.accounts.middleware import LAST_ACTIVITY_KEY, idle_seconds_left
from beano.accounts.models import OptionalReminder
from beano.accounts.pins import has_pin, set_pin
from beano.accounts.policy import (
    APP_DEVICE_NAME,
    confirmed_device,
    is_verified,
    second_factor_required,
)
from beano.accounts.qr import qr_svg
from beano.accounts.reminder_preferences import ReminderChoiceForm, opted_out, set_wanted
from organizations.access import commission_staff
from organizations.forms import submit
from organizations.models import OrganizationRole, Role


def _throttled(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A form whose password was refused unchecked (a wait, a lock: the form says which)
    answers 429 Too Many Requests, with the seconds to wait in Retry-After."""
    refusal = refusal_of(request)
    if refusal is not None:
        response.status_code = 429
        response["Retry-After"] = str(refusal.retry_after)
    return response


class SignInView(auth_views.LoginView):
    """The login page (the admin has none of its own): its password under the lockout rules."""

    authentication_form = SignInForm
    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        return _throttled(self.request, super().form_invalid(form))


class PasswordChangeView(auth_views.PasswordChangeView):
    """The password change page: its current password under the lockout rules."""

    form_class = CurrentPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_invalid(self, form: CurrentPasswordChangeForm) -> HttpResponse:
        return _throttled(self.request, super().form_invalid(form))


def _next_url(request: HttpRequest) -> str:
    """Where to go once verified: ``next`` when it stays on this site, else the dashboard."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return reverse("dashboard")


def _asked_next(request: HttpRequest) -> bool:
    return bool(request.POST.get("next") or request.GET.get("next"))


def _with_next(url_name: str, next_url: str) -> str:
    url = reverse(url_name)
    if next_url and next_url != reverse("dashboard"):
        url += "?" + urlencode({"next": next_url})
    return url


def _mark_verified(request: HttpRequest, device: TOTPDevice) -> None:
    # A new session key for the more trusted session: an old key someone saw is worth nothing.
    request.session.cycle_key()
    django_otp.login(request, device)


def _throttle_message(device: TOTPDevice) -> str | None:
    allowed, info = device.verify_is_allowed()
    if allowed:
        return None
    until = (info or {}).get("locked_until")
    if until is not None:
        wait = max(1, int((until - timezone.now()).total_seconds()) + 1)
        return f"Too many wrong codes: wait {wait} seconds, then type the newest code."
    return "Too many wrong codes: wait a little, then type the newest code."


def _check_recovery_code(form: VerifyForm, user: Any) -> Any:
    """The recovery device whose code the form holds (the code is then spent), or None."""
    device = recovery.recovery_device(user)
    if device is None:
        form.add_error("code", "You have no recovery codes: type the code your app shows.")
        return None
    throttled = _throttle_message(device)
    if throttled:
        form.add_error(None, throttled)
        return None
    if device.verify_token(form.cleaned_data["code"]):
        return device
    form.add_error("code", "That recovery code is not one of yours, or it was used already.")
    return None


def _verified_device(form: VerifyForm, user: Any, device: TOTPDevice) -> Any:
    """The device the login's second step proved: the app's, or the recovery codes'."""
    if not form.is_valid():
        return None
    if recovery.looks_like_recovery_code(form.cleaned_data["code"]):
        return _check_recovery_code(form, user)
    return device if _check_code(form, device) else None


def _check_code(form: CodeForm, device: TOTPDevice) -> bool:
    """The form's code is the device's current one; the form says why not otherwise."""
    if not form.is_valid():
        return False
    throttled = _throttle_message(device)
    if throttled:
        form.add_error(None, throttled)
        return False
    if device.verify_token(form.cleaned_data["code"]):
        return True
    form.add_error(
        "code",
        "That code is not the right one. Check that the app shows “Beano occasions” with your "
        "username, and type the code it shows now.",
    )
    return False


@never_cache
@login_required
def verify(request: HttpRequest) -> HttpResponse:
    """After the password: the code from the user's authenticator app."""
    user = request.user
    next_url = _next_url(request)
    if is_verified(user):
        return redirect(next_url)
    device = confirmed_device(user)
    if device is None:
        if second_factor_required(user):
            return redirect(_with_next("otp_setup", next_url))
        return redirect(next_url)
    form = VerifyForm(request.POST if request.method == "POST" else None)
    proved = _verified_device(form, user, device) if request.method == "POST" else None
    if proved is not None:
        _mark_verified(request, proved)
        if proved is not device:
            left = recovery.codes_left(user)
            messages.warning(
                request,
                f"You signed in with a recovery code: {left} left. Print new ones from your "
                "account page, and set up your authenticator app again if the phone is lost.",
            )
        return redirect(next_url)
    return render(
        request,
        "accounts/verify.html",
        {"form": form, "next": next_url, "required": second_factor_required(user)},
    )


def _grouped(key: bytes) -> str:
    text = b32encode(key).decode("ascii").rstrip("=")
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


#: The key of the authenticator being set up, kept in the session until a code confirms it: the
#: page shows it without writing a row (no read writes); the confirming POST saves the device.
PENDING_KEY = "beano_pending_totp_key"


def _pending_device(request: HttpRequest, user: Any, *, saved: bool) -> TOTPDevice:
    """The device being set up, with the key this session showed. Unsaved for the page; saved
    (the user's one pending row, its key the shown one) when a code is posted, so that the
    check's throttling and the confirmation are kept."""
    key = request.session.get(PENDING_KEY)
    if not key:
        key = request.session[PENDING_KEY] = default_key()
    if not saved:
        return TOTPDevice(user=user, name=APP_DEVICE_NAME, confirmed=False, key=key)
    pending = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    if pending is None:
        return TOTPDevice.objects.create(user=user, name=APP_DEVICE_NAME, confirmed=False, key=key)
    if pending.key != key:
        pending.key = key
        pending.save(update_fields=["key"])
    return pending


@never_cache
@login_required
def setup(request: HttpRequest) -> HttpResponse:
    """Enrol an authenticator app: scan the QR code (or type the key), confirm with a code.
    A user who already has one must have passed it in this session to replace it."""
    user = request.user
    next_url = _next_url(request)
    current = confirmed_device(user)
    if current is not None and not is_verified(user):
        return redirect(_with_next("otp_verify", next_url))
    pending = _pending_device(request, user, saved=request.method == "POST")
    form = CodeForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and _check_code(form, pending):
        with transaction.atomic():
            TOTPDevice.objects.filter(user=user).exclude(pk=pending.pk).delete()
            pending.confirmed = True
            pending.save(update_fields=["confirmed"])
        request.session.pop(PENDING_KEY, None)
        _mark_verified(request, pending)
        messages.success(
            request,
            "Two-factor authentication is on: each login now asks for a code from this app.",
        )
        # A first device the login asked for: on to where the user was going; one chosen or
        # replaced from the account page: back there. The recovery codes are shown first.
        if (current is None and second_factor_required(user)) or _asked_next(request):
            then = next_url
        else:
            then = reverse("account")
        return _show_new_codes(request, then)
    return render(
        request,
        "accounts/setup.html",
        {
            "form": form,
            "next": next_url if next_url != reverse("dashboard") else "",
            "qr": qr_svg(pending.config_url),
            "key": _grouped(pending.bin_key),
            "replacing": current is not None,
            "required": second_factor_required(user),
            "issuer": settings.OTP_TOTP_ISSUER,
        },
    )


RECOVERY_SESSION_KEY = "beano_recovery_codes"


def _show_new_codes(request: HttpRequest, then: str) -> HttpResponse:
    """New recovery codes, kept in the session just long enough to be shown once."""
    request.session[RECOVERY_SESSION_KEY] = {
        "codes": recovery.make_codes(request.user),
        "then": then,
    }
    return redirect("otp_recovery")


@never_cache
@login_required
def recovery_codes(request: HttpRequest) -> HttpResponse:
    """The recovery codes just made, once, to print (GET); new ones replacing them (POST)."""
    if request.method == "POST":
        if confirmed_device(request.user) is None:
            return redirect("account")
        return _show_new_codes(request, reverse("account"))
    shown = request.session.pop(RECOVERY_SESSION_KEY, None)
    if not shown:
        messages.info(request, "Recovery codes are shown once, when made: make new ones here.")
        return redirect("account")
    return render(
        request,
        "accounts/recovery_codes.html",
        {"codes": [recovery.grouped(c) for c in shown["codes"]], "then": shown["then"]},
    )


def _account_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    user = request.user
    return {
        "staff": commission_staff(user),
        "required": second_factor_required(user),
        "device": confirmed_device(user),
        "verified": is_verified(user),
        "has_pin": has_pin(user),
        "codes_left": recovery.codes_left(user),
        "pin_form": PinForm(),
        # Reminders go to heads of organization and bookkeepers: their card only for them.
        "gets_reminders": OrganizationRole.objects.filter(
            user=user, role__in=(Role.HEAD, Role.BOOKKEEPER)
        ).exists(),
        "reminder_form": ReminderChoiceForm(
            initial={"wanted": sorted(set(OptionalReminder.values) - opted_out(user))}
        ),
        **extra,
    }


@never_cache
@login_required
def account(request: HttpRequest) -> HttpResponse:
    return render(
        request, "accounts/account.html", _account_context(request, disable_form=CodeForm())
    )


@never_cache
@login_required
@require_POST
def pin(request: HttpRequest) -> HttpResponse:
    """Set or replace the personal PIN a person confirms two-person acts with."""
    form = PinForm(request.POST)

    def done(_: object) -> HttpResponse:
        messages.success(request, "Your personal PIN is set.")
        return redirect("account")

    def again() -> HttpResponse:
        context = _account_context(request, disable_form=CodeForm()) | {"pin_form": form}
        return render(request, "accounts/account.html", context, status=400)

    return submit(
        form,
        lambda data: set_pin(
            user=request.user,
            pin=data["pin"],
            current_password=data["current_password"],
            request=request,
        ),
        done=done,
        again=again,
    )


@never_cache
@login_required
@require_POST
def disable(request: HttpRequest) -> HttpResponse:
    """Turn the second factor off, with a current code; never for those who must keep it."""
    user = request.user
    if second_factor_required(user):
        raise PermissionDenied(
            "The Commission's staff, the admin's users, heads of organization and bookkeepers "
            "must keep two-factor authentication."
        )
    device = confirmed_device(user)
    if device is None:
        return redirect("account")
    form = CodeForm(request.POST)
    if _check_code(form, device):
        TOTPDevice.objects.filter(user=user).delete()
        recovery.forget(user)
        request.session.pop(django_otp.DEVICE_ID_SESSION_KEY, None)
        messages.success(request, "Two-factor authentication is off for your account.")
        return redirect("account")
    return render(
        request,
        "accounts/account.html",
        _account_context(request, disable_form=form),
        status=400,
    )


@never_cache
@login_required
@require_POST
def reminders(request: HttpRequest) -> HttpResponse:
    """Choose the optional reminders e-mailed to you (the others are always sent)."""
    form = ReminderChoiceForm(request.POST)
    if not form.is_valid():
        context = _account_context(request, disable_form=CodeForm()) | {"reminder_form": form}
        return render(request, "accounts/account.html", context, status=400)
    set_wanted(user=request.user, wanted=form.cleaned_data["wanted"])
    messages.success(request, "Your reminder choices are saved.")
    return redirect(reverse("account") + "#reminders")


@require_POST
@login_required
def stay_signed_in(request: HttpRequest) -> HttpResponse:
    """The idle warning's button: an ordinary request, which ``IdleTimeoutMiddleware`` counts as
    activity; the time left is written at once (not at most once a minute) so the warning can
    trust it."""
    request.session[LAST_ACTIVITY_KEY] = int(time.time())
    response = HttpResponse(status=204)
    response["X-Idle-Seconds"] = str(idle_seconds_left(request.session))
    return response

"""A second person confirms a two-person act on the hall laptop with their own credential: their
password or their personal PIN (4 to 8 digits, set on their account page, hashed like a
password). Wrong tries are counted per person in the shared cache, outside the refused act's
transaction (which rolls back), and too many lock that person's confirmations for a while: a PIN
cannot be guessed at the laptop."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.hashers import check_password, make_password
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest
from django.utils import timezone

from beano.accounts.backends import CeilingModelBackend
from beano.accounts.models import PersonalPin

PIN = re.compile(r"^[0-9]{4,8}$")
#: Wrong credentials in a row before a person's confirmations pause, and for how long.
MAX_TRIES = 5
PAUSE = dt.timedelta(minutes=15)


def _tries_key(user: Any) -> str:
    return f"second-person:tries:{user.pk}"


def proves_password(user: Any, password: str, request: HttpRequest | None = None) -> bool:
    """Whether ``password`` is the user's, proved as a login's is (``backends.py``): through
    ``authenticate()`` when there is a request (the address lock and the account's ceiling),
    else through the account's ceiling alone (a second person at the hall laptop, confirmed
    inside the act's service)."""
    if not password:
        return False
    username = user.get_username()
    try:
        if request is not None:
            proved = authenticate(request, username=username, password=password)
        else:
            proved = CeilingModelBackend().authenticate(None, username=username, password=password)
    except PermissionDenied:  # the account waits or is locked: nothing was checked
        return False
    return proved is not None and proved.pk == user.pk


def set_pin(
    *, user: Any, pin: str, current_password: str, request: HttpRequest | None = None
) -> PersonalPin:
    """Set (or replace) the user's personal PIN, after their current password."""
    if not proves_password(user, current_password, request):
        raise ValidationError({"current_password": "Your current password is not right."})
    if not PIN.match(pin or ""):
        raise ValidationError({"pin": "A PIN is 4 to 8 digits (0–9)."})
    if len(set(pin)) == 1 or pin in "0123456789" or pin in "9876543210":
        raise ValidationError({"pin": "Choose digits that are not all the same or in a row."})
    personal, _ = PersonalPin.objects.update_or_create(
        user=user, defaults={"pin_hash": make_password(pin), "set_at": timezone.now()}
    )
    cache.delete(_tries_key(user))
    return personal


def has_pin(user: Any) -> bool:
    return PersonalPin.objects.filter(user=user).exclude(pin_hash="").exists()


def paused(user: Any) -> bool:
    """Too many wrong tries: the person's confirmations wait (the counter expires by itself)."""
    try:
        return int(cache.get(_tries_key(user)) or 0) >= MAX_TRIES
    except Exception:  # the cache is down: no counter, no pause (the lockout stays at sign-in)
        return False


def confirms(user: Any, secret: str) -> bool:
    """Whether ``secret`` is the user's password or personal PIN. A wrong one counts against
    them; the right one clears the count. While paused, nothing confirms. A password is also
    under the account's ceiling, as at sign-in; the count here is kept in the cache because a
    refused act rolls its transaction (and the ceiling's row) back."""
    if user is None or not secret or paused(user):
        return False
    personal = PersonalPin.objects.filter(user=user).first()
    ok = bool(PIN.match(secret) and personal and check_password(secret, personal.pin_hash))
    ok = ok or (user.is_active and proves_password(user, secret))
    key = _tries_key(user)
    try:
        if ok:
            cache.delete(key)
        elif not cache.add(key, 1, int(PAUSE.total_seconds())):
            cache.incr(key)
    except Exception:  # the cache is down: the confirmation stands or fails on its own
        pass
    return ok

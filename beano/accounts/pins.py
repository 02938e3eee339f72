"""A second person confirms a two-person act on the hall laptop with their own credential: their
password or their personal PIN (4 to 8 digits, set on their account page, hashed like a
password). Wrong tries are counted per person in the shared cache, outside the refused act's
transaction (which rolls back), and too many lock that person's confirmations for a while: a PIN
cannot be guessed at the laptop."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils import timezone

from beano.accounts.models import PersonalPin

PIN = re.compile(r"^[0-9]{4,8}$")
#: Wrong credentials in a row before a person's confirmations pause, and for how long.
MAX_TRIES = 5
PAUSE = dt.timedelta(minutes=15)


def _tries_key(user: Any) -> str:
    return f"second-person:tries:{user.pk}"


def set_pin(*, user: Any, pin: str, current_password: str) -> PersonalPin:
    """Set (or replace) the user's personal PIN, after their current password."""
    if not user.check_password(current_password or ""):
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
    them; the right one clears the count. While paused, nothing confirms."""
    if user is None or not secret or paused(user):
        return False
    personal = PersonalPin.objects.filter(user=user).first()
    ok = bool(PIN.match(secret) and personal and check_password(secret, personal.pin_hash))
    ok = ok or (user.is_active and user.check_password(secret))
    key = _tries_key(user)
    try:
        if ok:
            cache.delete(key)
        elif not cache.add(key, 1, int(PAUSE.total_seconds())):
            cache.incr(key)
    except Exception:  # the cache is down: the confirmation stands or fails on its own
        pass
    return ok

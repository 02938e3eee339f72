"""A second person confirms a two-person act on the hall laptop with their own credential: their
password or their personal PIN (4 to 8 digits, set on their account page, hashed like a
password). Wrong tries are counted per person in the shared cache, outside the refused act's
transaction (which rolls back), and too many pause that person's confirmations for ``PAUSE``: a
PIN cannot be guessed at the laptop.

The pause keeps the moment it ends, read against the application's clock, and each key is
written with its own timeout: Django's ``incr`` on a cache without a native one (the file cache
of the embedded default, the database cache) sets the value again with the cache's default
timeout (300 s), so a pause kept as a count's expiry ended after 5 minutes instead of 15, and on
Redis it ran from the first wrong try instead of the one that paused."""

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
#: A count of wrong tries is forgotten this long after the last one.
COUNTED_FOR = PAUSE
#: The pause's key outlives the moment it holds, so that the moment decides, not the key's end.
KEPT_PAST_THE_END = dt.timedelta(minutes=1)


def _tries_key(user: Any) -> str:
    return f"second-person:tries:{user.pk}"


def _pause_key(user: Any) -> str:
    return _pause_key_of(user.pk)


def _pause_key_of(user_id: int) -> str:
    return f"second-person:paused-until:{user_id}"


def _seconds(delta: dt.timedelta) -> int:
    return int(delta.total_seconds())


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
    cache.delete_many([_tries_key(user), _pause_key(user)])  # they proved themselves anew
    return personal


def has_pin(user: Any) -> bool:
    return PersonalPin.objects.filter(user=user).exclude(pin_hash="").exists()


def _end(kept: Any) -> dt.datetime | None:
    """The moment a pause kept as ``kept`` ends, if it has not ended yet."""
    if kept is None:
        return None
    ends = dt.datetime.fromtimestamp(float(kept), tz=dt.UTC)
    return ends if timezone.now() < ends else None


def paused_until(user: Any) -> dt.datetime | None:
    """When the person's confirmations may start again, while too many wrong tries pause them."""
    try:
        return _end(cache.get(_pause_key(user)))
    except Exception:  # the cache is down: no counter, no pause (the lockout stays at sign-in)
        return None


def paused(user: Any) -> bool:
    return paused_until(user) is not None


def paused_among(user_ids: list[int]) -> set[int]:
    """Which of these people are paused now, read in one round trip to the cache (for the
    lists of who can confirm)."""
    keys = {_pause_key_of(pk): pk for pk in user_ids}
    try:
        kept = cache.get_many(list(keys))
    except Exception:
        return set()
    return {keys[key] for key, value in kept.items() if _end(value) is not None}


def count_wrong_try(user: Any) -> None:
    """One more wrong try for ``user``; the ``MAX_TRIES``-th in a row pauses them for ``PAUSE``
    from now. The count is kept ``COUNTED_FOR`` after the last wrong try whatever the backend
    (``touch`` after ``incr``, which some set again with the default timeout)."""
    key = _tries_key(user)
    counted_for = _seconds(COUNTED_FOR)
    if cache.add(key, 1, counted_for):
        tries = 1
    else:
        try:
            tries = cache.incr(key)
        except ValueError:  # forgotten between the two: this try starts the count again
            cache.add(key, 1, counted_for)
            tries = 1
        cache.touch(key, counted_for)
    if tries >= MAX_TRIES:
        ends = timezone.now() + PAUSE
        cache.set(_pause_key(user), ends.timestamp(), _seconds(PAUSE + KEPT_PAST_THE_END))
        cache.delete(key)  # the tries after the pause are counted from none


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
    try:
        if ok:
            cache.delete_many([_tries_key(user), _pause_key(user)])
        else:
            count_wrong_try(user)
    except Exception:  # the cache is down: the confirmation stands or fails on its own
        pass
    return ok

"""A ceiling on one account's wrong passwords, wherever they come from.

django-axes locks a username from one client address after ``LOGIN_FAILURE_LIMIT`` failures,
on purpose only from that address (a hall behind one NAT address is not locked out by one
player's typos, nor a member in charge by someone elsewhere). On its own it let a guesser with
a few addresses try about five passwords per address and per cool-off. Across addresses, each
account therefore has:

- ``FREE_FAILURES`` wrong passwords that cost nothing (the typos of someone who knows it);
- then a wait that doubles after each failure (2 s, 4 s, 8 s…, at most ``LONGEST_WAIT``),
  during which no password is checked for the account at all, the right one included;
- then, at ``ACCOUNT_FAILURE_LIMIT`` failures in a row, a lock for ``ACCOUNT_LOCK_MINUTES``
  that only time or a Commission admin (``lift``) ends. Once it has lapsed the count starts
  again.

The right password clears the count. A try is counted *before* its password is checked and
forgiven when it was right: tries sent at the same moment take their turn on the account's row,
so no number of them checks more passwords than the ceiling allows.

The clock is ``django.utils.timezone.now``: the times are stored, and shown to admins.
"""

from __future__ import annotations

import datetime as dt
import math
import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from beano import locking
from beano.accounts.models import PasswordFailures
from beano.actors import Actor
from organizations.audit import record_event

#: Wrong passwords in a row that cost no wait.
FREE_FAILURES = 3
#: The longest wait between two tries, however many failures (a high ACCOUNT_FAILURE_LIMIT).
LONGEST_WAIT = dt.timedelta(minutes=5)
#: Where the backend leaves its refusal for the page that asked (``refusal_of``).
REFUSAL_ATTRIBUTE = "beano_password_refusal"


@dataclass(frozen=True)
class Refusal:
    """Why no password was checked (a wait, or the lock), and the seconds until the next try."""

    message: str
    retry_after: int


def account_key(username: str) -> str:
    """One account whatever the case or the Unicode form its username is typed in."""
    return unicodedata.normalize("NFKC", username).casefold()[:150]


def wait_after(failures: int) -> dt.timedelta:
    """The wait before the next try, after ``failures`` wrong passwords in a row."""
    if failures < FREE_FAILURES:
        return dt.timedelta(0)
    return min(dt.timedelta(seconds=2 ** (failures - FREE_FAILURES + 1)), LONGEST_WAIT)


def _seconds(until: dt.datetime, now: dt.datetime) -> int:
    return max(1, math.ceil((until - now).total_seconds()))


def _refusal(row: PasswordFailures, now: dt.datetime) -> Refusal | None:
    if row.locked_until is not None and row.locked_until > now:
        until = timezone.localtime(row.locked_until)
        return Refusal(
            message=(
                f"This username is locked after {row.failures} wrong passwords in a row, "
                f"wherever they were typed: no password is checked for it until "
                f"{until:%B %-d at %-I:%M %p}. A Commission admin can lift the lock sooner."
            ),
            retry_after=_seconds(row.locked_until, now),
        )
    if row.next_try_at is not None and row.next_try_at > now:
        seconds = _seconds(row.next_try_at, now)
        return Refusal(
            message=(
                "Too many wrong passwords for this username: wait "
                f"{seconds} second{'s' if seconds != 1 else ''}, then try again."
            ),
            retry_after=seconds,
        )
    return None


def claim_try(username: str) -> Refusal | None:
    """Before a password is checked for ``username``: a refusal (the account waits or is
    locked), or None, the try then counted as a failure until ``forgive`` says it was right."""
    now = timezone.now()
    key = account_key(username)
    with transaction.atomic():
        PasswordFailures.objects.get_or_create(username_key=key)
        row = locking.lock(PasswordFailures.objects).get(username_key=key)
        if row.locked_until is not None and row.locked_until <= now:
            row.failures, row.locked_until, row.next_try_at = 0, None, None  # lapsed
        refusal = _refusal(row, now)
        if refusal is not None:
            return refusal
        row.failures += 1
        row.last_failure_at = now
        if row.failures >= settings.ACCOUNT_FAILURE_LIMIT:
            row.locked_until = now + dt.timedelta(minutes=settings.ACCOUNT_LOCK_MINUTES)
            row.next_try_at = None
        else:
            row.next_try_at = now + wait_after(row.failures)
        row.save()
    return None


def forgive(username: str) -> None:
    """The password was right: the count starts again."""
    PasswordFailures.objects.filter(username_key=account_key(username)).update(
        failures=0, next_try_at=None, locked_until=None
    )


def lift(row: PasswordFailures, *, by: Actor) -> None:
    """A Commission admin ends the wait or the lock, in the Commission's audit trail."""
    with transaction.atomic():
        row = locking.lock(PasswordFailures.objects).get(pk=row.pk)
        old = {
            "failures": row.failures,
            "next_try_at": row.next_try_at,
            "locked_until": row.locked_until,
        }
        row.failures, row.next_try_at, row.locked_until = 0, None, None
        row.save(update_fields=["failures", "next_try_at", "locked_until"])
        record_event(
            organization=None,
            actor=by,
            action="accounts.password_lock.lifted",
            target=row,
            old=old,
            new={"failures": 0, "next_try_at": None, "locked_until": None},
        )


def refusal_of(request: HttpRequest | None) -> Refusal | None:
    """The refusal the backend left on ``request``, if it refused to check a password."""
    return getattr(request, REFUSAL_ATTRIBUTE, None)

"""Who must, and who may, use a second factor; whether this session has passed it.

Required: the State Lottery Commission's staff (inspectors see every organization in their
scope; admins change licensing data), anyone who can reach the Django admin (``is_staff``,
``is_superuser``), and those who file an organization's money reports: its heads and
bookkeepers (``FILING_ROLES``), enrolled at their next login. Offered: everyone else, from
their account page; once they enrol a device, their logins ask for its code too.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef
from django_otp.plugins.otp_totp.models import TOTPDevice

from organizations.access import commission_staff
from organizations.models import OrganizationRole, Role

#: The roles whose holders must use a second factor: they file the money reports.
FILING_ROLES = (Role.HEAD, Role.BOOKKEEPER)

#: The name given to a device enrolled from the account page.
APP_DEVICE_NAME = "Authenticator app"


def second_factor_required(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or user.is_superuser or commission_staff(user) is not None:
        return True
    read = getattr(user, "files_reports", None)  # read with the session's user (backends.py)
    if read is not None:
        return bool(read)
    return OrganizationRole.objects.filter(user=user, role__in=FILING_ROLES).exists()


def has_authenticator(user: Any = None) -> Exists:
    """Whether the user (or, without one, the row's ``user`` of the statement it annotates) has
    a confirmed authenticator: their logins ask for its code."""
    user_ref = OuterRef("user") if user is None else user
    return Exists(TOTPDevice.objects.filter(user=user_ref, confirmed=True))


def confirmed_device(user: Any) -> TOTPDevice | None:
    """The user's authenticator (there is at most one confirmed: enrolling replaces it)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return TOTPDevice.objects.filter(user=user, confirmed=True).order_by("-pk").first()


#: ``confirmed_totp_id`` not read with the user (a user loaded other than by the session).
UNKNOWN = object()


def has_confirmed_device(user: Any) -> bool:
    """Whether the user has an authenticator: as read with the session's user (no query), else
    from the table."""
    known = getattr(user, "confirmed_totp_id", UNKNOWN)
    if known is not UNKNOWN:
        return known is not None
    return confirmed_device(user) is not None


def is_verified(user: Any) -> bool:
    """This session passed the second factor (django-otp's OTPMiddleware tells)."""
    check = getattr(user, "is_verified", None)
    return bool(check and check())

"""The one way a password is proved: Django's ``authenticate()``, through these backends.

``settings.AUTHENTICATION_BACKENDS`` runs django-axes' backend first (the username locked from
this client address), then ``CeilingModelBackend`` (the account's ceiling across addresses,
``ceiling.py``) around Django's own password check. The login page and the password change
page's current password both call ``authenticate()``, and so must any page to come that asks
for a password (a second person's, a password reset's): then the same rules hold everywhere
(``tests/accounts/test_password_change.py`` looks for a password checked any other way).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Subquery
from django.http import HttpRequest

from beano.accounts import ceiling
from beano.accounts.policy import FILING_ROLES
from beano.prepared import Prepared
from organizations import access_read
from organizations.audit import current_request
from organizations.models import OrganizationRole


class CeilingModelBackend(ModelBackend):
    """Django's ModelBackend, behind the account's ceiling: during a wait or a lock no password
    is checked, and ``authenticate()`` stops (PermissionDenied) with the refusal left on the
    request for the page to show. Django then reports the try as failed, which django-axes
    counts for the username from this address like any other."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        refusal = ceiling.claim_try(username)
        if refusal is not None:
            if request is not None:
                setattr(request, ceiling.REFUSAL_ATTRIBUTE, refusal)
            raise PermissionDenied(refusal.message)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            ceiling.forgive(username)
        return user

    def get_user(self, user_id: Any) -> Any:
        """The session's user, read once a request with what its middlewares ask next: whether
        they are the Commission's staff (``commission_staff``, None if not), the id of their
        confirmed authenticator (``confirmed_totp_id``, None if none), which the second factor's
        middlewares check against the session (``beano.accounts.middleware.OTPMiddleware``),
        and whether they hold a role that files money reports (``files_reports``, for
        ``policy.second_factor_required``). On an organization's page (the URL names its
        ``org_id``, resolved before the user is first read), the user is read with their
        roles there and the organization, in the same statement (``access_read.remember``),
        which ``organizations.access.resolve_access`` then takes instead of a query. Both reads
        are compiled once per process (``beano.prepared``): every request runs one of them."""
        if isinstance(user_id, str) and user_id.isdigit():
            user_id = int(user_id)
        if not isinstance(user_id, int) or isinstance(user_id, bool):
            return None
        org_id = access_read.organization_in_url(current_request())
        if org_id is not None:
            held = _ROLES_WITH_USER.all(user_id, org_id)
            if held:
                user = held[0].user
                user.confirmed_totp_id = held[0].confirmed_totp_id
                user.files_reports = held[0].files_reports
                access_read.remember(user, org_id, held[0].organization, {r.role for r in held})
                return user if self.user_can_authenticate(user) else None
        try:
            user = _USER.get(user_id)
        except get_user_model().DoesNotExist:
            return None
        if org_id is not None:  # no role there: their access is the Commission's, or none
            access_read.remember(user, org_id, None, set())
        return user if self.user_can_authenticate(user) else None


def _device(user: Any) -> Subquery:
    from django_otp.plugins.otp_totp.models import TOTPDevice

    devices = TOTPDevice.objects.filter(confirmed=True, user=user).order_by("-pk")
    return Subquery(devices.values("pk")[:1])


def _files(user: Any) -> Exists:
    return Exists(OrganizationRole.objects.filter(role__in=FILING_ROLES, user=user))


#: The user's roles in one organization, each with the user (their staff row, authenticator and
#: whether they file reports anywhere) and the organization.
_ROLES_WITH_USER = Prepared(
    lambda user_id, org_id: (
        OrganizationRole.objects.filter(user_id=user_id, organization_id=org_id)
        .select_related("user__commission_staff", "organization")
        .annotate(
            confirmed_totp_id=_device(OuterRef("user_id")),
            files_reports=_files(OuterRef("user_id")),
        )
    )
)

#: The user alone, with the same.
_USER = Prepared(
    lambda user_id: (
        get_user_model()
        ._default_manager.select_related("commission_staff")
        .annotate(confirmed_totp_id=_device(OuterRef("pk")), files_reports=_files(OuterRef("pk")))
        .filter(pk=user_id)
    )
)

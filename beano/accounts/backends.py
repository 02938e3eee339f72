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
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest

from beano.accounts import ceiling


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
        they are the Commission's staff (``commission_staff``, None if not) and the id of their
        confirmed authenticator (``confirmed_totp_id``, None if none), which the second factor's
        middlewares check against the session (``beano.accounts.middleware.OTPMiddleware``)."""
        from django_otp.plugins.otp_totp.models import TOTPDevice

        users = get_user_model()._default_manager.select_related("commission_staff")
        device = TOTPDevice.objects.filter(user=OuterRef("pk"), confirmed=True).order_by("-pk")
        try:
            user = users.annotate(confirmed_totp_id=Subquery(device.values("pk")[:1])).get(
                pk=user_id
            )
        except get_user_model().DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None

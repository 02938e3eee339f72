"""Tokens made, revoked and recognised. A token is ``beano_<public id>_<secret>``: the public
id finds its row, the SHA-256 of the whole token is compared in constant time, and the token
itself is never stored: it is shown once, to the one who made it."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from api.models import ApiToken
from beano.accounts.pins import confirms
from beano.text import text
from organizations import access_read
from organizations.access import commission_staff
from organizations.audit import record_event
from organizations.models import CommissionStaff, Organization, OrganizationRole, Role

PREFIX = "beano_"
_SHAPE = re.compile(r"^beano_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")
#: Requests a minute a new token may make, by scope: a point of sale sells a few a minute, a
#: ball reader calls one every few seconds, a flashboard asks every second or two.
DEFAULT_RATE = {
    ApiToken.Scope.READ: 120,
    ApiToken.Scope.FLOOR: 300,
    ApiToken.Scope.NIGHT_FILES: 30,
    ApiToken.Scope.COMMISSION_READ: 120,
}
MOST_RATE = 1200
#: The last-used time is written at most this often (a flashboard asks every second).
LAST_USED_EVERY = dt.timedelta(minutes=1)
#: Whom a token of each scope may act as: the floor's people (``access_matrix.ON_THE_FLOOR``)
#: for a floor token, the back office's (``CLOSES_OUT``) for a night-file token.
ACTS_AS_ROLES = {
    ApiToken.Scope.FLOOR: (Role.HEAD, Role.MEMBER_IN_CHARGE, Role.WORKER),
    ApiToken.Scope.NIGHT_FILES: (Role.HEAD, Role.BOOKKEEPER),
}


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def holds_head(user: Any, organization: Organization) -> bool:
    return OrganizationRole.objects.filter(
        user=user, organization=organization, role=Role.HEAD
    ).exists()


def may_act_as(user: Any, organization: Organization | None, scope: str) -> bool:
    """Whether ``user`` is active and holds a role in ``organization`` that a token of
    ``scope`` may act as (``ACTS_AS_ROLES``)."""
    roles = ACTS_AS_ROLES.get(ApiToken.Scope(scope), ())
    return bool(
        roles
        and organization is not None
        and user.is_active
        and OrganizationRole.objects.filter(
            user=user, organization=organization, role__in=roles
        ).exists()
    )


def is_commission_admin(user: Any) -> bool:
    staff = commission_staff(user)
    return staff is not None and staff.kind == CommissionStaff.Kind.ADMIN


def issue(
    *,
    name: str,
    scope: str,
    by: Any,
    organization: Organization | None = None,
    rate_per_minute: int | None = None,
    acts_as: Any = None,
    acts_as_secret: str = "",
    plain: str | None = None,
) -> tuple[ApiToken, str]:
    """A new token and its only plain copy. A head makes the organization's (read, floor), a
    Commission admin the Commission's (Commission read). A floor token acts as a login of the
    organization who works the floor (``acts_as``: the door's seller, the caller), a night-file
    token as a bookkeeper or head; that person agrees by typing their own PIN or password
    (``acts_as_secret``), as when the hall laptop is handed to them. ``plain``: the demo's
    published tokens only (``seed_demo``); never a user's."""
    name = text(
        name, "name", limit=80, missing="Name the token by what uses it: “Door point of sale”."
    )
    if scope not in ApiToken.Scope.values:
        raise ValidationError({"scope": "Choose what the token may do."})
    if scope == ApiToken.Scope.COMMISSION_READ:
        if organization is not None or not is_commission_admin(by):
            raise ValidationError("Only a Commission admin makes a Commission token.")
    elif organization is None or not holds_head(by, organization):
        raise ValidationError("Only a head of the organization makes its tokens.")
    if scope in ACTS_AS_ROLES:
        if acts_as is None or not may_act_as(acts_as, organization, scope):
            raise ValidationError(
                {
                    "acts_as": "Choose the worker whose acts the device records (the seller, "
                    "the caller): a login of the organization who works the floor."
                    if scope == ApiToken.Scope.FLOOR
                    else "Choose the bookkeeper or head whose night files these are."
                }
            )
        if not confirms(acts_as, acts_as_secret):
            raise ValidationError(
                {
                    "acts_as_secret": f"That is not {acts_as.get_username()}'s PIN or password: "
                    "they type it themselves to agree that the device's acts are theirs."
                }
            )
    else:
        acts_as = None
    rate = rate_per_minute or DEFAULT_RATE[ApiToken.Scope(scope)]
    if not 1 <= rate <= MOST_RATE:
        raise ValidationError({"rate_per_minute": f"Between 1 and {MOST_RATE} a minute."})
    if plain is None:
        plain = f"{PREFIX}{secrets.token_hex(6)}_{secrets.token_urlsafe(32)}"
    shaped = _SHAPE.match(plain)
    if shaped is None:
        raise ValueError("A token is beano_<12 hex digits>_<43 characters>.")
    public_id = shaped.group(1)
    with transaction.atomic():
        token = ApiToken.objects.create(
            public_id=public_id,
            secret_hash=_hash(plain),
            name=name[:80],
            scope=scope,
            organization=organization,
            created_by=by,
            acts_as=acts_as,
            created_at=timezone.now(),
            rate_per_minute=rate,
        )
        record_event(
            organization=organization,
            actor=by,
            action="api_token_created",
            target=token,
            new={
                "name": token.name,
                "scope": scope,
                "rate_per_minute": rate,
                "acts_as": acts_as.get_username() if acts_as else "",
            },
        )
    return token, plain


def revoke(token: ApiToken, *, by: Any) -> ApiToken:
    """The token stops working at once (kept, with who revoked it and when)."""
    with transaction.atomic():
        now = timezone.now()
        # One statement: of two revocations at once, only one finds it active and is recorded.
        if not ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
            revoked_at=now, revoked_by=by
        ):
            return ApiToken.objects.get(pk=token.pk)
        token.revoked_at, token.revoked_by = now, by
        record_event(
            organization=token.organization,
            actor=by,
            action="api_token_revoked",
            target=token,
            old={"revoked": False},
            new={"revoked": True},
        )
    return token


def _still_valid(token: ApiToken) -> bool:
    """An organization's token: its maker still heads it, a floor token's worker still works it
    (their roles read in one statement). The actor's roles there are kept on them for this
    request (``access_read``), so that ``access.org_access`` reads them no more."""
    people = {token.created_by_id, token.acts_as_id or token.created_by_id}
    held = list(
        OrganizationRole.objects.filter(
            organization_id=token.organization_id, user_id__in=people
        ).values_list("user_id", "role")
    )
    if (token.created_by_id, Role.HEAD) not in held:
        return False
    actor = token.actor
    roles = {role for user_id, role in held if user_id == actor.pk}
    if token.acts_as_id and not (
        actor.is_active and roles & set(ACTS_AS_ROLES.get(ApiToken.Scope(token.scope), ()))
    ):
        return False
    access_read.remember(actor, token.organization_id, token.organization, roles)
    return True


def recognise(plain: str) -> ApiToken | None:
    """The active token ``plain`` is, or None (unknown, malformed, revoked, or its maker no
    longer holds the office that made it)."""
    match = _SHAPE.match(plain or "")
    if match is None:
        return None
    token = (
        ApiToken.objects.select_related(
            # Whether each is of the Commission's staff, read with them (``access``): no one is.
            "created_by__commission_staff",
            "acts_as__commission_staff",
            "organization",
        )
        .filter(public_id=match.group(1))
        .first()
    )
    if token is None or not hmac.compare_digest(token.secret_hash, _hash(plain)):
        return None
    if token.revoked_at is not None or not token.created_by.is_active:
        return None
    if token.scope == ApiToken.Scope.COMMISSION_READ:
        if commission_staff(token.created_by) is None:
            return None
    elif not _still_valid(token):
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token

"""What a token may reach: its scope's operations (each view names the scopes it answers), its
own organization only (any other is 404, as to an outsider on the pages), and, for the
Commission's, every organization its maker may review. A floor token writes what its maker
may write on the live page (``OrgAccess.may_write``, the access matrix), no more."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from api.models import ApiToken
from organizations.access import OrgAccess, resolve_access, visible_organizations
from organizations.audit import provenance
from organizations.models import Organization

Scope = ApiToken.Scope
ORG_READ = frozenset({Scope.READ, Scope.FLOOR, Scope.NIGHT_FILES, Scope.COMMISSION_READ})
FLOOR = frozenset({Scope.FLOOR})
NIGHT_FILES = frozenset({Scope.NIGHT_FILES})
COMMISSION = frozenset({Scope.COMMISSION_READ})


def token_of(request: Request) -> ApiToken:
    token = request.auth
    if not isinstance(token, ApiToken):  # the permission below has refused such a request
        raise Http404
    return token


class ScopePermission(permissions.BasePermission):
    """The view's ``read_scopes`` for GET and HEAD, its ``write_scopes`` for any other."""

    message = "This token's scope does not include this operation."

    def has_permission(self, request: Request, view: Any) -> bool:
        token = request.auth
        if not isinstance(token, ApiToken):
            return False
        if request.method in permissions.SAFE_METHODS:
            allowed = getattr(view, "read_scopes", frozenset())
        else:
            allowed = getattr(view, "write_scopes", frozenset())
        return token.scope in allowed


class TokenRateThrottle(SimpleRateThrottle):
    """Each token its own budget: ``rate_per_minute`` requests in any sixty seconds (429 with
    Retry-After beyond it)."""

    scope = "token"

    def __init__(self) -> None:  # the rate is the token's, not a setting's
        self.rate = None
        self.num_requests, self.duration = 0, 60

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = request.auth
        return f"api-rate:{token.public_id}" if isinstance(token, ApiToken) else None

    def allow_request(self, request: Request, view: Any) -> bool:
        token = request.auth
        if not isinstance(token, ApiToken):
            return True
        self.rate = f"{token.rate_per_minute}/m"
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


def organizations_of(request: Request) -> QuerySet[Organization]:
    """The organizations this token reaches."""
    token = token_of(request)
    if token.scope == Scope.COMMISSION_READ:
        return visible_organizations(token.created_by)
    return Organization.objects.filter(pk=token.organization_id)


def organization(request: Request, org_id: int) -> Organization:
    """The organization ``org_id`` if this token reaches it, else 404."""
    token = token_of(request)
    if token.scope != Scope.COMMISSION_READ:
        if token.organization_id != int(org_id):
            raise Http404
        return token.organization
    found = organizations_of(request).filter(pk=org_id).first()
    if found is None:
        raise Http404
    return found


def org_access(request: Request, org_id: int) -> OrgAccess:
    """The token's actor in the organization (404 outside the token's reach), as the pages
    would resolve them: their roles decide what the token may write there (a floor token's
    worker; any other token only reads)."""
    organization(request, org_id)
    return resolve_access(token_of(request).actor, org_id)


def through(request: Request) -> Any:
    """Every audit event recorded inside names the token and its maker (``provenance``)."""
    token = token_of(request)
    return provenance(
        {
            "source": "api",
            "client": token.name,
            "client_id": token.public_id,
            "made_by": token.created_by.get_username(),
        }
    )

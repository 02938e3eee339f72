"""The one place that answers "what may this user do in this organization?".

Every organization page goes through ``org_view``: a user with no role there and no inspector
scope over it gets 404 (the same answer as a missing organization); then the page's entry in
the matrix of who sees what (``access_matrix``, by the URL's name) decides: a read (GET, HEAD,
OPTIONS) or a write (any other method) it does not allow is 403, as is every write by a
Commission user (inspector or admin) and any request to a page missing from the matrix.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import Resolver404, resolve

from organizations import access_matrix, access_read, extensions
from organizations.audit import in_the_session_of
from organizations.models import CommissionStaff, Organization, OrganizationRole, Role

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
M = TypeVar("M", bound=models.Model)


@dataclass(frozen=True)
class OrgAccess:
    user: Any
    organization: Organization
    roles: frozenset[str]
    commission: CommissionStaff | None
    #: Whether this session passed a second factor (personal data needs it).
    verified: bool = False
    #: The records this request looked up through ``get_for_org``, as (model label, pk): the
    #: log of Commission views names the last (the most specific) one.
    looked_up: list[tuple[str, str]] = field(default_factory=list, compare=False, repr=False)

    @property
    def is_commission(self) -> bool:
        return self.commission is not None

    @property
    def can_write(self) -> bool:
        """Commission users review; they never write organization records."""
        return not self.is_commission and bool(self.roles)

    def has_role(self, *roles: str) -> bool:
        return not self.is_commission and bool(self.roles.intersection(roles))

    @property
    def can_manage_members(self) -> bool:
        return self.has_role(Role.HEAD, Role.MEMBER_IN_CHARGE)

    @property
    def can_edit_details(self) -> bool:
        return self.has_role(Role.HEAD)

    @property
    def can_read_audit(self) -> bool:
        return self.may_read("audit_log")

    def may_read(self, url_name: str) -> bool:
        """Whether the matrix lets this user read the page ``url_name`` of the organization."""
        page = access_matrix.org_page(url_name)
        if page is None:
            return False
        if self.commission is not None:
            return page.commission_reads(
                inspector=self.commission.kind == CommissionStaff.Kind.INSPECTOR
            )
        return page.reads(self.roles, verified=self.verified)

    def offers(self, url_name: str) -> bool:
        """Whether a page of this organization links to ``url_name``: a page of an organization
        only if this user reads it; any other page (the matrix's or Django's) as it is."""
        return access_matrix.org_page(url_name) is None or self.may_read(url_name)

    def may_write(self, url_name: str) -> bool:
        """Whether the matrix lets this user write through the page ``url_name``."""
        page = access_matrix.org_page(url_name)
        return page is not None and not self.is_commission and page.writes(self.roles)

    @property
    def sees_personal_data(self) -> bool:
        """W-2G payees, their addresses and TINs, Form 5754's members: an inspector, or a head
        or bookkeeper whose session passed a second factor (``access_matrix``)."""
        if self.commission is not None:
            return self.commission.kind == CommissionStaff.Kind.INSPECTOR
        return self.verified and bool(self.roles & access_matrix.SEES_PERSONAL_DATA)

    def require_role(self, *roles: str) -> None:
        if not self.has_role(*roles):
            raise PermissionDenied("Your role in this organization does not allow this.")


class OrgRequest(HttpRequest):
    """The request ``org_view`` hands its view, with ``access`` resolved (a type for the views'
    signatures: at run time it is the plain request, the attribute set on it)."""

    access: OrgAccess


def commission_staff(user: Any) -> CommissionStaff | None:
    if not getattr(user, "is_authenticated", False):
        return None
    try:
        return user.commission_staff
    except CommissionStaff.DoesNotExist:
        return None


def visible_organizations(user: Any) -> models.QuerySet[Organization]:
    """Organizations the user may see: their own (any role), or a Commission user's scope."""
    staff = commission_staff(user)
    if staff is not None:
        if staff.all_organizations or staff.kind == CommissionStaff.Kind.ADMIN:
            return Organization.objects.all()
        return staff.organizations.all()
    return Organization.objects.filter(user_roles__user=user).distinct()


def second_factor_passed(user: Any) -> bool:
    """This session passed the second factor (django-otp's middleware tells); a worker at a
    handed laptop never has (the session's login did)."""
    check = getattr(user, "is_verified", None)
    return bool(check and check())


def resolve_access(user: Any, organization_id: int) -> OrgAccess:
    """This user in this organization, or 404 when they have no business there."""
    if not getattr(user, "is_authenticated", False):
        raise Http404
    staff = commission_staff(user)
    verified = second_factor_passed(user)
    read = access_read.recalled(user, int(organization_id))
    if staff is None and read is not None:  # read with the user (``access_read``)
        organization, roles = read
        if organization is None or not roles:
            raise Http404
        return OrgAccess(
            user=user, organization=organization, roles=roles, commission=None, verified=verified
        )
    if staff is None:  # a member: their roles here, with the organization, in one query
        held = list(
            OrganizationRole.objects.filter(user=user, organization_id=organization_id)
            .select_related("organization")
            .only("role", "organization")
        )
        if not held:
            raise Http404
        roles = frozenset(r.role for r in held)
        return OrgAccess(
            user=user,
            organization=held[0].organization,
            roles=roles,
            commission=None,
            verified=verified,
        )
    organization = get_object_or_404(visible_organizations(user), pk=organization_id)
    return OrgAccess(
        user=user, organization=organization, roles=frozenset(), commission=staff, verified=verified
    )


def get_for_org(
    queryset: models.QuerySet[M], access: OrgAccess, *, via: str = "organization", **lookup: Any
) -> M:
    """An object of this organization, or 404: another organization's object does not exist.
    ``via`` names the path to the organization for objects that belong to it through another
    (e.g. ``worker_list__organization``)."""
    return _noted(
        access, get_object_or_404(queryset.filter(**{via: access.organization}), **lookup)
    )


def found_for_org(found: Sequence[M], access: OrgAccess) -> M:
    """What a read restricted to this organization found (a prepared read, ``beano.prepared``,
    run with the organization's pk), or 404, noted as ``get_for_org`` notes it."""
    if not found:
        raise Http404("No record of this organization matches the given query.")
    return _noted(access, found[0])


def _noted(access: OrgAccess, obj: M) -> M:
    access.looked_up.append((obj._meta.label_lower, str(obj.pk)))
    return obj


ViewFunc = Callable[..., HttpResponse]
V = TypeVar("V", bound=ViewFunc)


def url_name_of(request: HttpRequest) -> str | None:
    """The name of the URL the request came by: its entry in the matrix."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
    return match.view_name


def org_view() -> Callable[[V], V]:
    """Decorate a view taking ``org_id``: resolves ``request.access`` and lets the request
    through only if the matrix (``access_matrix.ORG_PAGES``, by the URL's name) allows it: a
    read (GET/HEAD/OPTIONS) to the roles that read the page (a page that exists only to write
    shows only to those who write through it), a write to those who write; Commission users
    read, never write. Anything else is 403; a page missing from the matrix is 403 to all.

    When the session's login has handed the hall laptop to a worker of the night
    (``extensions.at_the_laptop``), the page is that worker's: ``request.user`` and
    ``request.access`` are theirs, with their roles, and what they record is theirs; the
    session's login, still responsible for the laptop, is ``request.laptop_login`` and is named
    in the provenance of every audit event recorded meanwhile. The worker has not passed the
    login's second factor: no personal data is shown to them."""

    def decorate(view: V) -> V:
        @login_required
        @wraps(view)
        def wrapper(request: HttpRequest, org_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
            login = request.user
            at_laptop = extensions.at_the_laptop(request, org_id)
            if at_laptop is None:
                return _answer(view, request, org_id, *args, **kwargs)
            request.user = at_laptop
            request.laptop_login = login  # type: ignore[attr-defined]
            try:
                with in_the_session_of(login):
                    return _answer(view, request, org_id, *args, **kwargs)
            finally:
                request.user = login

        return wrapper  # type: ignore[return-value]

    return decorate


def _answer(
    view: ViewFunc, request: HttpRequest, org_id: int, *args: Any, **kwargs: Any
) -> HttpResponse:
    access = resolve_access(request.user, org_id)
    request.access = access  # type: ignore[attr-defined]
    page = url_name_of(request) or ""
    if request.method in SAFE_METHODS:
        if not access.may_read(page):
            raise PermissionDenied(_refusal(access, page, write=False))
    elif not access.may_write(page):
        raise PermissionDenied(_refusal(access, page, write=True))
    return view(request, *args, **kwargs)


def _refusal(access: OrgAccess, page: str, *, write: bool) -> str:
    """Why this page is refused to this user, in a sentence."""
    entry = access_matrix.org_page(page)
    if entry is None:
        return "This page is not open to anyone."
    if access.is_commission:
        if write:
            return "The Commission's review is read-only."
        if entry.personal:
            return "Personal data (W-2G payees, addresses, TINs) is for inspectors."
        return "This page exists only to write: it is not the Commission's."
    if entry.personal and access.roles & access_matrix.SEES_PERSONAL_DATA:
        return "Personal data (W-2G payees, addresses, TINs) needs a second factor."
    return "Your role in this organization does not allow this."


def commission_view(view: V) -> V:
    """Decorate a Commission page (one across organizations, taking no ``org_id``): for the
    Commission's staff, inspectors and admins, only (403 for anyone else); and read-only, as
    every organization page is to them: any method but GET, HEAD and OPTIONS gets 403. A page
    of personal data (``access_matrix.SITE_PAGES``) is the inspectors' only."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        staff = commission_staff(request.user)
        if staff is None:
            raise PermissionDenied("These pages are for the Commission's staff.")
        if request.method not in SAFE_METHODS:
            raise PermissionDenied("The Commission's review is read-only.")
        page = access_matrix.site_page(url_name_of(request))
        if page is None or page.audience != access_matrix.Audience.COMMISSION:
            raise PermissionDenied("This page is not open to anyone.")
        if page.personal and staff.kind != CommissionStaff.Kind.INSPECTOR:
            raise PermissionDenied(
                "Personal data (W-2G payees, addresses, TINs) is for inspectors."
            )
        return view(request, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


def commission_admin_view(*, permissions: Collection[str]) -> Callable[[V], V]:
    """Decorate a Commission admin's page (licensing an organization, recording the Director's
    letters): for a Commission admin holding ``permissions`` (the Commission admins' group has
    them) only, 403 for anyone else, reads included. A page taking ``org_id`` resolves
    ``request.access`` first, so an organization outside the user's reach is 404 as everywhere."""

    def decorate(view: V) -> V:
        @login_required
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if "org_id" in kwargs:
                request.access = resolve_access(  # type: ignore[attr-defined]
                    request.user, kwargs.pop("org_id")
                )
            staff = commission_staff(request.user)
            page = access_matrix.site_page(url_name_of(request))
            if (
                page is None
                or page.audience != access_matrix.Audience.COMMISSION_ADMIN
                or staff is None
                or staff.kind != CommissionStaff.Kind.ADMIN
                or not request.user.has_perms(permissions)
            ):
                raise PermissionDenied("These pages are for the Commission's admins.")
            return view(request, *args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate

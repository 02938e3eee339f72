"""Reads for organization pages, always given the organization or the user's scope."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Prefetch, QuerySet

from beano.rules import AuthorizationFact
from organizations.access import visible_organizations
from organizations.models import (
    AuditEvent,
    DirectorAuthorization,
    License,
    Membership,
    Organization,
)


@dataclass(frozen=True)
class AuthorizedDay:
    day: dt.date
    license: License


def active_licenses(organization: Organization) -> list[License]:
    """The organization's active licenses (prefetched on the dashboard, else one query)."""
    if hasattr(organization, "prefetched_licenses"):
        return organization.prefetched_licenses
    return list(organization.licenses.filter(status=License.Status.ACTIVE))


def authorized_days(
    organization: Organization, start: dt.date, end: dt.date
) -> list[AuthorizedDay]:
    days = [
        AuthorizedDay(day, lic)
        for lic in active_licenses(organization)
        if lic.status == License.Status.ACTIVE
        for day in lic.authorized_dates(start, end)
    ]
    return sorted(days, key=lambda d: d.day)


def upcoming_authorized_days(
    organization: Organization, today: dt.date, count: int = 4
) -> list[AuthorizedDay]:
    return authorized_days(organization, today, today + dt.timedelta(days=7 * count + 6))[:count]


def organizations_for_user(user: object) -> QuerySet[Organization]:
    return (
        visible_organizations(user)
        .prefetch_related(
            Prefetch(
                "licenses",
                queryset=License.objects.filter(status=License.Status.ACTIVE),
                to_attr="prefetched_licenses",
            )
        )
        .annotate(member_count=Count("memberships", distinct=True))
        .order_by("name")
    )


def licensees(organizations: QuerySet[Organization]) -> QuerySet[Organization]:
    """``organizations`` without the practice ones (holding a practice license, the demo's
    ``License.practice``): the Commission's lists and figures count licensees only. No query of
    its own (a subquery of the caller's)."""
    return organizations.exclude(licenses__practice=True)


def practice_organizations(organizations: QuerySet[Organization]) -> QuerySet[Organization]:
    """The practice organizations among ``organizations``, to name them where they are left
    out."""
    return organizations.filter(licenses__practice=True).distinct().order_by("name")


def memberships(organization: Organization) -> QuerySet[Membership]:
    return (
        Membership.objects.filter(organization=organization)
        .select_related("person", "family_of__person")
        .order_by("person__legal_name")
    )


def audit_events(organization: Organization) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(organization=organization).order_by("-sequence")


def authorization_facts(
    organization: Organization, kinds: tuple[str, ...] = ()
) -> list[AuthorizationFact]:
    """The organization's Director's authorizations as the rules see them (validity is judged by
    the rules on the action's date)."""
    rows = DirectorAuthorization.objects.filter(organization=organization)
    if kinds:
        rows = rows.filter(kind__in=kinds)
    return [a.as_fact() for a in rows]


def authorizations(organization: Organization) -> QuerySet[DirectorAuthorization]:
    return (
        DirectorAuthorization.objects.filter(organization=organization)
        .select_related("person")
        .order_by("kind", "-valid_from")
    )

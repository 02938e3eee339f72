"""Writes to organizations, people and memberships. Each is one transaction that saves the
change and its audit event together; views and commands only call these."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from beano import locking
from beano.actors import Actor
from beano.text import one_line
from organizations.audit import changed, record_event, snapshot
from organizations.models import Membership, Organization, OrganizationRole, Person

ORGANIZATION_DETAIL_FIELDS = ("street", "town", "zip_code", "telephone", "federal_id")
MEMBERSHIP_FIELDS = ("person", "kind", "family_of", "relationship", "since", "until")


@transaction.atomic
def update_organization_details(
    *, organization: Organization, by: Actor, **values: Any
) -> Organization:
    """The head of organization keeps the address and contact details current."""
    unknown = set(values) - set(ORGANIZATION_DETAIL_FIELDS)
    if unknown:
        raise ValueError(f"not editable here: {sorted(unknown)}")
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    before = snapshot(organization, values)
    for name, value in values.items():
        setattr(organization, name, value)
    organization.full_clean()
    old, new = changed(before, snapshot(organization, values))
    if new:
        organization.save(update_fields=list(new))
        record_event(
            organization=organization,
            actor=by,
            action="organizations.organization.updated",
            target=organization,
            old=old,
            new=new,
        )
    return organization


def _find_person(legal_name: str, date_of_birth: dt.date, commission_worker_id: str) -> Any:
    if commission_worker_id:
        person = Person.objects.filter(commission_worker_id=commission_worker_id).first()
        if person is not None:
            if (person.legal_name.casefold(), person.date_of_birth) != (
                legal_name.casefold(),
                date_of_birth,
            ):
                raise ValidationError(
                    {"commission_worker_id": "This worker ID belongs to another person."}
                )
            return person
    person = Person.objects.filter(
        legal_name__iexact=legal_name, date_of_birth=date_of_birth
    ).first()
    if person is not None and commission_worker_id and not person.commission_worker_id:
        person.commission_worker_id = commission_worker_id
        person.save(update_fields=["commission_worker_id"])
    return person


def find_or_create_person(
    *, legal_name: str, date_of_birth: dt.date, commission_worker_id: str = ""
) -> tuple[Person, bool]:
    """One person across the system: matched by Commission worker ID when given, else by legal
    name and date of birth, so their count of organizations (961 CMR 3.04(1)(c)) is true.

    Two organizations may add the same new person at the same moment: neither finds the other's
    row, and the database's unique constraints let one insert through. The other's insert fails
    in its own savepoint, and the person the first one recorded is used."""
    legal_name = one_line(legal_name)
    person = _find_person(legal_name, date_of_birth, commission_worker_id)
    if person is not None:
        return person, False
    person = Person(
        legal_name=legal_name,
        date_of_birth=date_of_birth,
        commission_worker_id=commission_worker_id,
    )
    # Uniqueness is the database's to enforce (below), not a query that cannot see a row
    # another transaction is about to commit.
    person.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            person.save()
    except IntegrityError:
        found = _find_person(legal_name, date_of_birth, commission_worker_id)
        if found is None:
            raise
        return found, False
    return person, True


@transaction.atomic
def add_member(
    *,
    organization: Organization,
    by: Actor,
    legal_name: str,
    date_of_birth: dt.date,
    kind: str,
    since: dt.date,
    commission_worker_id: str = "",
    family_of: Membership | None = None,
    relationship: str = "",
) -> Membership:
    """Record a person's membership (or auxiliary or family standing) with the organization.
    The organization's row is locked first, so a membership added twice at once is refused as
    already on the list the second time, not stored twice or crashed on the constraint."""
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    person, _ = find_or_create_person(
        legal_name=legal_name,
        date_of_birth=date_of_birth,
        commission_worker_id=commission_worker_id,
    )
    if Membership.objects.filter(organization=organization, person=person).exists():
        raise ValidationError(f"{person} is already on this organization's membership list.")
    membership = Membership(
        organization=organization,
        person=person,
        kind=kind,
        family_of=family_of,
        relationship=relationship,
        since=since,
    )
    membership.full_clean()
    membership.save()
    record_event(
        organization=organization,
        actor=by,
        action="organizations.membership.added",
        target=membership,
        new=snapshot(membership, MEMBERSHIP_FIELDS)
        | {"person_name": person.legal_name, "date_of_birth": person.date_of_birth},
    )
    return membership


@transaction.atomic
def update_membership(
    *, membership: Membership, by: Actor, kind: str, until: dt.date | None, relationship: str = ""
) -> Membership:
    """Change a membership's standing (e.g. lapsed) or end it; the history stays in the audit."""
    membership = locking.lock(Membership.objects).get(pk=membership.pk)
    fields = ("kind", "until", "relationship")
    before = snapshot(membership, fields)
    membership.kind = kind
    membership.until = until
    membership.relationship = relationship
    membership.full_clean()
    old, new = changed(before, snapshot(membership, fields))
    if new:
        membership.save(update_fields=list(new))
        record_event(
            organization=membership.organization,
            actor=by,
            action="organizations.membership.updated",
            target=membership,
            old=old,
            new=new,
        )
    return membership


@transaction.atomic
def assign_role(
    *, organization: Organization, by: Actor, user: Any, role: str, person: Person | None = None
) -> tuple[OrganizationRole, bool]:
    """Give a user a role in an organization (idempotent)."""
    assignment, created = OrganizationRole.objects.get_or_create(
        user=user, organization=organization, role=role, defaults={"person": person}
    )
    if created:
        record_event(
            organization=organization,
            actor=by,
            action="organizations.role.assigned",
            target=assignment,
            new={
                "user": user.get_username(),
                "role": role,
                "person": person.pk if person else None,
            },
        )
    return assignment, created

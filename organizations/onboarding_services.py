"""The Commission admin's writes that license an organization: the organization with its
license, a later license (a renewal), a Director's written authorization with its letter. Each
is one transaction with its event on the Commission's audit chain (``record_event`` with no
organization): the Commission acts, not the organization. None of 961 CMR 3.04's rules judges
these acts (they govern how a licensee conducts Beano); each row's own checks refuse bad values
(``full_clean``), field by field, before anything is saved."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from beano import locking
from beano.actors import Actor
from beano.rules.authorizations import PERSON_KINDS
from organizations.audit import record_event, snapshot
from organizations.models import DirectorAuthorization, License, Organization
from organizations.services import find_or_create_person

ORGANIZATION_FIELDS = (
    "name",
    "kind",
    "founded_on",
    "street",
    "town",
    "zip_code",
    "telephone",
    "federal_id",
)
LICENSE_FIELDS = (
    "number",
    "valid_from",
    "valid_to",
    "premises_name",
    "premises_address",
    "authorized_weekdays",
    "start_time",
    "end_time",
    "local_licensing_authority",
)
AUTHORIZATION_FIELDS = (
    "kind",
    "person",
    "reference_number",
    "subject",
    "valid_from",
    "valid_to",
    "granted_by",
)


@transaction.atomic
def add_organization(
    *, by: Actor, license: Mapping[str, Any], **values: Any
) -> tuple[Organization, License]:
    """A newly licensed organization and its license, together or not at all."""
    unknown = set(values) - set(ORGANIZATION_FIELDS)
    if unknown:
        raise ValueError(f"not an organization's field: {sorted(unknown)}")
    organization = Organization(**values)
    organization.full_clean()
    organization.save()
    record_event(
        organization=None,
        actor=by,
        action="commission.organization.added",
        target=organization,
        new=snapshot(organization, ORGANIZATION_FIELDS),
    )
    return organization, add_license(organization=organization, by=by, **license)


def _overlapping(license: License) -> License | None:
    return (
        License.objects.filter(
            organization=license.organization,
            status=License.Status.ACTIVE,
            valid_from__lte=license.valid_to,
            valid_to__gte=license.valid_from,
        )
        .exclude(pk=license.pk)
        .first()
    )


@transaction.atomic
def add_license(*, organization: Organization, by: Actor, **values: Any) -> License:
    """A license of the organization (its first, or a renewal), active from ``valid_from``.
    Refused when another active license of the organization covers part of the same dates:
    the calendar and the reports owed read one license a day."""
    unknown = set(values) - set(LICENSE_FIELDS)
    if unknown:
        raise ValueError(f"not a license's field: {sorted(unknown)}")
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    license = License(organization=organization, status=License.Status.ACTIVE, **values)
    license.authorized_weekdays = sorted(license.authorized_weekdays or [])
    license.full_clean()
    other = _overlapping(license)
    if other is not None:
        raise ValidationError(
            {
                "valid_from": f"License {other.number} of this organization is active from "
                f"{other.valid_from:%B %-d, %Y} to {other.valid_to:%B %-d, %Y}: the dates "
                "overlap."
            }
        )
    license.save()
    record_event(
        organization=None,
        actor=by,
        action="commission.license.added",
        target=license,
        new=snapshot(license, LICENSE_FIELDS) | {"organization": organization.name},
    )
    return license


@transaction.atomic
def record_authorization(
    *,
    organization: Organization,
    by: Actor,
    kind: str,
    reference_number: str,
    subject: str,
    valid_from: dt.date,
    document: UploadedFile,
    valid_to: dt.date | None = None,
    granted_by: str = "",
    person_name: str = "",
    person_born: dt.date | None = None,
) -> DirectorAuthorization:
    """The Director's written authorization and its scanned letter. One granted to a person
    (``PERSON_KINDS``) names them, found or added as one person across the system."""
    person = None
    if kind in PERSON_KINDS:
        if not person_name.strip() or person_born is None:
            raise ValidationError(
                {
                    "person_name": "This kind of authorization is granted to a person: give "
                    "their legal name and date of birth."
                }
            )
        person, _ = find_or_create_person(legal_name=person_name, date_of_birth=person_born)
    elif person_name.strip() or person_born is not None:
        raise ValidationError(
            {"person_name": "This kind of authorization is not granted to one person."}
        )
    authorization = DirectorAuthorization(
        organization=organization,
        kind=kind,
        person=person,
        reference_number=reference_number.strip(),
        subject=subject.strip(),
        valid_from=valid_from,
        valid_to=valid_to,
        granted_by=granted_by.strip(),
        document=document,
    )
    authorization.full_clean()
    authorization.save()
    record_event(
        organization=None,
        actor=by,
        action="commission.authorization.recorded",
        target=authorization,
        new=snapshot(authorization, AUTHORIZATION_FIELDS)
        | {
            "organization": organization.name,
            "person_name": person.legal_name if person else None,
            "document": authorization.document.name,
        },
    )
    return authorization

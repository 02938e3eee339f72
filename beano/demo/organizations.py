"""The organizations' part of the demo: the licensees of ``beano.demo.licensees`` with their
people, roles, worker lists, equipment and cards, an inspector and a Commission admin in the
group the migrations made. Idempotent."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model

from beano.accounts.groups import commission_admins
from beano.demo import DEMO_PASSWORD
from beano.demo.equipment import seed_equipment
from beano.demo.licensees import ORGANIZATIONS
from beano.rules import AuthorizationKind
from organizations import services
from organizations.models import (
    CommissionStaff,
    DirectorAuthorization,
    License,
    Membership,
    Organization,
    Person,
    Role,
    WorkerListEntry,
)
from organizations.worker_services import add_to_worker_list


def license_year(today: dt.date) -> tuple[dt.date, dt.date]:
    """Beano licenses run from October 1 to September 30 (renewed each October)."""
    start_year = today.year if today.month >= 10 else today.year - 1
    return dt.date(start_year, 10, 1), dt.date(start_year + 1, 9, 30)


def demo_login(username: str, first: str, last: str, *, is_staff: bool = False) -> Any:
    """A demo login with the demo's password (made once; the password set again if changed)."""
    User = get_user_model()
    user, _ = User.objects.get_or_create(
        username=username,
        defaults={"first_name": first, "last_name": last, "is_staff": is_staff},
    )
    if not user.check_password(DEMO_PASSWORD):
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    return user


class Seeder:
    """Loads the organizations' part of the demo; returns the logins it made."""

    def _user(self, username: str, first: str, last: str, *, is_staff: bool = False) -> Any:
        return demo_login(username, first, last, is_staff=is_staff)

    def seed(self, today: dt.date) -> list[tuple[str, str]]:
        logins: list[tuple[str, str]] = []
        valid_from, valid_to = license_year(today)
        organizations = {}
        for spec in ORGANIZATIONS:
            org = self._seed_organization(spec, today, valid_from, valid_to)
            organizations[spec["key"]] = org
            members = self._seed_people(org, spec, logins)
            seed_worker_list(
                org, {n: m.person for n, m in members.items()}, spec["workers"], today.year
            )
        for key, reference in (
            ("post171", "MSLC-BN-2026-0171-6C"),
            ("stanne", "MSLC-BN-2026-0818-6C"),
        ):
            DirectorAuthorization.objects.get_or_create(
                reference_number=reference,
                defaults={
                    "organization": organizations[key],
                    "kind": AuthorizationKind.WINNING_ARRANGEMENT,
                    "subject": "Single line, four corners, two lines, letter X, postage stamp, "
                    "picture frame, letter T, six pack, small diamond, letter H, inner square, "
                    "coverall",
                    "valid_from": valid_from,
                    "valid_to": valid_to,
                    "granted_by": "Director, Charitable Gaming Division",
                },
            )
        logins += self._seed_commission(organizations)
        seed_equipment(organizations, valid_from, valid_to, today)
        return logins

    def _seed_organization(
        self, spec: dict[str, Any], today: dt.date, valid_from: dt.date, valid_to: dt.date
    ) -> Organization:
        fields = ("kind", "founded_on", "street", "town", "zip_code", "telephone", "federal_id")
        org, _ = Organization.objects.get_or_create(
            name=spec["name"],
            defaults={
                **{k: spec[k] for k in fields},
                "reports_from": today if spec.get("paper_reports") else None,
            },
        )
        License.objects.get_or_create(
            number=spec["license"]["number"],
            defaults={
                **spec["license"],
                "organization": org,
                "valid_from": valid_from,
                "valid_to": valid_to,
            },
        )
        return org

    def _seed_people(
        self, org: Organization, spec: dict[str, Any], logins: list[tuple[str, str]]
    ) -> dict[str, Membership]:
        """The organization's members, and a login for each one holding a role."""
        members: dict[str, Membership] = {
            m.person.legal_name: m
            for m in Membership.objects.filter(organization=org).select_related("person")
        }
        for name, born, worker_id, kind, family_of, relation, role, login in spec["people"]:
            if name not in members:
                members[name] = services.add_member(
                    organization=org,
                    by=None,
                    legal_name=name,
                    date_of_birth=born,
                    commission_worker_id=worker_id,
                    kind=kind,
                    since=dt.date(2015, 1, 1) if kind != "family" else dt.date(2024, 9, 12),
                    family_of=members.get(family_of) if family_of else None,
                    relationship=relation,
                )
            if role is not None:
                first, last = name.split(" ", 1)
                username = f"{spec['key']}-{login}"
                user = self._user(username, first, last)
                services.assign_role(
                    organization=org,
                    by=None,
                    user=user,
                    role=role,
                    person=Person.objects.get(legal_name=name, date_of_birth=born),
                )
                logins.append((username, f"{Role(role).label}, {org.name}"))
        return members

    def _seed_commission(self, organizations: dict[str, Organization]) -> list[tuple[str, str]]:
        """Two inspectors (one for every organization, one for Post 171 only) and an admin."""
        inspector = self._user("inspector", "Dana", "Whitfield")
        CommissionStaff.objects.get_or_create(
            user=inspector,
            defaults={"kind": CommissionStaff.Kind.INSPECTOR, "all_organizations": True},
        )
        regional = self._user("inspector-south", "Luis", "Carvalho")
        staff, created = CommissionStaff.objects.get_or_create(
            user=regional, defaults={"kind": CommissionStaff.Kind.INSPECTOR}
        )
        if created:
            staff.organizations.add(organizations["post171"])
        admin = self._user("commission-admin", "Helen", "Brennan", is_staff=True)
        CommissionStaff.objects.get_or_create(
            user=admin, defaults={"kind": CommissionStaff.Kind.ADMIN, "all_organizations": True}
        )
        admin.groups.add(commission_admins())
        return [
            ("inspector", "Commission inspector, every organization (read-only)"),
            ("inspector-south", "Commission inspector, American Legion Post 171 only"),
            ("commission-admin", "Commission admin (licenses, authorizations, limits)"),
        ]


#: A worker as the demo lists them: name, roles, badge, what they are paid for (empty: unpaid)
#: and who attested their good moral character (empty: no one).
Worker = tuple[str, list[str], str, str, str]


def seed_worker_list(
    org: Organization, people: dict[str, Person], workers: Iterable[Worker], year: int
) -> None:
    """The year's worker list (961 CMR 3.04(1)(b)), added through the service so that every
    entry is judged by the rules like one added on the page. The list is drawn up on the
    first day of the year, so the demo's past nights find their workers on it; a worker
    listed already (a second seeding) is left as they are."""
    listed = set(
        WorkerListEntry.objects.filter(
            worker_list__organization=org, worker_list__year=year
        ).values_list("person__legal_name", flat=True)
    )
    for name, roles, badge, paid_for, attested_by in workers:
        if name in listed:
            continue
        add_to_worker_list(
            organization=org,
            year=year,
            person=people[name],
            roles=roles,
            identification=badge,
            compensated=bool(paid_for),
            compensation_note=paid_for,
            good_moral_character_attested=bool(attested_by),
            attested_by=attested_by,
            on=dt.date(year, 1, 1),
            by=None,
        )

"""The demo's practice hall: an organization that is not a licensee, on a practice license
(``License.practice``) authorizing every day of the week around the clock, so that the demo can
leave an occasion open whatever the hour a new user tries the floor (beano.demo.practice_night). Its
days owe no report and the Commission's pages leave it out.

Its people are its own, on no real organization's worker list, so the count of worker lists a
person is on (961 CMR 3.04(1)(c)) stays that of the licensees. Post 171's member in charge,
bookkeeper and worker logins hold the same roles here: the practice night is on the dashboard
of the logins a new user tries first. Idempotent."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from beano.demo.organizations import seed_worker_list
from beano.rules import AuthorizationKind
from organizations import services
from organizations.equipment_services import register_equipment
from organizations.models import (
    DirectorAuthorization,
    Equipment,
    License,
    Membership,
    Organization,
    Role,
)

NAME = "Practice Hall (demo — not a licensee)"
LICENSE_NUMBER = "PRACTICE-DEMO"
EVERY_DAY = [0, 1, 2, 3, 4, 5, 6]
#: The whole day: an act's time is judged to the second (occasions.floor_selectors.hours_facts).
ALL_DAY = (dt.time(0, 0), dt.time(23, 59, 59))
#: How many years the practice license runs from the year it was first seeded.
LICENSE_YEARS = 10
ARRANGEMENTS_REFERENCE = "PRACTICE-DEMO-6C"

#: (name, born, roles on the worker list, badge, good moral character attested by)
PEOPLE = (
    ("Jordan Vale", dt.date(1968, 5, 4), ["member_in_charge", "gross_receipts"], "PH-01", ""),
    ("Casey Marsh", dt.date(1961, 9, 12), ["caller"], "PH-02", "Jordan Vale, practice hall"),
    ("Robin Hale", dt.date(1975, 2, 20), ["seller", "floor_worker"], "PH-03", ""),
    ("Morgan Pike", dt.date(1970, 11, 3), ["bookkeeper"], "PH-04", ""),
)
#: Post 171's logins that hold the same role at the practice hall.
LOGINS = (
    ("post171-mic", Role.MEMBER_IN_CHARGE),
    ("post171-books", Role.BOOKKEEPER),
    ("post171-worker", Role.WORKER),
)
EQUIPMENT = (
    ("Blower, practice", "receptacle", "Practice equipment (demo): no bill of sale"),
    ("Ball set, 75 balls, practice", "ball_set", "Practice equipment (demo): no bill of sale"),
)


def seed_practice_hall(today: dt.date) -> Organization:
    """The practice hall with its license, people, this year's worker list, equipment, the
    authorization of the common winning arrangements, and Post 171's logins' roles."""
    organization, _ = Organization.objects.get_or_create(
        name=NAME,
        defaults={
            "kind": Organization.Kind.CHARITABLE,
            "founded_on": dt.date(2000, 1, 1),
            "street": "1 Practice Lane",
            "town": "Fairhaven",
            "zip_code": "02719",
            "telephone": "",
            "federal_id": "",
        },
    )
    valid_from = dt.date(today.year, 1, 1)
    valid_to = dt.date(today.year + LICENSE_YEARS, 12, 31)
    License.objects.get_or_create(
        number=LICENSE_NUMBER,
        defaults={
            "organization": organization,
            "valid_from": valid_from,
            "valid_to": valid_to,
            "premises_name": "Any hall laptop (practice)",
            "premises_address": "Wherever the application is tried",
            "authorized_weekdays": EVERY_DAY,
            "start_time": ALL_DAY[0],
            "end_time": ALL_DAY[1],
            "local_licensing_authority": "None: a practice license, not issued by a licensing "
            "authority",
            "practice": True,
        },
    )
    DirectorAuthorization.objects.get_or_create(
        reference_number=ARRANGEMENTS_REFERENCE,
        defaults={
            "organization": organization,
            "kind": AuthorizationKind.WINNING_ARRANGEMENT,
            "subject": "Practice (demo): the common winning arrangements, single line to coverall",
            "valid_from": valid_from,
            "valid_to": valid_to,
            "granted_by": "Practice (demo): no Director's authorization",
        },
    )
    members = _seed_members(organization)
    seed_worker_list(
        organization,
        {n: m.person for n, m in members.items()},
        [(name, roles, badge, "", attested) for name, _, roles, badge, attested in PEOPLE],
        today.year,
    )
    if not Equipment.objects.filter(organization=organization).exists():
        for description, kind, proof in EQUIPMENT:
            register_equipment(
                organization=organization,
                by=None,
                description=description,
                kind=kind,
                ownership="owned",
                proof_reference=proof,
            )
    users = get_user_model().objects.in_bulk([u for u, _ in LOGINS], field_name="username")
    for username, role in LOGINS:
        if username in users:
            services.assign_role(
                organization=organization, by=None, user=users[username], role=role
            )
    return organization


def _seed_members(organization: Organization) -> dict[str, Membership]:
    members = {
        m.person.legal_name: m
        for m in Membership.objects.filter(organization=organization).select_related("person")
    }
    for name, born, *_ in PEOPLE:
        if name not in members:
            members[name] = services.add_member(
                organization=organization,
                by=None,
                legal_name=name,
                date_of_birth=born,
                kind="member",
                since=dt.date(2015, 1, 1),
            )
    return members

"""The demo's practice hall: an organization that is not a licensee, on a practice license
(``License.practice``) authorizing every day of the week around the clock, so that the demo can
leave an occasion open whatever the hour a new user tries the floor (beano.demo.practice_night). Its
days owe no report and the Commission's pages leave it out.

Its people are its own, on no real organization's worker list, so the count of worker lists a
person is on (961 CMR 3.04(1)(c)) stays that of the licensees. Each has a login of the hall
that names them (``LOGINS``), with a personal PIN to confirm a two-person act: every act of the
practice night is done by a worker of its list signed in that night (3.04(1)(b)), the void's
witness, the payout's verifier and the cash count's verifier included. Its head (``HEAD``) is on no
list: never on the floor, she makes the hall's API tokens. Post 171's logins, which held roles
here before the hall had its own, hold none: they are on no list of the hall.
Idempotent."""

from __future__ import annotations

import datetime as dt

from beano.accounts.pins import has_pin, set_pin
from beano.demo import DEMO_PASSWORD
from beano.demo.organizations import demo_login, seed_worker_list
from beano.rules import AuthorizationKind
from organizations import people, services
from organizations.equipment_services import register_equipment
from organizations.models import (
    DirectorAuthorization,
    Equipment,
    License,
    Membership,
    Organization,
    OrganizationRole,
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
#: The hall's logins: (username, the person of its list, role, personal PIN, the part each
#: plays on the practice night). The PINs are published with the password (README).
LOGINS = (
    ("practice-mic", "Jordan Vale", Role.MEMBER_IN_CHARGE, "1357", "member in charge"),
    ("practice-caller", "Casey Marsh", Role.WORKER, "2468", "caller"),
    ("practice-door", "Robin Hale", Role.WORKER, "3579", "seller and floor worker"),
    ("practice-books", "Morgan Pike", Role.BOOKKEEPER, "4680", "bookkeeper (not compensated)"),
)
#: The hall's head of organization (``HEAD``): not on its worker list and never on its floor, a
#: member who makes the hall's API tokens (only a head makes an organization's: the demo's are
#: in ``beano.demo.api_tokens``) and gives a second factor like every head.
HEAD = ("practice-head", "Theresa Dunn", dt.date(1956, 7, 9))
#: Post 171's logins, which held roles here before the hall had logins of its own.
FORMER_LOGINS = ("post171-mic", "post171-books", "post171-worker")
EQUIPMENT = (
    ("Blower, practice", "receptacle", "Practice equipment (demo): no bill of sale"),
    ("Ball set, 75 balls, practice", "ball_set", "Practice equipment (demo): no bill of sale"),
)


def seed_practice_hall(today: dt.date) -> list[tuple[str, str]]:
    """The practice hall with its license, people, this year's worker list, equipment, the
    authorization of the common winning arrangements, and its logins (returned as the demo
    prints them) with their PINs."""
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
    _retire_former_logins(organization)
    return [_seed_head(organization), *_seed_logins(organization, members)]


def _seed_head(organization: Organization) -> tuple[str, str]:
    """The hall's head: a member on no worker list, with a login (``HEAD``)."""
    username, name, born = HEAD
    member = Membership.objects.filter(
        organization=organization, person__legal_name=name
    ).first() or services.add_member(
        organization=organization,
        by=None,
        legal_name=name,
        date_of_birth=born,
        kind="member",
        since=dt.date(2015, 1, 1),
    )
    first, last = name.split(" ", 1)
    user = demo_login(username, first, last)
    services.assign_role(
        organization=organization, by=None, user=user, role=Role.HEAD, person=member.person
    )
    return username, f"{name}: head of organization at the practice hall (makes its API tokens)"


def _seed_logins(
    organization: Organization, members: dict[str, Membership]
) -> list[tuple[str, str]]:
    """Each login of ``LOGINS`` in its role, naming its person, with its PIN (set the first
    time; one changed by someone trying the demo is theirs)."""
    logins = []
    for username, name, role, pin, part in LOGINS:
        first, last = name.split(" ", 1)
        user = demo_login(username, first, last)
        services.assign_role(
            organization=organization, by=None, user=user, role=role, person=members[name].person
        )
        if not has_pin(user):  # once: a PIN is checked by a slow hash, and re-seeding is quick
            set_pin(user=user, pin=pin, current_password=DEMO_PASSWORD)
        logins.append((username, f"{name}: {part} at the practice hall (PIN {pin})"))
    return logins


def _retire_former_logins(organization: Organization) -> None:
    """Post 171's logins lose the roles they held here (a demo seeded before the hall had logins
    of its own): on no list of the hall, they could do nothing on its floor."""
    held = OrganizationRole.objects.filter(
        organization=organization, user__username__in=FORMER_LOGINS
    ).select_related("user")
    for user in {role.user for role in held}:
        people.deactivate(organization=organization, user=user, by=None)


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

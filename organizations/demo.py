"""The organizations' demo data: two organizations with their people, roles, worker lists,
equipment and cards, two smaller ones with their worker lists only, an inspector and a
Commission admin. Idempotent."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from beano.rules import AuthorizationKind
from organizations import services
from organizations.demo_equipment import seed_equipment
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

DEMO_PASSWORD = "Beano-Demo-2026"
COMMISSION_ADMIN_GROUP = "Commission admins"

ORGANIZATIONS = [
    {
        "key": "post171",
        "name": "American Legion Post 171",
        "kind": Organization.Kind.VETERANS,
        "founded_on": dt.date(1946, 5, 30),
        "street": "52 Main Street",
        "town": "Fairhaven",
        "zip_code": "02719",
        "telephone": "508-555-0171",
        "federal_id": "04-1234171",
        "license": {
            "number": "BN-0171-FH",
            "premises_name": "Post 171 Function Hall",
            "premises_address": "52 Main Street, Fairhaven, MA 02719",
            "authorized_weekdays": [4],
            "start_time": dt.time(18, 45),
            "end_time": dt.time(22, 30),
            "local_licensing_authority": "Fairhaven Select Board",
        },
        "people": [
            # (name, born, worker id, kind, family of, relationship, role, username)
            (
                "Robert Medeiros",
                dt.date(1951, 3, 14),
                "MA-W-100171",
                "member",
                None,
                "",
                Role.HEAD,
                "head",
            ),
            (
                "Linda Souza",
                dt.date(1962, 8, 2),
                "MA-W-100172",
                "member",
                None,
                "",
                Role.MEMBER_IN_CHARGE,
                "mic",
            ),
            (
                "Karen Pacheco",
                dt.date(1970, 11, 20),
                "MA-W-100173",
                "member",
                None,
                "",
                Role.BOOKKEEPER,
                "books",
            ),
            (
                "Thomas Ferreira",
                dt.date(1958, 1, 9),
                "MA-W-100174",
                "member",
                None,
                "",
                Role.WORKER,
                "worker",
            ),
            ("Joseph Rebello", dt.date(1955, 6, 30), "MA-W-100175", "member", None, "", None, None),
            (
                "Mary Gallagher",
                dt.date(1960, 4, 17),
                "MA-W-100176",
                "auxiliary",
                None,
                "",
                None,
                None,
            ),
            (
                "Emily Souza",
                dt.date(2006, 9, 12),
                "",
                "family",
                "Linda Souza",
                "daughter",
                None,
                None,
            ),
            ("Paul Costa", dt.date(1949, 12, 1), "", "lapsed", None, "", None, None),
        ],
        "workers": [
            # (name, roles, badge, paid for, attested by): the list for the current year
            ("Robert Medeiros", ["gross_receipts"], "P171-01", "", ""),
            ("Linda Souza", ["member_in_charge"], "P171-02", "", ""),
            ("Karen Pacheco", ["bookkeeper"], "P171-03", "$50 an occasion: the report", ""),
            ("Thomas Ferreira", ["caller"], "P171-04", "", "Robert Medeiros, Commander"),
            ("Joseph Rebello", ["caller_assistant"], "P171-05", "", "Robert Medeiros, Commander"),
            ("Mary Gallagher", ["seller"], "P171-06", "", ""),
            ("Emily Souza", ["seller", "floor_worker"], "", "", ""),
        ],
    },
    {
        "key": "stanne",
        "name": "St. Anne's Parish",
        "kind": Organization.Kind.RELIGIOUS,
        "founded_on": dt.date(1892, 7, 26),
        "street": "818 Middle Street",
        "town": "Fall River",
        "zip_code": "02721",
        "telephone": "508-555-0818",
        "federal_id": "04-5550818",
        "license": {
            "number": "BN-0818-FR",
            "premises_name": "St. Anne's Parish Hall",
            "premises_address": "818 Middle Street, Fall River, MA 02721",
            "authorized_weekdays": [1],
            "start_time": dt.time(18, 30),
            "end_time": dt.time(22, 0),
            "local_licensing_authority": "Fall River Licensing Board",
        },
        "people": [
            (
                "Michael Duarte",
                dt.date(1965, 2, 3),
                "MA-W-200818",
                "member",
                None,
                "",
                Role.HEAD,
                "head",
            ),
            (
                "Anne Sullivan",
                dt.date(1968, 10, 5),
                "MA-W-200819",
                "member",
                None,
                "",
                Role.MEMBER_IN_CHARGE,
                "mic",
            ),
            (
                "Patricia Moniz",
                dt.date(1972, 7, 22),
                "MA-W-200820",
                "member",
                None,
                "",
                Role.BOOKKEEPER,
                "books",
            ),
            (
                "George Almeida",
                dt.date(1957, 3, 28),
                "MA-W-200821",
                "member",
                None,
                "",
                Role.WORKER,
                "worker",
            ),
            ("Mary Gallagher", dt.date(1960, 4, 17), "MA-W-100176", "member", None, "", None, None),
        ],
        "workers": [
            ("Michael Duarte", ["gross_receipts", "member_in_charge"], "SA-01", "", ""),
            ("Anne Sullivan", ["member_in_charge"], "SA-02", "", ""),
            ("Patricia Moniz", ["bookkeeper"], "SA-03", "", ""),
            ("George Almeida", ["caller"], "SA-04", "", "Rev. Paul Medeiros, Pastor"),
            ("Mary Gallagher", ["seller", "caller_assistant"], "SA-05", "", "Rev. Paul Medeiros"),
        ],
    },
    # Two small organizations without logins or occasions, so that an inspector finds Mary
    # Gallagher on four organizations' worker lists this year, the most 3.04(1)(c) allows, and
    # a caller whose name is that of a winner at Post 171 (a "possible" worker among winners).
    # Their reports were filed on paper until the demo's day ("paper_reports"), so none is owed
    # here yet.
    {
        "key": "kofc4410",
        "paper_reports": True,
        "name": "Knights of Columbus Council 4410",
        "kind": Organization.Kind.FRATERNAL,
        "founded_on": dt.date(1921, 3, 6),
        "street": "211 Union Street",
        "town": "New Bedford",
        "zip_code": "02740",
        "telephone": "508-555-4410",
        "federal_id": "04-4410211",
        "license": {
            "number": "BN-4410-NB",
            "premises_name": "Council 4410 Hall",
            "premises_address": "211 Union Street, New Bedford, MA 02740",
            "authorized_weekdays": [2],
            "start_time": dt.time(19, 0),
            "end_time": dt.time(22, 30),
            "local_licensing_authority": "New Bedford Licensing Board",
        },
        "people": [
            ("Daniel Reis", dt.date(1959, 5, 12), "MA-W-304410", "member", None, "", None, None),
            ("Susan Tavares", dt.date(1966, 9, 3), "MA-W-304411", "member", None, "", None, None),
            ("Helen Vieira", dt.date(1963, 2, 19), "MA-W-304412", "member", None, "", None, None),
            ("Mary Gallagher", dt.date(1960, 4, 17), "MA-W-100176", "member", None, "", None, None),
        ],
        "workers": [
            ("Daniel Reis", ["gross_receipts", "member_in_charge"], "K4410-01", "", ""),
            ("Susan Tavares", ["bookkeeper"], "K4410-02", "", ""),
            ("Helen Vieira", ["caller"], "K4410-03", "", "Daniel Reis, Grand Knight"),
            ("Mary Gallagher", ["seller"], "K4410-04", "", ""),
        ],
    },
    {
        "key": "acushnetfire",
        "paper_reports": True,
        "name": "Acushnet Volunteer Fire Association",
        "kind": Organization.Kind.VOLUNTEER_FIRE,
        "founded_on": dt.date(1938, 8, 1),
        "street": "130 Main Street",
        "town": "Acushnet",
        "zip_code": "02743",
        "telephone": "508-555-0130",
        "federal_id": "04-0130743",
        "license": {
            "number": "BN-0130-AC",
            "premises_name": "Acushnet Fire Station Hall",
            "premises_address": "130 Main Street, Acushnet, MA 02743",
            "authorized_weekdays": [5],
            "start_time": dt.time(18, 30),
            "end_time": dt.time(22, 0),
            "local_licensing_authority": "Acushnet Select Board",
        },
        "people": [
            ("Peter Mello", dt.date(1961, 11, 30), "MA-W-400130", "member", None, "", None, None),
            ("Carol Amaral", dt.date(1969, 4, 8), "MA-W-400131", "member", None, "", None, None),
            ("Steven Rego", dt.date(1974, 6, 21), "MA-W-400132", "member", None, "", None, None),
            (
                "Mary Gallagher",
                dt.date(1960, 4, 17),
                "MA-W-100176",
                "auxiliary",
                None,
                "",
                None,
                None,
            ),
        ],
        "workers": [
            ("Peter Mello", ["gross_receipts", "member_in_charge"], "AVF-01", "", ""),
            ("Carol Amaral", ["bookkeeper"], "AVF-02", "", ""),
            ("Steven Rego", ["caller"], "AVF-03", "", "Peter Mello, President"),
            ("Mary Gallagher", ["floor_worker"], "AVF-04", "", ""),
        ],
    },
]


def license_year(today: dt.date) -> tuple[dt.date, dt.date]:
    """Beano licenses run from October 1 to September 30 (renewed each October)."""
    start_year = today.year if today.month >= 10 else today.year - 1
    return dt.date(start_year, 10, 1), dt.date(start_year + 1, 9, 30)


class Seeder:
    """Loads the organizations' part of the demo; returns the logins it made."""

    def _user(self, username: str, first: str, last: str, *, is_staff: bool = False) -> Any:
        User = get_user_model()
        user, _ = User.objects.get_or_create(
            username=username,
            defaults={"first_name": first, "last_name": last, "is_staff": is_staff},
        )
        if not user.check_password(DEMO_PASSWORD):
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        return user

    def seed(self, today: dt.date) -> list[tuple[str, str]]:
        logins: list[tuple[str, str]] = []
        valid_from, valid_to = license_year(today)
        organizations = {}
        for spec in ORGANIZATIONS:
            org, _ = Organization.objects.get_or_create(
                name=spec["name"],
                defaults={
                    **{
                        k: spec[k]
                        for k in (
                            "kind",
                            "founded_on",
                            "street",
                            "town",
                            "zip_code",
                            "telephone",
                            "federal_id",
                        )
                    },
                    "reports_from": today if spec.get("paper_reports") else None,
                },
            )
            organizations[spec["key"]] = org
            License.objects.get_or_create(
                number=spec["license"]["number"],
                defaults={
                    **spec["license"],
                    "organization": org,
                    "valid_from": valid_from,
                    "valid_to": valid_to,
                },
            )
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
            self._seed_worker_list(org, members, spec["workers"], today)
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
        inspector = self._user("inspector", "Dana", "Whitfield")
        CommissionStaff.objects.get_or_create(
            user=inspector,
            defaults={"kind": CommissionStaff.Kind.INSPECTOR, "all_organizations": True},
        )
        logins.append(("inspector", "Commission inspector, every organization (read-only)"))
        regional = self._user("inspector-south", "Luis", "Carvalho")
        staff, created = CommissionStaff.objects.get_or_create(
            user=regional, defaults={"kind": CommissionStaff.Kind.INSPECTOR}
        )
        if created:
            staff.organizations.add(organizations["post171"])
        logins.append(("inspector-south", "Commission inspector, American Legion Post 171 only"))
        admin = self._user("commission-admin", "Helen", "Brennan", is_staff=True)
        CommissionStaff.objects.get_or_create(
            user=admin, defaults={"kind": CommissionStaff.Kind.ADMIN, "all_organizations": True}
        )
        group = commission_admin_group()
        admin.groups.add(group)
        logins.append(("commission-admin", "Commission admin (licenses, authorizations, limits)"))
        seed_equipment(organizations, valid_from, valid_to, today)
        return logins

    def _seed_worker_list(
        self,
        org: Organization,
        members: dict[str, Membership],
        workers: list[tuple[str, list[str], str, str, str]],
        today: dt.date,
    ) -> None:
        """This year's worker list (961 CMR 3.04(1)(b)), added through the service so that every
        entry is judged by the rules like one added on the page. The list is drawn up on the
        first day of the year, so the demo's past nights find their workers on it."""
        listed = set(
            WorkerListEntry.objects.filter(
                worker_list__organization=org, worker_list__year=today.year
            ).values_list("person__legal_name", flat=True)
        )
        for name, roles, badge, paid_for, attested_by in workers:
            if name in listed:
                continue
            add_to_worker_list(
                organization=org,
                year=today.year,
                person=members[name].person,
                roles=roles,
                identification=badge,
                compensated=bool(paid_for),
                compensation_note=paid_for,
                good_moral_character_attested=bool(attested_by),
                attested_by=attested_by,
                on=dt.date(today.year, 1, 1),
                by=None,
            )


def commission_admin_group() -> Group:
    """The Commission admins' permissions: licensing data, never the audit trail's content."""
    group, _ = Group.objects.get_or_create(name=COMMISSION_ADMIN_GROUP)
    permissions = Permission.objects.filter(content_type__app_label__in=["organizations"]).exclude(
        codename__in=[
            "add_auditevent",
            "change_auditevent",
            "delete_auditevent",
            "add_auditchain",
            "add_refusedaction",
            "change_refusedaction",
            "delete_refusedaction",
            "change_auditchain",
            "delete_auditchain",
            "add_recordview",
            "change_recordview",
            "delete_recordview",
        ]
    )
    group.permissions.add(*permissions)
    # Commission data kept with the occasions: police rates (3.04(3)(e)), charity serials (8)(f).
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="occasions",
            content_type__model__in=["prevailingpolicerate", "charityticketserialassignment"],
        ).exclude(codename__startswith="delete_"),
        *Permission.objects.filter(
            content_type__app_label="occasions",
            content_type__model__in=["rafflepermit", "policedetail"],
            codename__startswith="view_",
        ),
        # The arrangements each authorization of permissible winning arrangements names (6)(c).
        *Permission.objects.filter(
            content_type__app_label="games", content_type__model="arrangementauthorization"
        ),
        # Resetting a user's lost authenticator (the next login enrols a new one); never adding
        # or changing one, and the keys stay hidden (settings.OTP_ADMIN_HIDE_SENSITIVE_DATA).
        *Permission.objects.filter(
            content_type__app_label="otp_totp",
            codename__in=["view_totpdevice", "delete_totpdevice"],
        ),
    )
    return group

"""Worker lists on the database: the services judged by 961 CMR 3.04(1)-(2), the refusal log,
waivers recorded on the entry, the cross-organization count, and the pages."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from beano.rules import RuleViolation
from beano.rules.models import RefusedAction
from organizations import services
from organizations.models import (
    AuditEvent,
    DirectorAuthorization,
    Membership,
    Organization,
    Person,
    WorkerList,
    WorkerListEntry,
)
from organizations.worker_selectors import worker_list_review
from organizations.worker_services import (
    add_to_worker_list,
    record_conviction,
    remove_from_worker_list,
    update_worker_list_entry,
)
from tests.conftest import login, make_organization, refusal_shown

YEAR = 2026
ON = dt.date(YEAR, 3, 13)
BORN = dt.date(1960, 4, 17)


def join(org: Organization, name: str = "Mary Gallagher", kind: str = "member", **kw: Any):
    return services.add_member(
        organization=org,
        by=None,
        legal_name=name,
        date_of_birth=kw.pop("date_of_birth", BORN),
        kind=kind,
        since=dt.date(2015, 1, 1),
        **kw,
    )


def add(org: Organization, person: Person, *, on: dt.date = ON, by: Any = None, **kw: Any):
    values: dict[str, Any] = {
        "roles": ["seller"],
        "identification": "B-1",
        "compensated": False,
        "compensation_note": "",
        "good_moral_character_attested": False,
        "attested_by": "",
    }
    values.update(kw)
    return add_to_worker_list(organization=org, year=on.year, person=person, on=on, by=by, **values)


def counts() -> tuple[int, int, int]:
    return WorkerList.objects.count(), WorkerListEntry.objects.count(), AuditEvent.objects.count()


def test_it_adds_a_member_to_the_list_and_audits_it(tenant, member):
    entry = add(
        tenant.organization,
        member.person,
        roles=["caller"],
        good_moral_character_attested=True,
        attested_by="Fr. Silva",
        by=tenant.head,
    )
    assert entry.worker_list.year == YEAR and entry.attested_on == ON
    event = AuditEvent.objects.filter(organization=tenant.organization).last()
    assert event.action == "organizations.worker_list.added"
    assert event.actor == tenant.head
    assert event.new_values["roles"] == ["caller"]
    assert event.new_values["person_name"] == "Joseph Rebello"


def test_it_refuses_a_lapsed_member_with_the_citation_and_saves_nothing(tenant, member):
    services.update_membership(membership=member, by=None, kind="lapsed", until=None)
    before = counts()
    with pytest.raises(RuleViolation) as refused:
        add(tenant.organization, member.person)
    assert refused.value.citations == ["961 CMR 3.04(1)(b)"]
    assert str(refused.value.messages[0]).startswith("961 CMR 3.04(1)(b): Joseph Rebello")
    assert counts() == before


@pytest.mark.django_db(transaction=True)
def test_the_refusal_is_logged_and_survives_the_rollback(tenant, member):
    with pytest.raises(RuleViolation):
        add(tenant.organization, member.person, compensated=True, by=tenant.member_in_charge)
    assert not WorkerListEntry.objects.exists() and not WorkerList.objects.exists()
    logged = RefusedAction.objects.get()
    assert logged.action == "worker_list.add"
    assert logged.citations == "961 CMR 3.04(1)(f)"
    assert logged.violations[0]["code"] == "W-1F-NO-COMPENSATION"
    assert logged.organization_id == tenant.organization.pk
    assert logged.user == tenant.member_in_charge


def test_it_refuses_a_family_member_under_18(tenant, member):
    young = join(
        tenant.organization,
        "Emily Rebello",
        kind="family",
        family_of=member,
        date_of_birth=dt.date(YEAR - 18, 3, 14),  # 18 on March 14
    )
    with pytest.raises(RuleViolation) as refused:
        add(tenant.organization, young.person, on=ON)
    assert refused.value.citations == ["961 CMR 3.04(1)(b)"]
    assert add(tenant.organization, young.person, on=ON + dt.timedelta(days=1)).pk


def _five_organizations(person_name: str = "Mary Gallagher") -> tuple[list[Organization], Person]:
    orgs = [make_organization(f"Hall {i}") for i in range(1, 6)]
    memberships = [join(org, person_name) for org in orgs]
    return orgs, memberships[0].person


def test_it_refuses_a_fifth_organization(db):
    orgs, person = _five_organizations()
    for org in orgs[:4]:
        add(org, person)
    with pytest.raises(RuleViolation) as refused:
        add(orgs[4], person)
    assert refused.value.citations == ["961 CMR 3.04(1)(c)"]
    message = refused.value.violations[0].message
    assert message.startswith(
        "Mary Gallagher is already on the 2026 worker lists of Hall 1 (listed"
    )
    assert "only a Director's written authorization can allow a 5th." in message
    assert WorkerListEntry.objects.filter(person=person).count() == 4
    assert not WorkerList.objects.filter(organization=orgs[4]).exists()


def test_a_new_calendar_year_resets_the_count(db):
    orgs, person = _five_organizations()
    for org in orgs[:4]:
        add(org, person, on=dt.date(YEAR - 1, 11, 1))
    assert add(orgs[4], person, on=dt.date(YEAR, 1, 2)).pk


def test_a_person_taken_off_a_list_still_counts_toward_four_that_year(db):
    orgs, person = _five_organizations()
    entries = [add(org, person) for org in orgs[:4]]
    remove_from_worker_list(entry=entries[0], on=ON + dt.timedelta(days=1), by=None)
    with pytest.raises(RuleViolation) as refused:
        add(orgs[4], person, on=ON + dt.timedelta(days=2))
    assert refused.value.citations == ["961 CMR 3.04(1)(c)"]


def _authorization(org: Organization, person: Person, **kw: Any) -> DirectorAuthorization:
    values = {
        "kind": "1c_four_orgs",
        "reference_number": "DIR-2026-014",
        "subject": "Mary Gallagher may assist a fifth organization in 2026",
        "valid_from": dt.date(YEAR, 1, 1),
        "valid_to": dt.date(YEAR, 12, 31),
    }
    values.update(kw)
    return DirectorAuthorization.objects.create(organization=org, person=person, **values)


def test_a_directors_authorization_waives_the_fifth_organization_and_is_saved_on_the_entry(db):
    orgs, person = _five_organizations()
    for org in orgs[:4]:
        add(org, person)
    granted = _authorization(orgs[4], person)
    entry = add(orgs[4], person)
    assert list(entry.authorizations.all()) == [granted]
    event = AuditEvent.objects.filter(organization=orgs[4]).last()
    assert event.new_values["authorizations"] == ["DIR-2026-014"]


def test_the_fifth_organizations_waiver_leaves_the_first_four_lists_lawful(db):
    """The hole: once the fifth organization had the Director's authorization, the person was
    "5 of 4 — not eligible" on the four lists lawful since January, and refused at sign-in."""
    from organizations.worker_selectors import worker_list_review as review

    orgs, person = _five_organizations()
    for org in orgs[:4]:
        add(org, person)
    _authorization(orgs[4], person)
    add(orgs[4], person)
    for org in orgs[:4]:
        rows = review(org, YEAR, today=ON).active
        row = next(r for r in rows if r.entry.person_id == person.pk)
        assert row.decision.allowed, (org.name, row.decision.violations)
    fifth = next(
        r for r in review(orgs[4], YEAR, today=ON).active if r.entry.person_id == person.pk
    )
    assert fifth.decision.allowed and [w.reference for w in fifth.decision.waivers] == [
        "DIR-2026-014"
    ]


@pytest.mark.parametrize(
    "changes",
    [{"valid_to": dt.date(YEAR, 3, 12)}, {"person": "other"}],
    ids=["expired", "for another person"],
)
def test_an_authorization_that_does_not_cover_it_waives_nothing(db, changes):
    orgs, person = _five_organizations()
    for org in orgs[:4]:
        add(org, person)
    if changes.get("person") == "other":
        changes = {"person": join(orgs[4], "Someone Else").person}
        _authorization(orgs[4], **changes)
    else:
        _authorization(orgs[4], person, **changes)
    with pytest.raises(RuleViolation) as refused:
        add(orgs[4], person)
    assert refused.value.citations == ["961 CMR 3.04(1)(c)"]


def test_a_conviction_recorded_by_another_organization_bars_a_caller(tenant, other_tenant, member):
    elsewhere = join(
        other_tenant.organization, "Joseph Rebello", date_of_birth=dt.date(1955, 6, 30)
    )
    record_conviction(
        organization=other_tenant.organization,
        person=elsewhere.person,
        convicted_on=dt.date(YEAR - 2, 5, 1),
        traffic_only=False,
        description="Larceny over $1,200",
        today=ON,
        by=other_tenant.head,
    )
    with pytest.raises(RuleViolation) as refused:
        add(
            tenant.organization,
            member.person,
            roles=["caller"],
            good_moral_character_attested=True,
            attested_by="R. Medeiros",
        )
    assert refused.value.citations == ["961 CMR 3.04(1)(i)"]
    assert add(tenant.organization, member.person, roles=["seller"]).pk


def test_a_refused_update_leaves_the_entry_as_it_was(tenant, member):
    entry = add(tenant.organization, member.person)
    events = AuditEvent.objects.count()
    with pytest.raises(RuleViolation) as refused:
        update_worker_list_entry(
            entry=entry,
            roles=["bookkeeper", "seller"],
            identification="B-1",
            compensated=True,
            compensation_note="$40 a night",
            good_moral_character_attested=False,
            attested_by="",
            on=ON,
            by=tenant.head,
        )
    assert refused.value.citations == ["961 CMR 3.04(1)(g)"]
    entry.refresh_from_db()
    assert (entry.roles, entry.compensated) == (["seller"], False)
    assert AuditEvent.objects.count() == events


def test_it_updates_and_removes_and_puts_back(tenant, member):
    entry = add(tenant.organization, member.person)
    update_worker_list_entry(
        entry=entry,
        roles=["bookkeeper"],
        identification="B-9",
        compensated=True,
        compensation_note="$40 a night",
        good_moral_character_attested=False,
        attested_by="",
        on=ON,
        by=tenant.head,
    )
    entry.refresh_from_db()
    assert (entry.roles, entry.identification) == (["bookkeeper"], "B-9")
    remove_from_worker_list(entry=entry, on=dt.date(YEAR, 6, 1), by=tenant.head)
    back = add(tenant.organization, member.person, on=dt.date(YEAR, 7, 1))
    assert back.pk == entry.pk and back.removed_on is None
    actions = list(
        AuditEvent.objects.filter(organization=tenant.organization)
        .order_by("sequence")
        .values_list("action", flat=True)
    )
    assert actions[-4:] == [
        "organizations.worker_list.added",
        "organizations.worker_list.updated",
        "organizations.worker_list.removed",
        "organizations.worker_list.readded",
    ]


def test_it_refuses_the_same_person_twice_and_a_conviction_of_a_stranger(
    tenant, other_tenant, member
):
    add(tenant.organization, member.person)
    with pytest.raises(Exception, match="already on the 2026 worker list"):
        add(tenant.organization, member.person)
    stranger = join(other_tenant.organization, "Ann Stranger").person
    with pytest.raises(Exception, match="not on the organization"):
        record_conviction(
            organization=tenant.organization,
            person=stranger,
            convicted_on=ON,
            traffic_only=True,
            description="Speeding",
            today=ON,
            by=tenant.head,
        )


def test_the_review_warns_of_what_is_missing_and_flags_a_lapsed_member(tenant, member):
    entry = add(tenant.organization, member.person)
    review = worker_list_review(tenant.organization, YEAR, today=ON)
    assert [w.citation for w in review.warnings] == ["961 CMR 3.04(1)(a)", "961 CMR 3.04(1)(e)"]
    assert review.active[0].eligible and review.active[0].organization_count == 1
    services.update_membership(
        membership=member, by=None, kind="member", until=dt.date(YEAR, 4, 30)
    )
    later = worker_list_review(tenant.organization, YEAR, today=dt.date(YEAR, 5, 1))
    assert later.active[0].entry == entry and not later.active[0].eligible
    assert [v.citation for v in later.active[0].problems] == ["961 CMR 3.04(1)(b)"]
    assert later.ineligible_count == 1


# The pages


def _add_form(person: Person, **changes: Any) -> dict[str, Any]:
    data = {
        "person": person.pk,
        "roles": ["seller"],
        "identification": "B-7",
        "added_on": timezone.localdate().isoformat(),
        "compensation_note": "",
        "attested_by": "",
    }
    data.update(changes)
    return data


def test_the_member_in_charge_adds_a_person_from_the_page(client, tenant, member):
    login(client, tenant.member_in_charge)
    response = client.post(
        reverse("worker_add", args=[tenant.organization.pk]), _add_form(member.person)
    )
    assert response.status_code == 302
    entry = WorkerListEntry.objects.get()
    assert entry.roles == ["seller"] and entry.worker_list.year == timezone.localdate().year


def test_add_a_person_offers_only_members_not_on_the_years_list(
    client, tenant, other_tenant, member
):
    """Not offered: someone on the year's list (a post naming them says why, saves nothing).
    Offered: someone taken off it this year, even while on another organization's list."""
    year = timezone.localdate().year
    on_list = join(tenant.organization, "Ann Listed").person
    taken_off = join(tenant.organization, "Bea Removed").person
    assert join(other_tenant.organization, "Bea Removed").person == taken_off
    add(other_tenant.organization, taken_off, on=dt.date(year, 1, 2))
    add(tenant.organization, on_list, on=dt.date(year, 1, 2))
    removed = add(tenant.organization, taken_off, on=dt.date(year, 1, 2))
    remove_from_worker_list(entry=removed, on=dt.date(year, 1, 3), by=tenant.head)
    login(client, tenant.head)
    url = reverse("worker_add", args=[tenant.organization.pk]) + f"?year={year}"
    offered = client.get(url).context["form"].fields["person"].queryset
    assert list(offered) == [taken_off, member.person]  # by legal name
    before = counts()
    response = client.post(url, _add_form(on_list))
    assert response.status_code == 200
    assert (
        f"Choose a member of the organization who is not already on the {year} worker list."
        in response.content.decode()
    )
    assert counts() == before


def test_a_form_refused_by_a_rule_shows_each_citation_and_saves_nothing(client, tenant, member):
    login(client, tenant.member_in_charge)
    before = counts()
    response = client.post(
        reverse("worker_add", args=[tenant.organization.pk]),
        _add_form(member.person, roles=["caller", "seller"], compensated="on"),
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert refusal_shown(page, "961 CMR 3.04(1)(f): Joseph Rebello cannot be compensated")
    assert refusal_shown(
        page, "961 CMR 3.04(1)(i): Joseph Rebello's good moral character is not attested"
    )
    assert counts() == before
    assert RefusedAction.objects.filter(action="worker_list.add").count() == 1


def test_bad_input_gets_a_message_never_a_500(client, tenant, other_tenant, member):
    login(client, tenant.head)
    stranger = join(other_tenant.organization, "Ann Stranger").person
    url = reverse("worker_add", args=[tenant.organization.pk])
    before = counts()
    for data in (
        {},
        _add_form(member.person, roles=["boss"]),
        _add_form(stranger),
        _add_form(member.person, added_on="2001-01-01"),
        _add_form(member.person, added_on="soon"),
        _add_form(member.person, identification="X" * 100),
        _add_form(member.person, good_moral_character_attested="on"),
    ):
        response = client.post(url, data)
        assert response.status_code == 200
        assert b"invalid-feedback" in response.content or b"alert-danger" in response.content
    assert counts() == before
    for year in ("abc", "99999", "-1"):
        assert (
            client.get(
                reverse("worker_list", args=[tenant.organization.pk]), {"year": year}
            ).status_code
            == 200
        )


def test_the_list_page_shows_roles_ids_counts_and_waivers(client, tenant, other_tenant, member):
    today = timezone.localdate()
    add(tenant.organization, member.person, on=today, identification="")
    elsewhere = join(
        other_tenant.organization, "Joseph Rebello", date_of_birth=dt.date(1955, 6, 30)
    )
    add(other_tenant.organization, elsewhere.person, on=today)
    login(client, tenant.worker)
    page = client.get(reverse("worker_list", args=[tenant.organization.pk])).content.decode()
    assert "Joseph Rebello" in page and "Seller" in page
    assert "None: cannot sign in" in page
    assert '<span class="fs-5">2</span>' in page
    warning = f"961 CMR 3.04(1)(a): The {today.year} worker list designates no member"
    assert refusal_shown(page, warning)
    assert "Add a person" not in page  # a worker reads the list but does not change it


def test_the_page_names_the_authorization_an_entry_used(client, db):
    orgs, person = _five_organizations()
    today = timezone.localdate()
    for org in orgs[:4]:
        add(org, person, on=today)
    _authorization(orgs[4], person, valid_from=dt.date(today.year, 1, 1), valid_to=None)
    add(orgs[4], person, on=today)
    from tests.conftest import make_user

    user = make_user("hall5-head")
    services.assign_role(organization=orgs[4], by=None, user=user, role="head")
    login(client, user)
    page = client.get(reverse("worker_list", args=[orgs[4].pk])).content.decode()
    assert "DIR-2026-014" in page and '<span class="fs-5">5</span>' in page


def test_the_printable_list_names_the_license_and_ids(client, tenant, worker_entry, inspector):
    login(client, inspector)
    page = client.get(reverse("worker_list_print", args=[tenant.organization.pk])).content.decode()
    license_number = tenant.organization.licenses.get().number
    assert license_number in page and "Joseph Rebello" in page and "B-101" in page
    assert "css/print-workers.css" in page  # its @media print rules


def test_a_worker_may_not_change_the_list(client, tenant, worker_entry):
    login(client, tenant.worker)
    org = tenant.organization.pk
    assert client.get(reverse("worker_add", args=[org])).status_code == 403
    assert (
        client.post(
            reverse("worker_remove", args=[org, worker_entry.pk]), {"removed_on": "2026-01-01"}
        ).status_code
        == 403
    )


def test_removing_and_recording_a_conviction_from_the_pages(client, tenant, worker_entry, member):
    login(client, tenant.head)
    org = tenant.organization.pk
    today = timezone.localdate()
    response = client.post(
        reverse("conviction_add", args=[org]),
        {"person": member.person.pk, "convicted_on": today.isoformat(), "description": "Larceny"},
    )
    assert response.status_code == 302
    assert member.person.convictions.get().traffic_only is False
    response = client.post(
        reverse("worker_remove", args=[org, worker_entry.pk]), {"removed_on": today.isoformat()}
    )
    assert response.status_code == 302
    worker_entry.refresh_from_db()
    assert worker_entry.removed_on == today
    assert Membership.objects.filter(person=member.person).exists()

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from organizations import services
from organizations.models import Membership, Person


def test_it_adds_a_member_and_finds_the_same_person_from_another_organization(tenant, other_tenant):
    first = services.add_member(
        organization=tenant.organization,
        by=tenant.head,
        legal_name="Mary  Gallagher",
        date_of_birth=dt.date(1960, 4, 17),
        kind="member",
        since=dt.date(2010, 1, 1),
    )
    second = services.add_member(
        organization=other_tenant.organization,
        by=other_tenant.head,
        legal_name="mary gallagher",
        date_of_birth=dt.date(1960, 4, 17),
        kind="auxiliary",
        since=dt.date(2012, 1, 1),
    )
    assert first.person == second.person
    assert first.person.legal_name == "Mary Gallagher"
    assert Person.objects.count() == 1


def test_it_matches_by_worker_id_and_refuses_a_worker_id_of_someone_else(tenant):
    services.add_member(
        organization=tenant.organization,
        by=tenant.head,
        legal_name="Ann Lee",
        date_of_birth=dt.date(1970, 1, 1),
        kind="member",
        since=dt.date(2010, 1, 1),
        commission_worker_id="W-1",
    )
    with pytest.raises(ValidationError) as refused:
        services.add_member(
            organization=tenant.organization,
            by=tenant.head,
            legal_name="Bob Roe",
            date_of_birth=dt.date(1971, 1, 1),
            kind="member",
            since=dt.date(2010, 1, 1),
            commission_worker_id="W-1",
        )
    assert "belongs to another person" in str(refused.value)
    assert not Person.objects.filter(legal_name="Bob Roe").exists()


def test_it_refuses_the_same_person_twice_in_one_organization(tenant, member):
    with pytest.raises(ValidationError, match="already on this organization"):
        services.add_member(
            organization=tenant.organization,
            by=tenant.head,
            legal_name="Joseph Rebello",
            date_of_birth=dt.date(1955, 6, 30),
            kind="member",
            since=dt.date(2016, 1, 1),
        )


def test_a_family_member_names_a_member_of_the_same_organization(tenant, other_tenant, member):
    other_member = services.add_member(
        organization=other_tenant.organization,
        by=other_tenant.head,
        legal_name="Zed Zed",
        date_of_birth=dt.date(1960, 1, 1),
        kind="member",
        since=dt.date(2010, 1, 1),
    )
    with pytest.raises(ValidationError, match="another organization"):
        services.add_member(
            organization=tenant.organization,
            by=tenant.head,
            legal_name="Kid Zed",
            date_of_birth=dt.date(2000, 1, 1),
            kind="family",
            since=dt.date(2020, 1, 1),
            family_of=other_member,
        )
    family = services.add_member(
        organization=tenant.organization,
        by=tenant.head,
        legal_name="Kid Rebello",
        date_of_birth=dt.date(2000, 1, 1),
        kind="family",
        since=dt.date(2020, 1, 1),
        family_of=member,
        relationship="son",
    )
    assert family.family_of == member


def test_good_standing_follows_kind_and_dates(member):
    assert member.in_good_standing_on(dt.date(2020, 1, 1))
    assert not member.in_good_standing_on(dt.date(2014, 12, 31))
    services.update_membership(
        membership=member, by=None, kind="member", until=dt.date(2021, 6, 30)
    )
    member.refresh_from_db()
    assert member.in_good_standing_on(dt.date(2021, 6, 30))
    assert not member.in_good_standing_on(dt.date(2021, 7, 1))
    services.update_membership(membership=member, by=None, kind=Membership.Kind.LAPSED, until=None)
    member.refresh_from_db()
    assert not member.in_good_standing_on(dt.date(2022, 1, 1))


def test_age_is_judged_on_the_day(member):
    person = Person(legal_name="Leap", date_of_birth=dt.date(2008, 2, 29))
    assert person.age_on(dt.date(2026, 2, 28)) == 17
    assert person.age_on(dt.date(2026, 3, 1)) == 18
    assert member.person.age_on(dt.date(2025, 6, 29)) == 69
    assert member.person.age_on(dt.date(2025, 6, 30)) == 70


def test_a_license_lists_its_authorized_days(tenant):
    lic = tenant.organization.licenses.get()
    days = lic.authorized_dates(dt.date(2026, 12, 1), dt.date(2026, 12, 31))
    assert [d.day for d in days] == [4, 11, 18, 25]
    assert all(d.weekday() == 4 for d in days)

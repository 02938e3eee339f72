"""The inspector's dashboard: the organizations in scope, the occasions the filter selects with
their figures, the people searched for, the charts; for Commission staff only, never a write,
and the same number of queries at 10 and at 1,000 occasions."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from beano.rules.models import RefusedAction
from games.models import Winner
from inspections.filters import OccasionFilterForm
from occasions.models import WorkerPresence
from organizations import services
from organizations.models import Person
from organizations.worker_services import add_to_worker_list
from tests.conftest import login, make_organization, make_tenant
from tests.inspections.conftest import night, played_occasions

URL = reverse("inspector_dashboard")


def _listed(organization, person, identification):
    """``person`` on ``organization``'s worker list this year, a seller (the rules applied)."""
    return add_to_worker_list(
        organization=organization,
        year=timezone.localdate().year,
        person=person,
        roles=["seller"],
        identification=identification,
        compensated=False,
        compensation_note="",
        good_moral_character_attested=False,
        attested_by="",
        on=timezone.localdate(),
        by=None,
    )


def test_an_inspector_lands_on_it(client, inspector):
    login(client, inspector)
    response = client.get(reverse("dashboard"))
    assert response.status_code == 302 and response["Location"] == URL


def test_it_is_for_the_commissions_staff_and_never_writes(client, tenant, inspector):
    login(client, tenant.head)
    assert client.get(URL).status_code == 403
    login(client, inspector)
    assert client.get(URL).status_code == 200
    assert client.post(URL, {}).status_code == 403
    client.logout()
    assert client.get(URL).status_code == 302


def test_it_shows_only_the_organizations_in_scope(client, tenant, other_tenant, inspector):
    played_occasions(other_tenant, 2)
    login(client, inspector)
    page = client.get(URL).content.decode()
    assert tenant.organization.name in page
    assert other_tenant.organization.name not in page
    # Another organization's occasions are not offered, even when asked for by its id.
    asked = client.get(URL, {"organization": other_tenant.organization.pk}).content.decode()
    assert other_tenant.organization.name not in asked


def test_it_lists_each_organizations_license_last_occasion_and_refusals(
    client, tenant, statewide_inspector
):
    occasions = played_occasions(tenant, 3)
    RefusedAction.objects.create(
        username="x",
        organization_id=tenant.organization.pk,
        action="occasion.sign_in_worker",
        on_date=occasions[0].date,
        facts={},
        violations=[],
        citations="961 CMR 3.04(1)(d)",
    )
    login(client, statewide_inspector)
    response = client.get(URL)
    row = next(r for r in response.context["rows"] if r.organization == tenant.organization)
    assert row.license.number == f"BN-{tenant.organization.pk:04d}" and row.license_ok
    assert row.last_occasion.pk == occasions[0].pk
    assert row.refused == 1
    occasion = response.context["page"][0]
    assert (occasion.admissions, occasion.attendance, occasion.games_played) == (3, 3, 1)
    assert (occasion.gross_receipts, occasion.prizes) == (6, 50)


def test_it_filters_by_organization_dates_town_and_status(client, statewide_inspector):
    fairhaven = make_tenant("Hall Fairhaven")
    fall_river = make_tenant("Hall Fall River")
    fall_river.organization.town = "Fall River"
    fall_river.organization.save()
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    played_occasions(fairhaven, 5)
    played_occasions(fall_river, 4)
    login(client, statewide_inspector)

    def dates(**params):
        page = client.get(URL, params).context["page"]
        return sorted((o.organization.name, o.date) for o in page.paginator.object_list)

    assert len(dates()) == 9
    assert {n for n, _ in dates(town="Fall River")} == {"Hall Fall River"}
    assert len(dates(organization=fairhaven.organization.pk)) == 5
    two_days = dates(date_from=yesterday - dt.timedelta(days=1), date_to=yesterday)
    assert len(two_days) == 4 and {d for _, d in two_days} == {
        yesterday,
        yesterday - dt.timedelta(days=1),
    }
    assert dates(status="open") == []
    # A nonsense filter is ignored, never an error page.
    assert len(dates(date_from="yesterday", status="bogus")) == 9


def test_it_finds_a_person_by_name_or_worker_id_with_their_count_of_lists(
    client, tenant, statewide_inspector
):
    person = None
    for n in range(4):
        org = tenant.organization if n == 0 else make_organization(f"Hall {n}")
        membership = services.add_member(
            organization=org,
            by=None,
            legal_name="Mary Gallagher",
            date_of_birth=dt.date(1960, 4, 17),
            commission_worker_id="MA-W-100176",
            kind="member",
            since=dt.date(2015, 1, 1),
        )
        person = membership.person
        _listed(org, person, f"S-{n}")
    login(client, statewide_inspector)
    for q in ("gallagher", "MA-W-100176"):
        response = client.get(URL, {"q": q})
        (found,) = response.context["people"].people
        assert found.person == person and found.organizations_this_year == 4
        page = response.content.decode()
        assert "on 4 organizations' worker lists" in page and "(limit 4)" in page


def test_an_assigned_inspector_sees_the_count_but_not_the_names_outside_the_scope(
    client, tenant, other_tenant, inspector
):
    for t in (tenant, other_tenant):
        membership = services.add_member(
            organization=t.organization,
            by=None,
            legal_name="Paul Rego",
            date_of_birth=dt.date(1970, 1, 1),
            kind="member",
            since=dt.date(2015, 1, 1),
        )
        _listed(t.organization, membership.person, "B-1")
    login(client, inspector)
    page = client.get(URL, {"q": "Rego"}).content.decode()
    assert "on 2 organizations' worker lists" in page
    assert "1 organization outside your scope" in page
    assert other_tenant.organization.name not in page


def test_its_charts_are_server_drawn_svg_with_accessible_labels(
    client, tenant, statewide_inspector
):
    played_occasions(tenant, 3)
    login(client, statewide_inspector)
    page = client.get(URL).content.decode()
    assert page.count('<svg class="chart"') == 3
    assert 'role="img"' in page and "<desc id=" in page
    assert "Statewide median" in page and "Gross receipts (door sales)" in page
    # (Not the letters "cdn" anywhere: a random CSRF token holds them now and then.)
    assert '<script src="http' not in page and "//cdn" not in page.lower()


@pytest.mark.parametrize("search", ["", "Player"])
def test_it_keeps_its_query_count_from_10_to_1000_occasions(
    client, tenant, statewide_inspector, search
):
    played_occasions(tenant, 10)
    login(client, statewide_inspector)
    params = {"q": search} if search else {}
    client.get(URL, params)  # the session and caches warm up
    with CaptureQueriesContext(connection) as small:
        client.get(URL, params)
    played_occasions(  # these from paper: the dashboard marks them at no query more
        tenant, 990, last=timezone.localdate() - dt.timedelta(days=11), on_paper=True
    )
    with CaptureQueriesContext(connection) as large:
        response = client.get(URL, params)
    assert response.context["page"].paginator.count == 1000
    assert len(large) == len(small), [q["sql"][:120] for q in large.captured_queries]
    label = "dashboard with a search" if search else "dashboard"
    print(f"{label}: {len(small)} queries at 10 and 1,000 occasions")


@pytest.mark.parametrize("read_once", [2_000, 1], ids=["ids read once", "search in each"])
def test_a_search_selects_the_nights_a_person_worked_or_won_and_a_license_or_hall(
    client, tenant, statewide_inspector, monkeypatch, read_once
):
    """Each way an occasion matches a search: a worker signed in (by name or worker ID), a
    winner known as a person (by name or worker ID), a winner's name as given, the license
    number and the organization's name; one night matches none. The same whether the matches
    are read once as ids (a few) or searched in each statement (more than ``read_once``)."""
    monkeypatch.setattr("inspections.filters.MATCHES_READ_ONCE", read_once)
    first, second, third, fourth = played_occasions(tenant, 4)
    worker = services.add_member(
        organization=tenant.organization,
        by=None,
        legal_name="Ruth Almeida",
        date_of_birth=dt.date(1961, 2, 3),
        commission_worker_id="MA-W-700001",
        kind="member",
        since=dt.date(2015, 1, 1),
    ).person
    entry = _listed(tenant.organization, worker, "S-9")
    WorkerPresence.objects.create(
        occasion=first, entry=entry, role="seller", signed_in_at=night(first.date, 17)
    )
    known = Person.objects.create(
        legal_name="Joan Pires", date_of_birth=dt.date(1950, 5, 6), commission_worker_id="P-42"
    )
    Winner.objects.filter(claim__game__occasion=second).update(person=known)
    Winner.objects.filter(claim__game__occasion=third).update(player_name="Dorothy Amaral")
    login(client, statewide_inspector)

    def dates(q):
        page = client.get(URL, {"q": q}).context["page"]
        return {o.date for o in page.paginator.object_list}

    assert dates("almeida") == dates("ma-w-700001") == {first.date}
    assert dates("pires") == dates("p-42") == {second.date}
    assert dates("amaral") == {third.date}
    assert dates("nobody at all") == set()
    everyone = {first.date, second.date, third.date, fourth.date}
    assert dates(f"BN-{tenant.organization.pk:04d}") == everyone
    assert dates(tenant.organization.name) == everyone


def test_each_organizations_row_links_its_pages_as_reverse_names_them(
    client, tenant, statewide_inspector
):
    (last, _) = played_occasions(tenant, 2)
    login(client, statewide_inspector)
    response = client.get(URL)
    row = next(r for r in response.context["rows"] if r.organization == tenant.organization)
    org = tenant.organization.pk
    assert row.links == {
        "home": reverse("organization_home", args=[org]),
        "last": reverse("occasion_record", args=[org, last.pk]),
        "compliance": reverse("org_compliance_prizes", args=[org]),
        "audit": reverse("audit_log", args=[org]),
        "chain": reverse("chain_check", args=[org]),
        "refused": reverse("commission_refused_actions") + f"?organization={org}",
        "reports": reverse("commission_reports") + f"?organization={org}&status=",
        "year": reverse("organization_year", args=[org]),
    }
    page = response.content.decode()
    for key in ("home", "last", "compliance", "audit", "chain", "year"):
        assert f'href="{row.links[key]}"' in page


def test_the_filter_offers_the_organizations_in_hand_and_checks_the_one_chosen(
    tenant, other_tenant
):
    organizations = [tenant.organization]
    form = OccasionFilterForm(
        QueryDict(f"organization={tenant.organization.pk}"),
        organizations=organizations,
        today=timezone.localdate(),
    )
    assert form.is_valid() and form.cleaned_data["organization"] == tenant.organization
    with CaptureQueriesContext(connection) as drawn:
        select = str(form["organization"])
    assert len(drawn) == 0  # offered from the list in hand, not read again
    assert f'<option value="{tenant.organization.pk}" selected>' in select
    assert other_tenant.organization.name not in select
    outside = OccasionFilterForm(
        QueryDict(f"organization={other_tenant.organization.pk}"),
        organizations=organizations,
        today=timezone.localdate(),
    )
    assert not outside.is_valid() and "organization" in outside.errors

"""An organization's year on one page for the inspector (``inspections.year``): each figure is
the count of the page it links to, filtered to the organization and the year; the chooser; the
links to it; who may see it (inspectors in scope; 403 to the organization's own people, 404 to
anyone of another organization and to an inspector out of scope); read-only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from beano.rules.models import RefusedAction
from inspections.year import year_figures
from organizations.models import Organization
from reports import obligations as owed
from tests.builders import CommissionStaffFactory
from tests.conftest import login
from tests.reports.conftest import at
from tests.reports.year_fixtures import TODAY, YEAR, build_year


def _refusals(org, days: list[dt.date]) -> None:
    RefusedAction.objects.bulk_create(
        RefusedAction(
            username="someone",
            organization_id=org.pk,
            organization_name=org.name,
            action="record_sale",
            on_date=day,
            facts={},
            violations=[{"code": "C-5A", "citation": "961 CMR 3.04(5)(a)", "message": "No."}],
            citations="961 CMR 3.04(5)(a)",
        )
        for day in days
    )


@pytest.fixture
def year(tenant, report_clock):
    report_clock(at(12, day=TODAY))
    org = build_year(tenant)
    # Two refused in the year, one the year before (not counted).
    _refusals(org, [dt.date(YEAR, 3, 6), dt.date(YEAR, 11, 20), dt.date(YEAR - 1, 12, 4)])
    return org


def _url(org, **query) -> str:
    return reverse("organization_year", kwargs={"org_id": org.pk}), query


def _shown_by(client, url: str) -> int:
    """The count the linked page shows for its filter."""
    response = client.get(url)
    assert response.status_code == 200, url
    context = response.context
    if "total" in context and "rows" in context:  # the Commission's reports owed
        return len(context["rows"])
    if "total" in context:  # the exceptions report
        return context["total"]
    return context["page"].paginator.count  # refused actions, the dashboard's occasions


def test_every_figure_is_the_count_of_the_page_it_links(client, year, inspector):
    login(client, inspector)
    response = client.get(*_url(year))
    assert response.status_code == 200
    figures = response.context["year"].figures
    assert {f.key for f in figures} >= {
        "refused",
        "reports_missing",
        "reports_late",
        "reports_filed_late",
        "reports_amended",
        "exceptions_variances",
        "nights_paper",
        "nights_closed_late",
    }
    for figure in figures:
        assert _shown_by(client, figure.url) == figure.count, figure
    by_key = {f.key: f.count for f in figures}
    assert by_key["refused"] == 2
    days = owed.days_owed(year, dt.date(YEAR, 1, 1), TODAY, TODAY)
    assert by_key["reports_missing"] == sum(d.state == owed.MISSING for d in days) > 0
    assert by_key["reports_late"] == sum(d.state == owed.LATE for d in days) > 0
    assert by_key["reports_filed_late"] == sum(d.state == owed.FILED_LATE for d in days) > 0
    assert by_key["reports_amended"] == sum(d.amended for d in days) > 0
    page = response.content.decode()
    assert "things to look at" in page or "kinds of thing to look at" in page
    chain = client.get(response.context["year"].chain_url)
    assert chain.context["report"].problems == response.context["year"].chain.problems


def test_the_year_before_counts_only_its_own(client, year, inspector):
    login(client, inspector)
    response = client.get(*_url(year, year=str(YEAR - 1)))
    assert response.context["chosen"] == YEAR - 1
    figures = {f.key: f for f in response.context["year"].figures}
    assert figures["refused"].count == 1
    assert figures["reports_missing"].count == 0  # its records begin in 2026
    for figure in figures.values():
        assert _shown_by(client, figure.url) == figure.count, figure


def test_a_year_not_offered_shows_this_year(client, year, inspector):
    login(client, inspector)
    for asked in ("1900", "abc", "20261", ""):
        response = client.get(*_url(year, year=asked))
        assert response.status_code == 200 and response.context["chosen"] == TODAY.year


def test_a_clean_year_says_nothing_to_look_at(client, tenant, inspector, report_clock):
    report_clock(at(12, day=TODAY))
    tenant.organization.reports_from = TODAY
    tenant.organization.save()
    login(client, inspector)
    response = client.get(*_url(tenant.organization))
    assert response.context["year"].clean
    assert "Nothing to look at" in response.content.decode()


def test_only_inspectors_in_scope_see_it(client, year, tenant, other_tenant):
    url, _ = _url(year)
    for person in (tenant.head, tenant.bookkeeper, tenant.member_in_charge, tenant.worker):
        login(client, person)
        assert client.get(url).status_code == 403, person
    login(client, other_tenant.head)
    assert client.get(url).status_code == 404
    elsewhere = CommissionStaffFactory(
        user__username="inspector-elsewhere", organizations=[other_tenant.organization]
    ).user
    login(client, elsewhere)
    assert client.get(url).status_code == 404


def test_it_is_read_only(client, year, inspector):
    login(client, inspector)
    url, _ = _url(year)
    assert client.post(url, {"year": YEAR}).status_code == 403


def test_the_dashboard_and_the_organizations_tabs_link_it(client, year, inspector, tenant):
    url, _ = _url(year)
    login(client, inspector)
    assert url in client.get(reverse("inspector_dashboard")).content.decode()
    home = reverse("organization_home", kwargs={"org_id": year.pk})
    assert url in client.get(home).content.decode()
    login(client, tenant.head)
    assert url not in client.get(home).content.decode()


def test_it_reads_in_as_many_queries_for_a_year_as_for_half(
    client, tenant, other_tenant, statewide_inspector, report_clock, monkeypatch
):
    """Every figure in a fixed number of queries; the chain check apart, which reads every
    event and money record of the chain, as its own page does (``beano.integrity``)."""
    import inspections.year

    report_clock(at(12, day=TODAY))
    login(client, statewide_inspector)
    checked = inspections.year._chain(tenant.organization)
    monkeypatch.setattr(inspections.year, "_chain", lambda organization: checked)

    def count(org) -> int:
        url, query = _url(org)
        client.get(url, query)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url, query).status_code == 200
        return len(ctx.captured_queries)

    half = build_year(tenant, until=dt.date(YEAR, 7, 1))
    _refusals(half, [dt.date(YEAR, 3, 6)])
    small = count(half)
    whole = build_year(other_tenant)
    _refusals(whole, [dt.date(YEAR, 3, 6), dt.date(YEAR, 9, 4), dt.date(YEAR, 10, 2)])
    assert count(whole) == small


def test_the_figures_are_computed_without_the_page(year):
    """The same figures from the function the page calls (for the shell, a command)."""
    found = year_figures(Organization.objects.get(pk=year.pk), YEAR, TODAY)
    assert [f.count for f in found.figures if f.key == "refused"] == [2]

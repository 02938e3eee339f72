"""The navigation bar: each user's organizations and, for the Commission's staff, their pages;
worked out only when a template shows the bar (a whole page), never for the htmx answers of the
night's writes, which render a part without it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse

from organizations.context_processors import navigation
from tests.conftest import login


def _bar(page: str) -> str:
    return page[page.index("<nav") : page.index("</nav>")]


def test_a_member_sees_their_organization_and_no_commission_page(client, tenant, other_tenant):
    login(client, tenant.head)
    bar = _bar(
        client.get(reverse("organization_home", args=[tenant.organization.pk])).content.decode()
    )
    assert tenant.organization.name in bar
    assert other_tenant.organization.name not in bar
    assert reverse("commission_reports") not in bar


def test_an_inspector_sees_the_organizations_they_inspect_and_the_reports_owed(
    client, tenant, other_tenant, inspector
):
    login(client, inspector)
    bar = _bar(
        client.get(reverse("organization_home", args=[tenant.organization.pk])).content.decode()
    )
    assert tenant.organization.name in bar
    assert other_tenant.organization.name not in bar  # not in their scope
    assert reverse("commission_reports") in bar
    assert reverse("onboarding_home") not in bar  # an admin's page


def test_a_commission_admin_also_sees_licensing(client, tenant, commission_admin):
    login(client, commission_admin)
    bar = _bar(client.get(reverse("dashboard"), follow=True).content.decode())
    assert reverse("commission_reports") in bar and reverse("onboarding_home") in bar


def test_nothing_is_read_until_a_template_shows_the_bar(
    tenant, inspector, django_assert_num_queries: Any
):
    request = RequestFactory().get("/")
    request.user = get_user_model().objects.get(pk=inspector.pk)  # its staff row not read yet
    with django_assert_num_queries(0):
        bar = navigation(request)
    with django_assert_num_queries(2):  # the staff row, then the organizations in scope
        assert bool(bar["nav_staff"])
        assert [o.name for o in bar["nav_organizations"]] == [tenant.organization.name]


def test_an_anonymous_visitor_gets_no_bar(rf):
    from django.contrib.auth.models import AnonymousUser

    request = rf.get("/")
    request.user = AnonymousUser()
    assert navigation(request) == {}

"""What organizations' and the rules' pages show of the apps above them comes from those apps
(``organizations.extensions``, a view's own navigation), never named by the lower app: with the
app above, the page is as before; without it, the page stands with no link to it."""

from __future__ import annotations

import re

from django.template import Context, Template
from django.urls import reverse

from organizations import extensions
from tests.conftest import login


def _active_tab(html: str) -> list[str]:
    return re.findall(r'class="nav-link ?active"[^>]*>([^<]+)<', html)


def test_an_inspector_lands_where_inspections_says_and_without_it_on_the_landing_page(
    client, inspector, monkeypatch
):
    login(client, inspector)
    response = client.get(reverse("dashboard"))
    assert response.status_code == 302 and response["Location"] == reverse("inspector_dashboard")
    monkeypatch.setattr(extensions, "LANDING", {})
    assert client.get(reverse("dashboard")).status_code == 200


def test_a_records_history_link_is_the_inspections_page_and_none_without_it(tenant, monkeypatch):
    org = tenant.organization
    tag = Template("{% load audit_tags %}{% history_url org as h %}[{{ h }}]")
    assert tag.render(Context({"org": org})) == "[{}]".format(
        reverse(
            "record_history",
            kwargs={
                "org_id": org.pk,
                "target_type": "organizations.organization",
                "target_id": org.pk,
            },
        )
    )
    monkeypatch.setattr(extensions, "HISTORY_PAGE", [])
    assert tag.render(Context({"org": org})) == "[]"


def test_the_refused_actions_log_has_the_navigation_of_the_app_showing_it(
    client, tenant, inspector
):
    login(client, tenant.head)
    page = client.get(reverse("org_refused_actions", args=[tenant.organization.pk]))
    assert page.status_code == 200 and tenant.organization.name in page.content.decode()
    assert _active_tab(page.content.decode()) == ["Refused actions"]
    login(client, inspector)
    page = client.get(reverse("commission_refused_actions"))
    assert (
        page.status_code == 200 and '<h1 class="h3 mb-0">Compliance</h1>' in page.content.decode()
    )
    assert _active_tab(page.content.decode()) == ["Refused actions"]

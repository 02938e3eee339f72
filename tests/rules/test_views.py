import datetime as dt

from django.urls import reverse

from beano import rules
from beano.rules.equipment import CardUseFacts
from beano.rules.models import RefusedAction
from tests.conftest import login


def _refuse(org, user):
    try:
        with rules.atomic():
            rules.enforce(
                "inventory.use",
                CardUseFacts("Strips", 0, 1, 0),
                on=dt.date(2026, 12, 4),
                actor=user,
                organization=org,
            )
    except rules.RuleViolation:
        pass


def test_every_user_reads_the_catalog_and_the_limits(client, tenant):
    login(client, tenant.worker)
    page = client.get(reverse("rules_catalog")).content.decode()
    for r in rules.all_rules():
        assert r.code in page
    limits = client.get(reverse("limits_in_force")).content.decode()
    assert "Maximum prize, single game" in limits and "no figure on record" in limits
    old = client.get(reverse("limits_in_force"), {"on": "1999-06-01"}).content.decode()
    assert "$100" in old and "5 %" in old


def test_a_bad_date_on_the_limits_page_gets_a_message(client, tenant):
    login(client, tenant.worker)
    response = client.get(reverse("limits_in_force"), {"on": "31/12/2026"})
    assert response.status_code == 200
    assert "is not a date" in response.content.decode()


def test_anonymous_users_cannot_read_the_rules_pages(client, db):
    assert client.get(reverse("rules_catalog")).status_code == 302
    assert client.get(reverse("limits_in_force")).status_code == 302


def test_the_head_sees_their_own_refusals_only(client, tenant, other_tenant):
    _refuse(tenant.organization, tenant.bookkeeper)
    _refuse(other_tenant.organization, other_tenant.bookkeeper)
    login(client, tenant.head)
    page = client.get(
        reverse("org_refused_actions", args=[tenant.organization.pk])
    ).content.decode()
    assert tenant.bookkeeper.username in page
    assert other_tenant.bookkeeper.username not in page
    assert "961 CMR 3.04(4)(e)" in page


def test_a_worker_may_not_read_the_refusals(client, tenant):
    login(client, tenant.worker)
    assert (
        client.get(reverse("org_refused_actions", args=[tenant.organization.pk])).status_code == 403
    )


def test_the_commission_log_keeps_to_the_inspectors_scope_and_filters_by_citation(
    client, tenant, other_tenant, inspector
):
    _refuse(tenant.organization, tenant.bookkeeper)
    _refuse(other_tenant.organization, other_tenant.bookkeeper)
    login(client, inspector)
    url = reverse("commission_refused_actions")
    page = client.get(url).content.decode()
    assert tenant.organization.name in page and other_tenant.organization.name not in page
    filtered = client.get(url, {"citation": "961 CMR 3.04(1)(c)"}).content.decode()
    assert "No refused actions under 961 CMR 3.04(1)(c)" in filtered
    assert client.post(url).status_code == 405
    assert RefusedAction.objects.count() == 2


def test_organization_users_have_no_commission_log(client, tenant):
    login(client, tenant.head)
    assert client.get(reverse("commission_refused_actions")).status_code == 403


def test_authorizations_are_listed_read_only_with_their_document(client, tenant, authorization):
    login(client, tenant.member_in_charge)
    page = client.get(reverse("authorization_list", args=[tenant.organization.pk])).content.decode()
    assert "MSLC-TEST-0001" in page and "valid today" in page and "Scanned letter" in page
    url = reverse("authorization_document", args=[tenant.organization.pk, authorization.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"%PDF-1.4 letter"
    authorization.document = ""
    authorization.save()
    assert client.get(url).status_code == 404

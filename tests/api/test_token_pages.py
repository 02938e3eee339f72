"""The pages where tokens are made (shown once), listed and revoked: a head's for the
organization's devices, a Commission admin's for the Commission's systems."""

from __future__ import annotations

import pytest
from django.urls import reverse

from api.models import ApiToken
from beano.accounts.pins import set_pin
from organizations.models import AuditEvent
from tests.api.conftest import api_client, token_for
from tests.builders import PASSWORD
from tests.conftest import login

pytestmark = pytest.mark.django_db


def _list(org):
    return reverse("api_tokens", args=[org.pk])


def _revoke(org, token):
    return reverse("api_token_revoke", args=[org.pk, token.pk])


def _read(**extra):
    return {"name": "Flashboard, hall B", "scope": "read", **extra}


def test_a_head_makes_a_read_token_and_sees_it_once(client, tenant):
    login(client, tenant.head)
    answer = client.post(_list(tenant.organization), _read())
    assert answer.status_code == 200
    token = ApiToken.objects.get()
    plain = answer.context["made"]
    assert plain.startswith(f"beano_{token.public_id}_")
    page = answer.content.decode()
    assert 'id="made-token"' in page and plain in page
    # The example names this server, as the request reached it, and the token.
    assert f'curl -H "Authorization: Bearer {plain}" http://testserver/api/v1/organizations/' in (
        page
    )
    assert "no-store" in answer["Cache-Control"]
    assert token.scope == "read" and token.acts_as is None and token.created_by == tenant.head
    assert token.rate_per_minute == 120
    # It works, as the example says.
    assert api_client(plain).get(reverse("api_organizations")).status_code == 200
    again = client.get(_list(tenant.organization))
    assert again.status_code == 200
    assert plain not in again.content.decode() and 'id="made-token"' not in again.content.decode()
    assert "Flashboard, hall B" in again.content.decode()
    assert f"beano_{token.public_id}_" in again.content.decode()


def test_a_read_token_ignores_whom_it_would_act_as(client, tenant):
    login(client, tenant.head)
    answer = client.post(
        _list(tenant.organization),
        _read(acts_as=str(tenant.worker.pk), acts_as_secret="whatever"),
    )
    assert answer.status_code == 200 and answer.context["made"]
    assert ApiToken.objects.get().acts_as is None


def test_the_form_offers_the_people_a_token_may_act_as(client, tenant, other_tenant):
    login(client, tenant.head)
    form = client.get(_list(tenant.organization)).context["form"]
    offered = dict(form.fields["acts_as"].choices)
    for person in (tenant.head, tenant.member_in_charge, tenant.bookkeeper, tenant.worker):
        assert person.pk in offered and person.get_username() in offered[person.pk]
    assert other_tenant.worker.pk not in offered
    assert "Worker" in offered[tenant.worker.pk]


def test_a_floor_token_needs_the_acting_persons_own_pin(client, tenant):
    set_pin(user=tenant.worker, pin="4827", current_password=PASSWORD)
    login(client, tenant.head)
    url = _list(tenant.organization)
    floor = {"name": "Door point of sale", "scope": "floor", "acts_as": str(tenant.worker.pk)}
    cases = [
        ({"acts_as_secret": "1111"}, "acts_as_secret", "PIN or password"),
        ({"acts_as_secret": ""}, "acts_as_secret", "PIN or password"),
        ({"acts_as_secret": PASSWORD + "x"}, "acts_as_secret", "PIN or password"),
        ({"acts_as": "", "acts_as_secret": "4827"}, "acts_as", "Choose the worker"),
        ({"acts_as": "999999", "acts_as_secret": "4827"}, "acts_as", "Choose one of"),
        ({"acts_as": "x", "acts_as_secret": "4827"}, "acts_as", "Choose one of"),
        ({"acts_as": str(tenant.bookkeeper.pk), "acts_as_secret": PASSWORD}, "acts_as", "worker"),
    ]
    for change, field, words in cases:
        answer = client.post(url, {**floor, **change})
        assert answer.status_code == 200, change
        assert not answer.context["made"], change
        assert words in " ".join(answer.context["form"].errors[field]), change
        assert 'id="made-token"' not in answer.content.decode()
    assert not ApiToken.objects.exists()
    assert not AuditEvent.objects.filter(action="api_token_created").exists()
    # The worker types their own PIN: the token is made, and acts as them.
    answer = client.post(url, {**floor, "acts_as_secret": "4827"})
    assert answer.context["made"]
    token = ApiToken.objects.get()
    assert (
        token.scope == "floor" and token.acts_as == tenant.worker and token.actor == tenant.worker
    )
    assert "4827" not in answer.content.decode()


def test_a_night_file_token_acts_as_the_bookkeeper_with_their_password(client, tenant):
    login(client, tenant.head)
    night = {"name": "Bookkeeping program", "scope": "night_files"}
    answer = client.post(
        _list(tenant.organization),
        {**night, "acts_as": str(tenant.worker.pk), "acts_as_secret": PASSWORD},
    )
    assert "bookkeeper" in " ".join(answer.context["form"].errors["acts_as"])
    assert not ApiToken.objects.exists()
    answer = client.post(
        _list(tenant.organization),
        {**night, "acts_as": str(tenant.bookkeeper.pk), "acts_as_secret": PASSWORD},
    )
    assert answer.context["made"]
    assert ApiToken.objects.get().acts_as == tenant.bookkeeper


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"scope": ""}, "scope"),
        ({"scope": "commission_read"}, "scope"),
        ({"scope": "admin"}, "scope"),
        ({"rate_per_minute": "0"}, "rate_per_minute"),
        ({"rate_per_minute": "99999"}, "rate_per_minute"),
        ({"rate_per_minute": "fast"}, "rate_per_minute"),
    ],
)
def test_bad_input_is_told_and_nothing_is_saved(client, tenant, change, field):
    login(client, tenant.head)
    answer = client.post(_list(tenant.organization), _read(**change))
    assert answer.status_code == 200
    assert answer.context["form"].errors[field]
    assert not answer.context["made"]
    assert not ApiToken.objects.exists()


def test_a_head_revokes_a_token_after_confirming(client, tenant):
    plain = token_for(ApiToken.Scope.READ, by=tenant.head, organization=tenant.organization)
    token = ApiToken.objects.get()
    login(client, tenant.head)
    page = client.get(_list(tenant.organization)).content.decode()
    assert f'action="{_revoke(tenant.organization, token)}"' in page and "Yes, revoke it" in page
    # Without the confirmation, nothing is revoked and the page says why.
    answer = client.post(_revoke(tenant.organization, token), follow=True)
    assert "was not revoked" in answer.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is None
    assert client.get(_revoke(tenant.organization, token)).status_code == 405
    answer = client.post(_revoke(tenant.organization, token), {"confirm": "yes"}, follow=True)
    assert answer.redirect_chain[-1][0] == _list(tenant.organization)
    assert "is revoked" in answer.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == tenant.head
    assert api_client(plain).get(reverse("api_organizations")).status_code == 401
    again = client.post(_revoke(tenant.organization, token), {"confirm": "yes"}, follow=True)
    assert "already revoked" in again.content.decode()
    assert AuditEvent.objects.filter(action="api_token_revoked").count() == 1


@pytest.mark.parametrize("role", ["member_in_charge", "bookkeeper", "worker"])
def test_others_of_the_organization_are_refused(client, tenant, role):
    token_for(ApiToken.Scope.READ, by=tenant.head, organization=tenant.organization)
    token = ApiToken.objects.get()
    login(client, getattr(tenant, role))
    assert client.get(_list(tenant.organization)).status_code == 403
    assert client.post(_list(tenant.organization), _read()).status_code == 403
    assert client.post(_revoke(tenant.organization, token), {"confirm": "yes"}).status_code == 403
    assert ApiToken.objects.count() == 1
    token.refresh_from_db()
    assert token.revoked_at is None


def test_another_organizations_head_gets_404(client, tenant, other_tenant):
    token_for(ApiToken.Scope.READ, by=tenant.head, organization=tenant.organization)
    token = ApiToken.objects.get()
    login(client, other_tenant.head)
    assert client.get(_list(tenant.organization)).status_code == 404
    assert client.post(_list(tenant.organization), _read()).status_code == 404
    assert client.post(_revoke(tenant.organization, token), {"confirm": "yes"}).status_code == 404
    # Nor through their own organization's address.
    own = _revoke(other_tenant.organization, token)
    assert client.post(own, {"confirm": "yes"}).status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None and ApiToken.objects.count() == 1


def test_an_inspector_reads_the_list_and_writes_nothing(client, tenant, inspector):
    set_pin(user=tenant.worker, pin="4827", current_password=PASSWORD)
    token_for(ApiToken.Scope.READ, by=tenant.head, organization=tenant.organization)
    token = ApiToken.objects.get()
    login(client, inspector)
    answer = client.get(_list(tenant.organization))
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "Test read" in page and "Yes, revoke it" not in page and "Make the token" not in page
    assert client.post(_list(tenant.organization), _read()).status_code == 403
    floor = {"name": "Door", "scope": "floor", "acts_as": str(tenant.worker.pk)}
    assert (
        client.post(_list(tenant.organization), {**floor, "acts_as_secret": "4827"}).status_code
        == 403
    )
    assert client.post(_revoke(tenant.organization, token), {"confirm": "yes"}).status_code == 403
    assert ApiToken.objects.count() == 1
    token.refresh_from_db()
    assert token.revoked_at is None


def test_the_head_finds_the_page_among_the_tabs(client, tenant):
    login(client, tenant.head)
    page = client.get(reverse("organization_home", args=[tenant.organization.pk])).content
    assert f'href="{_list(tenant.organization)}"'.encode() in page
    login(client, tenant.bookkeeper)
    page = client.get(reverse("organization_home", args=[tenant.organization.pk])).content
    assert f'href="{_list(tenant.organization)}"'.encode() not in page


def test_a_commission_admin_makes_revokes_and_finds_a_commission_token(client, commission_admin):
    login(client, commission_admin)
    url = reverse("commission_api_tokens")
    for landing in (reverse("dashboard"), reverse("onboarding_home")):
        assert f'href="{url}"'.encode() in client.get(landing).content, landing
    page = client.get(url)
    assert page.status_code == 200 and "acts_as" not in page.context["form"].fields
    answer = client.post(url, {"name": "Commission data warehouse", "scope": "commission_read"})
    plain = answer.context["made"]
    token = ApiToken.objects.get()
    assert token.scope == "commission_read" and token.organization is None
    assert plain in answer.content.decode()
    assert api_client(plain).get(reverse("api_organizations")).status_code == 200
    assert plain not in client.get(url).content.decode()
    for bad in ({"name": "", "scope": "commission_read"}, {"name": "X", "scope": "read"}):
        assert client.post(url, bad).context["form"].errors
    assert ApiToken.objects.count() == 1
    revoke = reverse("commission_api_token_revoke", args=[token.pk])
    answer = client.post(revoke, {"confirm": "yes"}, follow=True)
    assert "is revoked" in answer.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_a_commission_admin_cannot_revoke_an_organizations_token_there(
    client, tenant, commission_admin
):
    token_for(ApiToken.Scope.READ, by=tenant.head, organization=tenant.organization)
    token = ApiToken.objects.get()
    login(client, commission_admin)
    revoke = reverse("commission_api_token_revoke", args=[token.pk])
    assert client.post(revoke, {"confirm": "yes"}).status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


@pytest.mark.parametrize("who", ["inspector", "statewide_inspector", "head"])
def test_only_a_commission_admin_reaches_the_commission_tokens(client, tenant, request, who):
    user = tenant.head if who == "head" else request.getfixturevalue(who)
    login(client, user)
    url = reverse("commission_api_tokens")
    assert client.get(url).status_code == 403
    answer = client.post(url, {"name": "Warehouse", "scope": "commission_read"})
    assert answer.status_code == 403
    assert not ApiToken.objects.exists()

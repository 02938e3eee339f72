"""Tokens: made by a head (or a Commission admin), shown once, kept hashed, recognised in
constant time, revocable, and refused when their maker no longer holds the office."""

from __future__ import annotations

import hashlib

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from api import tokens
from api.models import ApiToken
from organizations.models import AuditEvent, OrganizationRole, Role
from tests.api.conftest import api_client, token_for
from tests.builders import PASSWORD

pytestmark = pytest.mark.django_db


def test_a_token_is_kept_only_as_its_hash(tenant):
    plain = token_for(ApiToken.Scope.READ, by=tenant.head, organization=tenant.organization)
    token = ApiToken.objects.get()
    assert plain.startswith(f"beano_{token.public_id}_")
    assert token.secret_hash == hashlib.sha256(plain.encode()).hexdigest()
    assert plain not in str(ApiToken.objects.values().get())
    event = AuditEvent.objects.get(action="api_token_created")
    assert event.actor == tenant.head and plain not in str(event.new_values)


@pytest.mark.parametrize("role", ["member_in_charge", "bookkeeper", "worker"])
def test_only_a_head_makes_the_organizations_tokens(tenant, role):
    with pytest.raises(ValidationError, match="head"):
        tokens.issue(
            name="Door", scope="floor", by=getattr(tenant, role), organization=tenant.organization
        )
    assert not ApiToken.objects.exists()


def test_a_floor_token_acts_as_a_worker_who_agrees(tenant):
    args = {
        "name": "Door",
        "scope": "floor",
        "by": tenant.head,
        "organization": tenant.organization,
    }
    with pytest.raises(ValidationError, match="Choose the worker"):
        tokens.issue(**args)
    with pytest.raises(ValidationError, match="Choose the worker"):
        tokens.issue(**args, acts_as=tenant.bookkeeper, acts_as_secret=PASSWORD)
    with pytest.raises(ValidationError, match="PIN or password"):
        tokens.issue(**args, acts_as=tenant.worker, acts_as_secret="wrong")
    token, plain = tokens.issue(**args, acts_as=tenant.worker, acts_as_secret=PASSWORD)
    assert token.actor == tenant.worker
    OrganizationRole.objects.filter(user=tenant.worker).delete()  # no longer works here
    assert api_client(plain).get(reverse("api_organizations")).status_code == 401


def test_only_a_commission_admin_makes_a_commission_token(tenant, statewide_inspector):
    for by in (tenant.head, statewide_inspector):
        with pytest.raises(ValidationError, match="Commission admin"):
            tokens.issue(name="Feed", scope="commission_read", by=by)
    assert not ApiToken.objects.exists()


def test_the_api_answers_a_token_and_nothing_else(client, tenant, read_token):
    url = reverse("api_organizations")
    assert api_client(read_token).get(url).json() == [
        {"id": tenant.organization.pk, "name": tenant.organization.name}
    ]
    client.force_login(tenant.head)  # a session is nobody to the API
    answer = client.get(url)
    assert answer.status_code == 401
    assert answer["Content-Type"] == "application/problem+json"
    assert answer.json()["status"] == 401
    assert api_client("beano_000000000000_" + "x" * 43).get(url).status_code == 401
    wrong = read_token[:-1] + ("B" if read_token.endswith("A") else "A")
    assert api_client(wrong).get(url).status_code == 401


def test_a_revoked_token_stops_at_once(tenant, read_token):
    token = ApiToken.objects.get()
    tokens.revoke(token, by=tenant.head)
    tokens.revoke(token, by=tenant.head)  # twice: recorded once
    assert api_client(read_token).get(reverse("api_organizations")).status_code == 401
    assert AuditEvent.objects.filter(action="api_token_revoked").count() == 1


def test_a_token_stops_when_its_maker_is_no_longer_head(tenant, read_token):
    OrganizationRole.objects.filter(user=tenant.head, role=Role.HEAD).delete()
    assert api_client(read_token).get(reverse("api_organizations")).status_code == 401


def test_last_used_is_written(tenant, read_token):
    assert ApiToken.objects.get().last_used_at is None
    api_client(read_token).get(reverse("api_organizations"))
    assert ApiToken.objects.get().last_used_at is not None


def test_each_token_has_its_own_rate(tenant, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    slow = token_for("read", by=tenant.head, organization=tenant.organization, rate=2)
    other = token_for("read", by=tenant.head, organization=tenant.organization, rate=2)
    url = reverse("api_organizations")
    codes = [api_client(slow).get(url).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    told = api_client(slow).get(url)
    assert told["Content-Type"] == "application/problem+json" and told["Retry-After"]
    assert api_client(other).get(url).status_code == 200


def test_a_commission_token_reaches_every_organization(tenant, other_tenant, commission_token):
    names = {
        o["name"] for o in api_client(commission_token).get(reverse("api_organizations")).json()
    }
    assert {tenant.organization.name, other_tenant.organization.name} <= names


def test_the_schema_is_openapi_3_1_and_served_without_a_token(client):
    answer = client.get(reverse("api_schema"), HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    import json

    schema = json.loads(answer.content)
    assert schema["openapi"].startswith("3.1")
    assert "/api/v1/organizations/" in schema["paths"]
    assert client.get(reverse("api_docs")).status_code == 200

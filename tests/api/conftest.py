"""Tokens of each scope and a client that sends one, for the API's tests."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from api import tokens
from api.models import ApiToken
from tests.builders import PASSWORD
from tests.conftest import Tenant


def token_for(
    scope: str,
    *,
    by: Any,
    organization: Any = None,
    rate: int | None = None,
    name: str = "",
    acts_as: Any = None,
) -> str:
    """The plain token of a new token of ``scope`` made by ``by`` (a floor token acting as
    ``acts_as``, who agrees with their password)."""
    _, plain = tokens.issue(
        name=name or f"Test {scope}",
        scope=scope,
        by=by,
        organization=organization,
        rate_per_minute=rate,
        acts_as=acts_as,
        acts_as_secret=PASSWORD if acts_as is not None else "",
    )
    return plain


def api_client(plain: str | None) -> APIClient:
    client = APIClient()
    if plain:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    return client


@pytest.fixture
def read_token(tenant: Tenant) -> str:
    return token_for(ApiToken.Scope.READ, by=tenant.head, organization=tenant.organization)


@pytest.fixture
def floor_token(tenant: Tenant) -> str:
    return token_for(
        ApiToken.Scope.FLOOR,
        by=tenant.head,
        organization=tenant.organization,
        acts_as=tenant.member_in_charge,
    )


@pytest.fixture
def commission_token(commission_admin: Any) -> str:
    return token_for(ApiToken.Scope.COMMISSION_READ, by=commission_admin)


@pytest.fixture
def other_read_token(other_tenant: Tenant) -> str:
    return token_for(
        ApiToken.Scope.READ, by=other_tenant.head, organization=other_tenant.organization
    )


# --- (floor) The floor's writes: another organization's floor token, and the worker's own ---


@pytest.fixture
def other_floor_token(other_tenant: Tenant) -> str:
    """A floor token of the other organization, acting as its member in charge."""
    return token_for(
        ApiToken.Scope.FLOOR,
        by=other_tenant.head,
        organization=other_tenant.organization,
        acts_as=other_tenant.member_in_charge,
    )


@pytest.fixture
def worker_floor_token(tenant: Tenant) -> str:
    """A second floor token of ``tenant``'s, acting as its worker (the door's other till)."""
    return token_for(
        ApiToken.Scope.FLOOR,
        by=tenant.head,
        organization=tenant.organization,
        acts_as=tenant.worker,
        name="Second till",
    )

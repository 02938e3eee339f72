"""Tokens of each scope and a client that sends one, for the API's tests."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from api import tokens
from api.models import ApiToken
from tests.conftest import Tenant


def token_for(
    scope: str, *, by: Any, organization: Any = None, rate: int | None = None, name: str = ""
) -> str:
    """The plain token of a new token of ``scope`` made by ``by``."""
    _, plain = tokens.issue(
        name=name or f"Test {scope}",
        scope=scope,
        by=by,
        organization=organization,
        rate_per_minute=rate,
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
    return token_for(ApiToken.Scope.FLOOR, by=tenant.head, organization=tenant.organization)


@pytest.fixture
def commission_token(commission_admin: Any) -> str:
    return token_for(ApiToken.Scope.COMMISSION_READ, by=commission_admin)


@pytest.fixture
def other_read_token(other_tenant: Tenant) -> str:
    return token_for(
        ApiToken.Scope.READ, by=other_tenant.head, organization=other_tenant.organization
    )

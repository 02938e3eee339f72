"""An address under /api/ that matches no operation answers a problem, not the site's page."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "path", ["/api/v1/organizations/null/occasions/", "/api/v1/organizations/-3/", "/api/v2/"]
)
def test_an_api_address_of_no_operation_is_a_problem(client, db, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["status"] == 404 and response.json()["type"].endswith("#not-found")


def test_any_other_address_is_the_sites_page(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")

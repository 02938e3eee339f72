"""Tenant isolation over every URL, found by walking the site rather than by a list.

The demo is seeded (two organizations, a played and filed night, an open night with a game in
play). Logged in as each organization's head, the walk follows every link, htmx request and form
action under ``/org/<id>/`` and keeps one concrete URL per URL pattern. Every pattern of the
project that takes an ``org_id`` must be reached this way (or have its object ids filled from the
ids the walk saw, or from the model its parameter names); a new URL is covered without anyone
adding it to a list, and the test fails if it cannot be reached. Then, for each URL:

- the other organization's head gets 404 for GET and POST (the same answer as "does not exist");
- the other organization's head gets 404 for the same object ids under their own organization;
- a Commission inspector in scope reads (200, or 403 for a page that exists only to write), is
  refused every POST with 403, and nothing in the database changes;
- an inspector whose scope is the other organization gets 404.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import resolve

from organizations import access_matrix
from tests.conftest import login
from tests.site_walk import counts, org_patterns, seeded_walk


@pytest.fixture(scope="module")
def walked(django_db_setup: Any, django_db_blocker: Any) -> Any:
    with seeded_walk(django_db_blocker) as walk:
        yield walk


OTHER = {"post": "stanne", "stanne": "post"}


def test_the_walk_reaches_every_organization_url(walked):
    reached = set(walked["urls"]["post"]) | set(walked["urls"]["stanne"])
    missing = sorted(set(org_patterns()) - reached)
    assert not missing, f"no way found to reach: {missing}"


@pytest.mark.django_db
def test_another_organization_gets_404_everywhere(walked):
    failures = []
    for key, urls in walked["urls"].items():
        client = Client()
        login(client, walked["heads"][OTHER[key]])
        for name, url in urls.items():
            got = (client.get(url).status_code, client.post(url, {}).status_code)
            if got != (404, 404):
                failures.append((name, url, got))
    assert not failures


@pytest.mark.django_db
def test_another_organizations_object_under_your_own_is_404(walked):
    failures = []
    for key, urls in walked["urls"].items():
        other = walked["orgs"][OTHER[key]]
        client = Client()
        login(client, walked["heads"][OTHER[key]])
        for name, url in urls.items():
            match = resolve(url)
            if set(match.kwargs) == {"org_id"} or "day" in match.kwargs or "year" in match.kwargs:
                continue  # nothing of the organization's is named: its own page
            own = url.replace(f"/org/{walked['orgs'][key].pk}/", f"/org/{other.pk}/", 1)
            got = client.post(own, {}).status_code
            # A page nobody writes through refuses every POST (403) before it looks anything up:
            # the same answer whatever the id, so it tells nothing (organizations.access_matrix).
            refused = not (page := access_matrix.org_page(name)) or not page.writes({"head"})
            if got != 404 and not (refused and got == 403):
                failures.append((name, own, got))
    assert not failures


@pytest.mark.django_db
def test_an_inspector_reads_but_never_writes_anything(walked):
    inspector = get_user_model().objects.get(username="inspector")
    client = Client()
    login(client, inspector)
    before = counts()
    failures = []
    for key, urls in walked["urls"].items():
        head = Client()
        login(head, walked["heads"][key])
        for name, url in urls.items():
            if client.post(url, {"reason": "x", "amount": "1.00"}).status_code != 403:
                failures.append((name, url, "POST not 403"))
            code = client.get(url).status_code
            # A page that exists only to write is 403; a download whose file was never
            # uploaded answers the inspector as it answers the organization's own head.
            if code not in (200, 403, 405) and code != head.get(url).status_code:
                failures.append((name, url, f"GET {code}"))
    assert not failures
    assert counts() == before


@pytest.mark.django_db
def test_an_inspector_outside_the_scope_gets_404(walked):
    south = get_user_model().objects.get(username="inspector-south")  # Post 171 only
    client = Client()
    login(client, south)
    failures = [
        (name, url)
        for name, url in walked["urls"]["stanne"].items()
        if client.get(url).status_code != 404
    ]
    assert not failures

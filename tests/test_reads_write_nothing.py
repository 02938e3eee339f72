"""No read writes: a GET of any page, as the organization's own head (who may do everything
there) and as a Commission inspector, sends no INSERT, UPDATE or DELETE to the database.

The pages are those the site walk reaches (tests/site_walk.py: every URL pattern under
``/org/<id>/`` of both demo organizations) and every page a link leads to from the home and
the inspector's dashboard. Two writes are a GET's by design: the session's own row (the idle
timer, django.contrib.sessions) and the log of what the Commission's staff looked at."""

from __future__ import annotations

import re
from collections import deque
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.conftest import login
from tests.site_walk import seeded_walk

WRITE = re.compile(r"""^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+["`]?(\w+)""", re.I)
#: The tables a GET may write: the session, and the Commission staff's page-view log.
BY_DESIGN = {"django_session", "inspections_recordview", "organizations_recordview"}
LINK = re.compile(r"""(?:href|hx-get)=["']([^"'#]+)["']""")
#: Links a walk does not follow: the sign-out, the admin (Django's own), files to download.
SKIP = ("/accounts/logout/", "/admin/", "/static/", "/media/")


@pytest.fixture(scope="module")
def walked(django_db_setup: Any, django_db_blocker: Any) -> Any:
    with seeded_walk(django_db_blocker) as walk:
        yield walk


def get_and_writes(client: Client, url: str) -> tuple[Any, list[str]]:
    """GET ``url``: the response, and the writes it sent outside the tables written by design."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    found = []
    for query in queries.captured_queries:
        match = WRITE.match(query["sql"])
        if match and match.group(1).lower() not in BY_DESIGN:
            found.append(query["sql"][:160])
    return response, found


def writes_of(client: Client, url: str) -> list[str]:
    return get_and_writes(client, url)[1]


def reachable(
    client: Client, starts: list[str], most: int = 400
) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The pages reached from ``starts`` by GET links, breadth first, and the writes each GET
    sent (one GET a page: the walk is the check)."""
    queue, seen, failures = deque(starts), [], []
    while queue and len(seen) < most:
        url = queue.popleft()
        if url in seen:
            continue
        seen.append(url)
        response, writes = get_and_writes(client, url)
        if writes:
            failures.append((url, writes))
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        for link in LINK.findall(response.content.decode()):
            path = urlsplit(link)
            if path.netloc or not path.path.startswith("/") or path.path.startswith(SKIP):
                continue
            target = path.path + (f"?{path.query}" if path.query else "")
            if target not in seen:
                queue.append(target)
    return seen, failures


def _write_failures(client: Client, urls: list[str]) -> list[tuple[str, list[str]]]:
    failures = []
    for url in urls:
        writes = writes_of(client, url)
        if writes:
            failures.append((url, writes))
    return failures


@pytest.mark.django_db
def test_no_page_writes_when_the_organizations_head_reads_it(walked):
    failures = []
    for key, urls in walked["urls"].items():
        head = Client()
        login(head, walked["heads"][key])
        seen, failures_seen = reachable(head, ["/", urls["organization_home"]])
        pages = set(urls.values()) | set(seen)
        assert len(pages) > 40, "the walk found too few pages to prove anything"
        failures += failures_seen + _write_failures(head, sorted(pages - set(seen)))
    assert not failures


@pytest.mark.django_db
def test_no_page_writes_when_an_inspector_reads_it(walked):
    inspector = Client()
    login(inspector, get_user_model().objects.get(username="inspector"))
    seen, failures = reachable(inspector, ["/", "/inspect/", "/commission/reports/"])
    pages = set(seen)
    for urls in walked["urls"].values():
        pages |= set(urls.values())
    assert any(p.startswith("/inspect/compliance/") for p in pages)
    assert not failures + _write_failures(inspector, sorted(pages - set(seen)))


@pytest.mark.django_db
def test_the_check_sees_the_database_s_writes(walked):
    """The check itself can fail: the statements Django sends for a write are matched, with
    the table they write."""
    from organizations.models import Organization

    with CaptureQueriesContext(connection) as queries:
        Organization.objects.filter(pk=walked["orgs"]["post"].pk).update(name="Renamed")
        Organization.objects.filter(pk=walked["orgs"]["post"].pk).update(
            name="American Legion Post 171"
        )
    assert [WRITE.match(q["sql"]).group(1) for q in queries.captured_queries] == [
        "organizations_organization",
        "organizations_organization",
    ]

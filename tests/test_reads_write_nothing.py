"""No read writes: a GET of any page, as the organization's own head (who may do everything
there) and as a Commission inspector, sends no INSERT, UPDATE or DELETE to the database.

The pages are those the site walk reaches (tests/site_walk.py: every URL pattern under
``/org/<id>/`` of both demo organizations) and every page a link leads to from the home and
the inspector's dashboard. The site walk reads its pages as each organization's head, the first
GET of each on the demo: what it found (the writes, the links) is taken for the head's pass,
which reads only the pages the walk did not. Two writes are a GET's by design: the session's
own row (the idle timer, django.contrib.sessions) and the log of what the Commission's staff
looked at."""

from __future__ import annotations

from collections import deque
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.conftest import login
from tests.site_walk import WRITE, Read, read, seeded_walk

#: Links a walk does not follow: the sign-out, the admin (Django's own), files to download.
SKIP = ("/accounts/logout/", "/admin/", "/static/", "/media/")


@pytest.fixture(scope="module")
def walked(django_db_setup: Any, django_db_blocker: Any) -> Any:
    with seeded_walk(django_db_blocker) as walk:
        yield walk


def writes_of(client: Client, url: str) -> list[str]:
    return read(client, url)[1].writes


def reachable(
    client: Client, starts: list[str], most: int = 400, known: dict[str, Read] | None = None
) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The pages reached from ``starts`` by GET links, breadth first, and the writes each GET
    sent (one GET a page: the walk is the check). A page in ``known`` (the site walk's reads,
    as the same user) is taken as that GET found it, not read again."""
    known = known or {}
    queue, seen, failures = deque(starts), [], []
    while queue and len(seen) < most:
        url = queue.popleft()
        if url in seen:
            continue
        seen.append(url)
        found = known[url] if url in known else read(client, url)[1]
        if found.writes:
            failures.append((url, found.writes))
        for link in found.links:
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
        # (the pages the site walk read as this head are taken as it found them)
        seen, failures_seen = reachable(
            head, ["/", urls["organization_home"]], known=walked["reads"][key]
        )
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


@pytest.mark.django_db
def test_a_read_that_writes_is_recorded_with_its_links(walked):
    """What the site walk records of each GET (and the head's walk takes as found) holds a
    write the request sent, and the page's links."""
    from django.core.signals import request_started

    from organizations.models import Organization

    post = walked["orgs"]["post"]

    def rename(**_: Any) -> None:
        Organization.objects.filter(pk=post.pk).update(name="American Legion Post 171")

    head = Client()
    login(head, walked["heads"]["post"])
    home = walked["urls"]["post"]["organization_home"]
    assert walked["reads"]["post"][home].writes == []
    request_started.connect(rename)
    try:
        _, found = read(head, home)
    finally:
        request_started.disconnect(rename)
    assert [WRITE.match(w).group(1) for w in found.writes] == ["organizations_organization"]
    assert found.links == walked["reads"]["post"][home].links and len(found.links) > 10

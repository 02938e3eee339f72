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

import re
from collections import deque
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import models, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

from organizations.models import Organization
from tests.conftest import login

PROJECT_APPS = ("rules", "organizations", "occasions", "games", "reports", "inspections")
#: Rows a page view may add by design: the log of what Commission staff looked at.
VIEW_LOGS = {"inspections.recordview", "organizations.recordview"}
LINK = re.compile(r"""(?:href|action|hx-get|hx-post|hx-delete|hx-put)=["']([^"'#]+)["']""")
FORM = re.compile(r"<form\b[^>]*>", re.I)
MAX_PAGES = 600


def _org_patterns(resolver: URLResolver | None = None, prefix: str = "") -> dict[str, str]:
    resolver = resolver or get_resolver()
    out: dict[str, str] = {}
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            out |= _org_patterns(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern) and "<int:org_id>" in prefix + str(p.pattern):
            out[p.name] = prefix + str(p.pattern)
    return out


def _links(html: str) -> list[tuple[str, str]]:
    """(method, path) of each link and form action; a form's method decides POST."""
    found = [("GET", m) for m in LINK.findall(html)]
    for tag in FORM.findall(html):
        action = re.search(r"""action=["']([^"'#]+)["']""", tag)
        if action and re.search(r"""method=["']post["']""", tag, re.I):
            found.append(("POST", action.group(1)))
    return [(method, urlsplit(path).path) for method, path in found]


def _walk(client: Client, org: Organization) -> dict[str, tuple[str, dict[str, Any]]]:
    """One concrete URL per pattern name reached from the organization's pages."""
    start = f"/org/{org.pk}/"
    seen: dict[str, tuple[str, dict[str, Any]]] = {}
    queue: deque[str] = deque([start])
    visited: set[str] = set()
    while queue and len(visited) < MAX_PAGES:
        path = queue.popleft()
        if path in visited:
            continue
        visited.add(path)
        response = client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        for method, link in _links(response.content.decode()):
            if not link.startswith(start):
                continue
            try:
                match = resolve(link)
            except Resolver404:
                continue
            name = match.url_name
            if name not in seen:
                seen[name] = (link, dict(match.kwargs))
            if method == "GET" and link not in visited:
                queue.append(link)
    return seen


def _model_named(name: str) -> type[models.Model] | None:
    labels = {c.label for c in apps.get_app_configs()}
    for label in PROJECT_APPS:
        if label in labels:
            for model in apps.get_app_config(label).get_models():
                if model._meta.model_name == name:
                    return model
    return None


def _param_models(route: str) -> dict[str, type[models.Model]]:
    """The model each parameter of a route names: by its own name (``expense_id`` →
    Expense), else by the path segment before it (``annual-reports/<int:report_id>`` →
    AnnualReport, ``occasions/<int:pk>`` → Occasion)."""
    out: dict[str, type[models.Model]] = {}
    for segment, param in re.findall(r"([\w-]+)/<int:(\w+)>", route):
        if param == "org_id":
            continue
        stem = param.removesuffix("_id").removesuffix("_pk").replace("_", "")
        model = _model_named(stem) or _model_named(segment.replace("-", "").removesuffix("s"))
        if model is not None:
            out[param] = model
    return out


def _relation_path(
    model: type[models.Model], target: type[models.Model], depth: int = 0
) -> str | None:
    """The lookup from ``model`` to ``target`` along foreign keys (``claim__game``)."""
    if model is target:
        return ""
    if depth > 4:
        return None
    for field in model._meta.get_fields():
        if (field.many_to_one or field.one_to_one) and field.concrete and field.related_model:
            rest = _relation_path(field.related_model, target, depth + 1)
            if rest is not None:
                return f"{field.name}__{rest}" if rest else field.name
    return None


def _fill(name: str, route: str, org: Organization, found: dict) -> str | None:
    """A URL for a pattern the walk did not reach (a form shown only in some state of the
    night): an object of the organization of the model its last parameter names, the other
    parameters read off that object's relations; a parameter naming no model (a year, a day,
    a report's id) takes a value the walk saw for the same parameter."""
    from django.urls import reverse

    params = _param_models(route)
    names = [p for p in re.findall(r"<(?:\w+:)?(\w+)>", route) if p != "org_id"]
    seen = {p: [kw[p] for _, kw in found.values() if p in kw] for p in names}

    def build(kwargs: dict[str, Any]) -> str | None:
        for p in names:
            if p not in kwargs:
                if not seen[p]:
                    return None
                kwargs[p] = seen[p][0]
        return reverse(name, kwargs={"org_id": org.pk, **kwargs})

    modelled = [p for p in names if p in params]
    if not modelled:
        return build({})
    primary_param = modelled[-1]
    primary = params[primary_param]
    path = _relation_path(primary, Organization)
    obj = primary.objects.filter(**{path: org}).order_by("-pk").first() if path else None
    if obj is None:
        return None
    kwargs: dict[str, Any] = {primary_param: obj.pk}
    for param in modelled[:-1]:
        relation = _relation_path(primary, params[param])
        if not relation:
            return None
        kwargs[param] = primary.objects.filter(pk=obj.pk).values_list(f"{relation}__pk", flat=True)[
            0
        ]
    return build(kwargs)


def _counts() -> dict[str, int]:
    out = {}
    for label in PROJECT_APPS:
        if label not in {c.label for c in apps.get_app_configs()}:
            continue
        for model in apps.get_app_config(label).get_models():
            if model._meta.label_lower not in VIEW_LOGS:
                out[model._meta.label_lower] = model.objects.count()
    return out


@pytest.fixture(scope="module")
def walked(django_db_setup: Any, django_db_blocker: Any) -> Any:
    # The demo is seeded inside a transaction rolled back after the module, so that no other
    # test sees it.
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        call_command("seed_demo", force=True)
        users = get_user_model().objects
        orgs = {
            "post": Organization.objects.get(name="American Legion Post 171"),
            "stanne": Organization.objects.get(name="St. Anne's Parish"),
        }
        heads = {
            "post": users.get(username="post171-head"),
            "stanne": users.get(username="stanne-head"),
        }
        urls: dict[str, dict[str, str]] = {}
        for key, org in orgs.items():
            client = Client()
            client.force_login(heads[key])
            found = _walk(client, org)
            urls[key] = {name: link for name, (link, _) in found.items()}
            for name, route in _org_patterns().items():
                if name not in urls[key]:
                    filled = _fill(name, route, org, found)
                    if filled:
                        urls[key][name] = filled
        try:
            yield {"orgs": orgs, "heads": heads, "urls": urls}
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


OTHER = {"post": "stanne", "stanne": "post"}


def test_the_walk_reaches_every_organization_url(walked):
    reached = set(walked["urls"]["post"]) | set(walked["urls"]["stanne"])
    missing = sorted(set(_org_patterns()) - reached)
    assert not missing, f"no way found to reach: {missing}"


@pytest.mark.django_db
def test_another_organization_gets_404_everywhere(walked):
    failures = []
    for key, urls in walked["urls"].items():
        client = Client()
        client.force_login(walked["heads"][OTHER[key]])
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
        client.force_login(walked["heads"][OTHER[key]])
        for name, url in urls.items():
            match = resolve(url)
            if set(match.kwargs) == {"org_id"} or "day" in match.kwargs or "year" in match.kwargs:
                continue  # nothing of the organization's is named: its own page
            own = url.replace(f"/org/{walked['orgs'][key].pk}/", f"/org/{other.pk}/", 1)
            got = client.post(own, {}).status_code
            if got != 404:
                failures.append((name, own, got))
    assert not failures


@pytest.mark.django_db
def test_an_inspector_reads_but_never_writes_anything(walked):
    inspector = get_user_model().objects.get(username="inspector")
    client = Client()
    login(client, inspector)  # with the second factor the Commission's staff must give
    before = _counts()
    failures = []
    for key, urls in walked["urls"].items():
        head = Client()
        head.force_login(walked["heads"][key])
        for name, url in urls.items():
            if client.post(url, {"reason": "x", "amount": "1.00"}).status_code != 403:
                failures.append((name, url, "POST not 403"))
            code = client.get(url).status_code
            # A page that exists only to write is 403; a download whose file was never
            # uploaded answers the inspector as it answers the organization's own head.
            if code not in (200, 403, 405) and code != head.get(url).status_code:
                failures.append((name, url, f"GET {code}"))
    assert not failures
    assert _counts() == before


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

"""Walking the seeded demo as each organization's head: one concrete URL per URL pattern under
``/org/<id>/`` (and the fields of each form posting to it). Shared by the isolation walk and the
form fuzzing; each seeds the demo inside a transaction rolled back after its module."""

from __future__ import annotations

import contextlib
import copy
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, models, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

from nightfile import control_sheets
from organizations.models import Organization
from tests.conftest import FAST_HASHERS, load_shipped_data, login
from tests.demo_snapshot import seed_demo
from tests.pdf_once import rendered_once

PROJECT_APPS = ("rules", *settings.PROJECT_APPS)
#: Rows a page view may add by design: the log of what Commission staff looked at.
VIEW_LOGS = {"inspections.recordview", "organizations.recordview"}
LINK = re.compile(r"""(?:href|action|hx-get|hx-post|hx-delete|hx-put)=["']([^"'#]+)["']""")
FORM = re.compile(r"<form\b[^>]*>", re.I)
FORM_WHOLE = re.compile(r"(<form\b[^>]*>)(.*?)</form>", re.I | re.S)
FIELD = re.compile(r"""<(?:input|select|textarea)\b[^>]*\bname=["']([^"']+)["'][^>]*>""", re.I)
MAX_PAGES = 600
#: The fields of the forms met on the walk, by the path they post to.
FIELDS: dict[str, list[str]] = {}
#: A statement that writes, with the table it writes.
WRITE = re.compile(r"""^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+["`]?(\w+)""", re.I)
#: The tables a GET may write: the session, and the Commission staff's page-view log.
BY_DESIGN = {"django_session", "inspections_recordview", "organizations_recordview"}
#: The links a reader follows (GET): the read-only walk's.
READ_LINK = re.compile(r"""(?:href|hx-get)=["']([^"'#]+)["']""")


@dataclass(frozen=True)
class Read:
    """A page as the walk's GET found it: the writes it sent outside the tables written by design
    (the first GET of the page on the demo: a page writing when first read shows here), and the
    links a reader follows from it (none unless it answered with a page)."""

    writes: list[str]
    links: list[str]


def read(client: Client, url: str) -> tuple[Any, Read]:
    """GET ``url``: the response, and what it wrote and links to."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    writes = []
    for query in queries.captured_queries:
        match = WRITE.match(query["sql"])
        if match and match.group(1).lower() not in BY_DESIGN:
            writes.append(query["sql"][:160])
    links: list[str] = []
    if response.status_code == 200 and "html" in response.get("Content-Type", ""):
        links = READ_LINK.findall(response.content.decode())
    return response, Read(writes, links)


def org_patterns(resolver: URLResolver | None = None, prefix: str = "") -> dict[str, str]:
    """The pages of an organization (the API's operations are no page: a session is nobody
    there, and tests/api/ holds each to its organization with tokens)."""
    from organizations.access_matrix import API_ENDPOINTS

    resolver = resolver or get_resolver()
    out: dict[str, str] = {}
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            out |= org_patterns(p, prefix + str(p.pattern))
        elif (
            isinstance(p, URLPattern)
            and "<int:org_id>" in prefix + str(p.pattern)
            and p.name not in API_ENDPOINTS
        ):
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


def form_fields(html: str) -> dict[str, list[str]]:
    """The names of the fields of each form posting somewhere, by its action's path."""
    out: dict[str, list[str]] = {}
    for tag, body in FORM_WHOLE.findall(html):
        action = re.search(r"""action=["']([^"'#]+)["']""", tag)
        if action and re.search(r"""method=["']post["']""", tag, re.I):
            names = [n for n in FIELD.findall(body) if n != "csrfmiddlewaretoken"]
            out.setdefault(urlsplit(action.group(1)).path, names)
    return out


def _walk(
    client: Client, org: Organization, reads: dict[str, Read]
) -> dict[str, tuple[str, dict[str, Any]]]:
    """One concrete URL per pattern name reached from the organization's pages; each page's
    GET recorded in ``reads``."""
    start = f"/org/{org.pk}/"
    seen: dict[str, tuple[str, dict[str, Any]]] = {}
    queue: deque[str] = deque([start])
    visited: set[str] = set()
    while queue and len(visited) < MAX_PAGES:
        path = queue.popleft()
        if path in visited:
            continue
        visited.add(path)
        response, reads[path] = read(client, path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        for action, names in form_fields(html).items():
            FIELDS.setdefault(action, names)
        for method, link in _links(html):
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


def _counted_tables() -> list[tuple[str, str]]:
    return [
        (model._meta.label_lower, model._meta.db_table)
        for config in apps.get_app_configs()
        if config.label in PROJECT_APPS
        for model in config.get_models()
        if model._meta.label_lower not in VIEW_LOGS
    ]


def counts() -> dict[str, int]:
    """The rows of every table of the project's models (the page-view logs aside), counted in
    one statement: the fuzzing counts before and after each of its thousands of requests."""
    tables = _counted_tables()
    quote = connection.ops.quote_name
    sql = " UNION ALL ".join(
        f"SELECT {i}, COUNT(*) FROM {quote(table)}" for i, (_, table) in enumerate(tables)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        rows = dict(cursor.fetchall())
    return {label: rows[i] for i, (label, _) in enumerate(tables)}


@contextlib.contextmanager
def seeded_walk(django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    # The demo is seeded inside a transaction rolled back after the module, so that no other
    # test sees it; under the tests' fast password hasher (the module's fixture is made before
    # each test's own setting), so that it is the same copy of the demo as ``seeded_demo``'s.
    # The walk reaches the control sheets, a PDF: rendered once (tests/pdf_once.py).
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=FAST_HASHERS),
        rendered_once(control_sheets, "_pdf"),
    ):
        outer = transaction.atomic()
        outer._from_testcase = True  # the test's own: each write inside is its own transaction
        outer.__enter__()
        load_shipped_data()  # an earlier transactional test's flush may have emptied them
        demo = seed_demo()
        users = get_user_model().objects
        orgs = {
            "post": Organization.objects.get(name="American Legion Post 171"),
            "stanne": Organization.objects.get(name="St. Anne's Parish"),
        }
        heads = {
            "post": users.get(username="post171-head"),
            "stanne": users.get(username="stanne-head"),
        }
        urls, reads = _WALKED.get(id(demo)) or _walk_as_heads(orgs, heads)
        _WALKED[id(demo)] = urls, reads
        try:
            yield {
                "orgs": orgs,
                "heads": heads,
                "urls": copy.deepcopy(urls),
                "fields": dict(FIELDS),
                "reads": reads,
            }
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


#: The URLs walked and each head's reads, by the demo's copy they were walked on (its ids are
#: the same each time it is put back): the isolation walk, the read-only walk and the form
#: fuzzing share one walk when they run in the same process.
_WALKED: dict[int, tuple[dict[str, dict[str, str]], dict[str, dict[str, Read]]]] = {}


def _walk_as_heads(
    orgs: dict[str, Any], heads: dict[str, Any]
) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, Read]]]:
    urls: dict[str, dict[str, str]] = {}
    reads: dict[str, dict[str, Read]] = {}
    for key, org in orgs.items():
        client = Client()
        login(client, heads[key])
        reads[key] = {}
        found = _walk(client, org, reads[key])
        urls[key] = {name: link for name, (link, _) in found.items()}
        for name, route in org_patterns().items():
            if name not in urls[key]:
                filled = _fill(name, route, org, found)
                if filled:
                    urls[key][name] = filled
    return urls, reads

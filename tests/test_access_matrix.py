"""Who sees what (``organizations/access_matrix.py``), held over every URL pattern of the
project: each is requested, GET and POST, as the head, the member in charge, the bookkeeper and
the worker of Post 171, an inspector of every organization, a Commission admin, the head of
another organization and someone not signed in, on the seeded demo; each answer is held to the
matrix (a page it lets through answers 200, 302, 400 or 405, never 403 or 404; one it refuses
answers 403; another organization's page 404; a page needing a login sends to it). A URL
pattern missing from the matrix fails here: a new page must be added. Each request is rolled
back, so what one POST writes no other request sees.

Only the askings whose answer may differ by construction are walked (``_asked``): an inspector
of Post 171 only is given the same ``OrgAccess`` there as an inspector of every organization
(``access.resolve_access``: only which organizations they may reach differs, walked in
``test_an_inspector_of_one_organization_gets_404_in_another``); a Commission admin's answer on
an organization's page differs from an inspector's only on pages of personal data, and every
Commission POST there is refused by the same test (``OrgAccess.may_write``), walked as the
inspector; the Django admin answers every login that is not staff alike."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from nightfile import control_sheets
from organizations import access_matrix
from organizations.access import resolve_access
from organizations.access_matrix import Audience
from organizations.models import Organization
from reports.services import file_annual_report
from tests.conftest import FAST_HASHERS, load_shipped_data, login
from tests.demo_snapshot import seed_demo
from tests.pdf_once import rendered_once
from tests.site_walk import _fill, _relation_path

#: Answers of a page that let the request through (a form refused for its content is 400, a
#: page that takes no POST 405, a page with nothing to show for the demo's state redirects).
THROUGH = {200, 204, 302, 400, 405}
MEMBERS = {
    "head": "post171-head",
    "member_in_charge": "post171-mic",
    "bookkeeper": "post171-books",
    "worker": "post171-worker",
}
COMMISSION = {"inspector": "inspector", "inspector-south": "inspector-south"}
ADMIN = "commission-admin"
#: Values for the parameters of a route that name no model.
VALUES = {
    "year": 2025,
    "section": "workers",
    "number": 1,
    "kind": "payouts",
    "target_type": "occasions.occasion",
    # The API's Commission report (any id: a session is 401 before the report is looked up).
    "report_id": 1,
}
#: Pages the walk's URL names a record the view does not find for it (a download whose file the
#: demo never uploaded; a game the demo's URL builder picked that is not that page's): 404 to
#: whoever may read them, the refusals still asserted.
NO_FILE = {
    "authorization_document",
    "equipment_proof",
    "card_purchase_proof",
    "raffle_permit_document",
    "jackpot_game_outcome",
    "paper_game",
    "report_pdf",  # the demo is seeded without its PDFs
    "annual_pdf",
}
#: A page the matrix opens to a role whose view refuses it in a state the walk is in: the hall
#: laptop's page is a worker's only at a laptop handed to them (the session's login must run
#: the night, ``occasions.laptop.HANDS_IT``).
VIEW_REFUSES = {("hand_laptop", "worker")}
#: The demo's records named by pages with a string in their URL (filled in the fixture).
STRINGS = ("day", "target_id", "token", "uidb64")


def patterns(resolver: URLResolver | None = None, prefix: str = "", ns: str = "") -> Any:
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            yield from patterns(p, prefix + str(p.pattern), p.namespace or ns)
        elif isinstance(p, URLPattern):
            yield (f"{ns}:{p.name}" if ns else (p.name or "")), prefix + str(p.pattern)


#: The model each parameter names where its name does not say (``site_walk._fill`` guesses the
#: others from the parameter's name): by URL name, parameter -> model label; the last is the
#: record looked up, the others read off its relations. ``auth.user`` is a login of the
#: organization (the people pages).
NAMED: dict[str, dict[str, str]] = {
    "member_edit": {"pk": "organizations.membership"},
    "authorization_document": {"pk": "organizations.directorauthorization"},
    "worker_edit": {"pk": "organizations.workerlistentry"},
    "worker_remove": {"pk": "organizations.workerlistentry"},
    "card_usage_add": {"pk": "organizations.cardpurchase"},
    "card_purchase_proof": {"pk": "organizations.cardpurchase"},
    "people_roles": {"pk": "auth.user"},
    "people_deactivate": {"pk": "auth.user"},
    "people_send_again": {"pk": "auth.user"},
    "worker_sign_out": {"pk": "occasions.occasion", "presence_pk": "occasions.workerpresence"},
    "jackpot_detail": {"pk": "games.progressiveseries"},
    "jackpot_rules_change": {"pk": "games.progressiveseries"},
    "prize_part_announce": {"pk": "occasions.occasion", "part_pk": "games.prizepart"},
    "prize_part_remove": {"pk": "occasions.occasion", "part_pk": "games.prizepart"},
    "winners_record": {
        "pk": "occasions.occasion",
        "game_pk": "games.game",
        "part_pk": "games.prizepart",
    },
    "draw_correct": {
        "pk": "occasions.occasion",
        "game_pk": "games.game",
        "call_pk": "games.ballcall",
    },
    "occasion_serials_count_back": {
        "pk": "occasions.occasion",
        "issue_id": "equipment.paperissue",
    },
    "report_status": {"report_id": "reports.financialreport"},
    "report_pdf": {"report_id": "reports.financialreport"},
    "report_rerender": {"report_id": "reports.financialreport"},
    "annual_status": {"report_id": "reports.annualreport"},
    "annual_pdf": {"report_id": "reports.annualreport"},
    "annual_void_disbursement": {"disbursement_id": "reports.lawfulpurposedisbursement"},
}
#: The Django admin's routes given by a regular expression: a path each.
ADMIN_REGEX = {"admin:app_list": "/admin/organizations/", "admin:None": "/admin/nowhere/"}


def _named(name: str, org: Organization) -> str | None:
    """The URL of a page in ``NAMED``: the organization's latest record of the last model, the
    other parameters its relations."""
    from django.apps import apps
    from django.urls import reverse

    params = {param: apps.get_model(label) for param, label in NAMED[name].items()}
    *others, last = params
    model = params[last]
    path = "org_roles__organization" if model._meta.label_lower == "auth.user" else None
    path = path or _relation_path(model, Organization)
    obj = model.objects.filter(**{path: org}).order_by("-pk").first() if path else None
    if obj is None:
        return None
    kwargs: dict[str, Any] = {last: obj.pk}
    for param in others:
        relation = _relation_path(model, params[param])
        if not relation:
            return None
        kwargs[param] = model.objects.filter(pk=obj.pk).values_list(f"{relation}__pk", flat=True)[0]
    return reverse(name, kwargs={"org_id": org.pk, **kwargs})


def _url(name: str, route: str, org: Organization, found: dict[str, Any]) -> str | None:
    """A concrete path for ``route`` of the demo: an admin route with any object id (the admin
    refuses before it looks), an organization's with the demo's objects (``NAMED``, else
    ``site_walk._fill``), any other with the values found."""
    if route.startswith("admin/"):
        path = re.sub(r"<(?:\w+:)?\w+>", "1", route)
        if "(?P" in path or "^" in path:
            return ADMIN_REGEX.get(name)
        return "/" + path
    if name in NAMED:
        return _named(name, org)
    if name == "commission_api_token_revoke":  # the demo's Commission token (its feed)
        from django.urls import reverse

        from api.models import ApiToken

        token = ApiToken.objects.filter(organization=None).order_by("pk").first()
        return reverse(name, kwargs={"pk": token.pk}) if token else None
    if "<int:org_id>" in route:
        return _fill(name, route, org, {"values": ("", {k: v[0] for k, v in found.items()})})
    path = route
    for param in re.findall(r"<(?:\w+:)?(\w+)>", route):
        value = VALUES.get(param) or found.get(param, [None])[0]
        if value is None:
            return None
        path = re.sub(rf"<(?:\w+:)?{param}>", str(value), path)
    return "/" + path


@pytest.fixture(scope="module")
def walk(django_db_setup: Any, django_db_blocker: Any) -> Any:
    from games.models import Flashboard
    from occasions.models import Occasion

    outer = transaction.atomic()
    outer._from_testcase = True  # the test's own: each write inside is its own transaction
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=FAST_HASHERS),
        rendered_once(control_sheets, "_pdf"),
        outer,
    ):
        load_shipped_data()
        seed_demo()
        post = Organization.objects.get(name="American Legion Post 171")
        # The demo files no annual report: Post 171's for the walk's year, for its pages.
        file_annual_report(
            organization=post,
            year=VALUES["year"],
            by=get_user_model().objects.get(username=MEMBERS["head"]),
        )
        stanne = Organization.objects.get(name="St. Anne's Parish")
        occasion = Occasion.objects.filter(organization=post).order_by("date").first()
        link = Flashboard.objects.first()
        found = {
            **{k: [v] for k, v in VALUES.items()},
            "day": [occasion.date.isoformat()],
            "target_id": [str(occasion.pk)],
            "token": [getattr(link, "token", "x" * 32)],
            "uidb64": ["MQ"],
        }
        urls: dict[str, str] = {}
        unreached: list[str] = []
        for name, route in patterns():
            if not name:
                continue
            url = _url(name, route, post, found)
            if url is None:
                unreached.append(name)
            else:
                urls.setdefault(name, url)
        users = {u.username: u for u in get_user_model().objects.all()}
        yield {"urls": urls, "unreached": unreached, "post": post, "stanne": stanne, "users": users}
        transaction.set_rollback(True)


def _ask(client: Client, method: str, url: str) -> int:
    with transaction.atomic():
        response = client.get(url) if method == "GET" else client.post(url, {})
        transaction.set_rollback(True)
    return response.status_code


def _client(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        login(client, user)
    return client


def _member_expects(page: access_matrix.OrgPage, role: str, method: str) -> str:
    allowed = page.reads({role}, verified=True) if method == "GET" else page.writes({role})
    return "through" if allowed else "403"


def _commission_expects(page: access_matrix.OrgPage, who: str, method: str) -> str:
    if method != "GET":
        return "403"
    return "through" if page.commission_reads(inspector=who != ADMIN) else "403"


def _site_expects(name: str, who: str, method: str) -> str:
    """A page outside any organization, for ``who`` (a role, a Commission login, or None)."""
    page = access_matrix.site_page(name)
    assert page is not None
    audience = page.audience
    if audience == Audience.PUBLIC:
        return "any"
    if audience == Audience.API:
        return "401"  # a session (or no login) is nobody to the API: only a token is
    if who is None:
        return "302"
    if audience == Audience.SIGNED_IN:
        return "any"
    if audience == Audience.DJANGO_ADMIN:
        return "any" if who == ADMIN else "302"
    commission = who in COMMISSION.values() or who == ADMIN
    if audience == Audience.COMMISSION:
        if not commission or method != "GET":
            return "403"
        return "403" if page.personal and who == ADMIN else "through"
    # Commission admins' pages; one naming an organization looks it up first (404 outside).
    return "through" if who == ADMIN else "403|404"


def _holds(code: int, expected: str, name: str) -> bool:
    if code == 405:
        return True  # a method the page never takes: refused to everyone alike
    if expected == "any":
        return code != 500
    if expected == "through":
        return code in THROUGH or (code == 404 and name in NO_FILE)
    return str(code) in expected.split("|")


def test_every_url_pattern_is_in_the_matrix(walk):
    names = {name for name, _ in patterns() if name}
    missing = sorted(
        n for n in names if access_matrix.org_page(n) is None and access_matrix.site_page(n) is None
    )
    assert not missing, f"pages missing from organizations/access_matrix.py: {missing}"
    stale = sorted(set(access_matrix.ORG_PAGES) - names)
    assert not stale, f"the matrix names pages that do not exist: {stale}"


def test_every_url_pattern_is_walked(walk):
    assert not walk["unreached"], f"no URL built for {walk['unreached']}"


#: Who the walk asks as (an inspector of one organization only in the test of other organizations).
WALKED_AS = {*MEMBERS, "inspector", ADMIN}


def _asked(name: str, page: access_matrix.OrgPage | None, who: str, method: str) -> bool:
    """Whether the walk asks ``name`` as ``who`` by ``method``: not where the answer is the same
    as another asking's by construction (the module's docstring)."""
    if name.startswith("admin:"):
        # The admin answers every non-staff login alike: two of them suffice; its POSTs as its
        # GETs; and the walk's session must not end (logout).
        return who in ("worker", "inspector", "anonymous") and method == "GET"
    if name == "logout":
        return False
    if page is not None and who == ADMIN:
        return method == "GET" and page.personal
    return True


@pytest.mark.django_db
def test_each_role_gets_what_the_matrix_says_on_every_page(walk):
    users = walk["users"]
    logins = {**MEMBERS, **COMMISSION, ADMIN: ADMIN}
    clients = {
        who: _client(users[username]) for who, username in logins.items() if who in WALKED_AS
    }
    clients["outsider"] = _client(users["stanne-head"])
    clients["anonymous"] = _client(None)
    failures = []
    for name, url in walk["urls"].items():
        page = access_matrix.org_page(name)
        for who, client in clients.items():
            for method in ("GET", "POST"):
                if not _asked(name, page, who, method):
                    continue
                if page is None:
                    login_name = None if who == "anonymous" else logins.get(who, "stanne-head")
                    expected = _site_expects(name, login_name, method)
                elif who == "anonymous":
                    expected = "302"
                elif who == "outsider":
                    expected = "404"
                elif who in MEMBERS:
                    expected = _member_expects(page, who, method)
                else:
                    expected = _commission_expects(page, logins[who], method)
                if (name, who) in VIEW_REFUSES:
                    expected = "403"
                code = _ask(client, method, url)
                if not _holds(code, expected, name):
                    failures.append(f"{who} {method} {url} ({name}): {code}, matrix: {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.django_db
def test_an_inspector_of_one_organization_gets_404_in_another(walk):
    client = _client(walk["users"]["inspector-south"])
    post, stanne = walk["post"], walk["stanne"]
    assert _ask(client, "GET", walk["urls"]["organization_home"]) == 200  # in their scope
    failures = []
    for name, url in walk["urls"].items():
        if access_matrix.org_page(name) is None:
            continue
        elsewhere = url.replace(f"/org/{post.pk}/", f"/org/{stanne.pk}/", 1)
        if (code := _ask(client, "GET", elsewhere)) != 404:
            failures.append((name, elsewhere, code))
    assert not failures


@pytest.mark.django_db
def test_a_worker_reads_no_money_page_and_no_personal_data(walk):
    """The hole as reported: a worker (password only) read the W-2G register and its CSV, the
    gaming bank account, close-outs, the annual report, the payouts CSV and report PDFs."""
    client = _client(walk["users"]["post171-worker"])
    urls = walk["urls"]
    names = [
        "w2g_register",
        "w2g_register_csv",
        "bank_account",
        "report_closeout",
        "annual_report",
        "occasion_record_export",
        "occasion_record",
        "audit_log",
    ]
    assert urls["w2g_register"] == f"/org/{walk['post'].pk}/w2g/2025/"
    assert {name: _ask(client, "GET", urls[name]) for name in names} == dict.fromkeys(names, 403)


@pytest.mark.django_db
def test_personal_data_needs_a_second_factor(walk):
    """A head or bookkeeper whose session has not passed the second factor (a user object that
    does not say it did) reads no personal data; with it, they do; the member in charge never."""
    users, post = walk["users"], walk["post"]

    for username, with_factor, without in (
        ("post171-head", True, False),
        ("post171-books", True, False),
        ("post171-mic", False, False),
        ("post171-worker", False, False),
    ):
        for verified, expected in ((True, with_factor), (False, without)):
            user = get_user_model().objects.get(pk=users[username].pk)
            user.is_verified = (lambda v: lambda: v)(verified)
            access = resolve_access(user, post.pk)
            assert access.may_read("w2g_register") is expected, (username, verified)
            assert access.sees_personal_data is expected, (username, verified)
            assert access.may_read("organization_home")


@pytest.mark.django_db
def test_the_claims_page_shows_a_w2g_only_to_whom_personal_data_is_shown(walk):
    from games.models import Payout

    payout = (
        Payout.objects.filter(
            w2g_required=True, winner__claim__game__occasion__organization=walk["post"]
        )
        .select_related("winner__claim__game__occasion")
        .first()
    )
    assert payout is not None, "the demo pays a W-2G prize"
    game = payout.winner.claim.game
    url = f"/org/{walk['post'].pk}/occasions/{game.occasion_id}/games/{game.pk}/claims/"
    for username, shown in (("post171-head", True), ("post171-worker", False), ("inspector", True)):
        html = _client(walk["users"][username]).get(url).content.decode()
        assert (payout.w2g_address in html) is shown, username
        assert ("W-2G details recorded" in html) is not shown, username


def test_security_md_states_the_matrix():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "SECURITY.md").read_text()
    start, end = text.find(access_matrix.BEGIN), text.find(access_matrix.END)
    assert start >= 0 and end > start, "SECURITY.md has no access matrix section"
    assert text[start : end + len(access_matrix.END)] == access_matrix.markdown(), (
        "SECURITY.md's matrix differs from organizations/access_matrix.py: paste markdown()"
    )

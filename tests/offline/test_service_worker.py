"""The hall laptop's service worker (/sw.js) and its page for a page not kept (/offline/): the
headers a worker needs, the floor's files it keeps by the URLs the pages ask for (with a
revision from each file's content), the floor pages it keeps as they are shown, nothing from
another site, and the policy that lets the page install it."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from offline import sw_views
from tests.conftest import login
from tests.test_csp import _directives


@pytest.fixture
def worker(client):
    return client.get(reverse("service_worker"))


def _precache(text: str) -> list[dict[str, str]]:
    return json.loads(re.search(r"precacheAndRoute\((\[.*?\])\);", text).group(1))


def test_the_worker_is_served_from_the_root_with_a_workers_headers(worker):
    assert reverse("service_worker") == "/sw.js"
    assert worker.status_code == 200
    assert worker["Content-Type"] == "application/javascript"
    assert worker["Cache-Control"] == "no-cache"  # the browser asks each time if it changed
    assert worker["Service-Worker-Allowed"] == "/"


def test_the_worker_imports_workbox_core_first_by_its_static_urls(worker):
    text = worker.content.decode()
    imported = json.loads(re.search(r"importScripts\(\.\.\.(\[.*?\])\);", text).group(1))
    assert imported[0] == static("vendor/workbox/workbox-core.prod.js")
    assert set(imported) >= {
        static(f"vendor/workbox/workbox-{part}.prod.js")
        for part in ("routing", "strategies", "precaching")
    }


def test_the_floors_files_are_kept_with_their_content_hash(worker):
    entries = {e["url"]: e["revision"] for e in _precache(worker.content.decode())}
    for name in (
        "js/floor.js",
        "js/door.js",
        "js/draw.js",
        "js/claims.js",
        "js/flashboard.js",
        "js/offline-register.js",
        "css/beano.css",
        "vendor/bootstrap/css/bootstrap.min.css",
        "vendor/idb/umd.js",
        "vendor/workbox/workbox-window.prod.umd.js",
        "django_htmx/htmx-2.min.js",
    ):
        with open(finders.find(name), "rb") as f:
            assert entries[static(name)] == sw_views._content_hash(f.read()), name
    assert reverse("offline_page") in entries


def test_a_file_changed_gets_a_new_revision(monkeypatch, tmp_path):
    """A deployment's changed script is fetched again by the laptops (its revision moves)."""
    changed = tmp_path / "floor.js"
    changed.write_text("/* a new floor */")
    found = finders.find

    def find(name, *args, **kwargs):
        return str(changed) if name == "js/floor.js" else found(name, *args, **kwargs)

    before = dict(sw_views.manifest()[0])
    monkeypatch.setattr(finders, "find", find)
    sw_views._manifest.cache_clear()
    try:
        after = dict(sw_views.manifest()[0])
    finally:
        monkeypatch.undo()
        sw_views._manifest.cache_clear()
    assert after[static("js/floor.js")] != before[static("js/floor.js")]
    assert after[static("js/door.js")] == before[static("js/door.js")]


def test_the_worker_names_nothing_outside_this_site(worker):
    text = worker.content.decode()
    assert not re.search(r"https?://|//[a-z0-9-]+\.[a-z]", text, re.I), "a URL of another site"
    for entry in _precache(text):
        assert entry["url"].startswith("/")


def test_the_floor_pages_patterns_match_their_pages_and_no_others(worker, tenant, open_occasion):
    text = worker.content.decode()
    sources = json.loads(re.search(r"const FLOOR_PAGES = (\[.*?\])\.map", text).group(1))
    patterns = [re.compile(s) for s in sources]
    args = {"org_id": tenant.organization.pk, "pk": open_occasion.pk}
    game = {**args, "game_pk": 41}
    floor = [
        reverse("door_sales", kwargs=args),
        reverse("workers_present", kwargs=args),
        reverse("draw_home", kwargs=args),
        reverse("occasion_detail", kwargs=args),
        reverse("draw_console", kwargs=game),
        reverse("game_claims", kwargs=game),
        reverse("flashboard", kwargs={"token": "abc123"}),
    ]
    others = [
        reverse("sale_record", kwargs=args),
        reverse("flashboard_board", kwargs={"token": "abc123"}),
        reverse("organization_home", args=[tenant.organization.pk]),
        reverse("login"),
    ]
    for path in floor:
        assert any(p.search(path) for p in patterns), path
    for path in others:
        assert not any(p.search(path) for p in patterns), path
    pack = re.compile(json.loads(re.search(r"const PACK = new RegExp\((.*?)\);", text).group(1)))
    assert pack.search(f"/org/{args['org_id']}/occasions/{args['pk']}/offline/pack/")


def test_the_worker_keeps_only_plain_200_answers_in_the_floor_cache(worker):
    text = worker.content.decode()
    assert 'const PAGES_CACHE = "beano-floor-pages"' in text
    assert "networkTimeoutSeconds: 4" in text
    assert "response.status === 200 && !response.redirected" in text


def test_the_worker_takes_no_post(client):
    assert client.post(reverse("service_worker")).status_code == 405


def test_the_offline_page_needs_no_login_and_says_what_to_do(client):
    response = client.get(reverse("offline_page"))
    assert response.status_code == 200
    text = response.content.decode()
    assert "You are offline" in text
    assert "this page was not kept on this laptop" in text
    assert "Back button" in text


def test_the_offline_page_kept_for_everyone_names_no_one(client, tenant):
    """Kept once for the laptop, it must not show the name of whoever was signed in then."""
    login(client, tenant.member_in_charge)
    text = client.get(reverse("offline_page")).content.decode()
    assert tenant.member_in_charge.get_username() not in text
    assert "Log out" not in text


def test_the_policy_lets_this_site_install_a_worker(client):
    policy = _directives(client.get(reverse("login"))["Content-Security-Policy"])
    assert policy["worker-src"] == ["'self'"]


def test_a_floor_page_registers_the_worker_and_names_the_nights_pages(
    client, tenant, open_occasion
):
    login(client, tenant.member_in_charge)
    args = {"org_id": tenant.organization.pk, "pk": open_occasion.pk}
    text = client.get(reverse("door_sales", kwargs=args)).content.decode()
    assert static("vendor/workbox/workbox-window.prod.umd.js") in text
    tag = re.search(r"<script [^>]*data-offline-register[^>]*>", text).group(0)
    assert 'data-sw="/sw.js"' in tag
    assert reverse("workers_present", kwargs=args) in tag
    assert reverse("draw_home", kwargs=args) in tag


def test_the_flashboard_registers_the_worker_too(client, tenant, open_occasion):
    from games import draw_services

    board = draw_services.issue_flashboard_link(occasion=open_occasion, by=tenant.head)
    text = client.get(reverse("flashboard", args=[board.token])).content.decode()
    tag = re.search(r"<script [^>]*data-offline-register[^>]*>", text).group(0)
    assert 'data-offline-pack=""' in tag  # no login on the flashboard's screen: no pack


def test_the_login_page_forgets_the_floor_pages(client):
    text = client.get(reverse("login")).content.decode()
    assert static("js/offline-forget.js") in text

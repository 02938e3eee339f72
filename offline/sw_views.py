"""The hall laptop's service worker (/sw.js) and the page it shows for a page it never kept
(/offline/).

The worker is a script rendered here rather than a static file: it must be served from the
site's root to cover every page, and it names the static files by the URLs the pages ask for
(hashed in production) with a revision from each file's content, so that a file changed by a
deployment is fetched again and the rest are not."""

from __future__ import annotations

import functools
import hashlib
import json
import re

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import get_resolver, get_script_prefix, reverse
from django.views.decorators.http import require_GET

#: The vendored Workbox builds, core first: each of the others adds itself to ``workbox``.
WORKBOX = (
    "vendor/workbox/workbox-core.prod.js",
    "vendor/workbox/workbox-routing.prod.js",
    "vendor/workbox/workbox-strategies.prod.js",
    "vendor/workbox/workbox-precaching.prod.js",
)

#: What the floor's pages load: kept on the laptop when the worker installs, so that a floor
#: page shown from the cache offline has its styles and scripts. Each must be in static/ (a
#: file renamed without this list fails the worker's tests, not a hall on a bad night).
FLOOR_STATIC = (
    "vendor/bootstrap/css/bootstrap.min.css",
    "vendor/bootstrap/js/bootstrap.bundle.min.js",
    "css/beano.css",
    "css/door.css",
    "css/draw.css",
    "css/claims.css",
    "css/pictures.css",
    "css/flashboard.css",
    "css/offline.css",
    "django_htmx/htmx-2.min.js",
    "django_htmx/django-htmx.js",
    "js/text-size.js",
    "js/beano.js",
    "js/idle.js",
    "js/floor.js",
    "js/offline.js",
    "js/door.js",
    "js/draw.js",
    "js/claims.js",
    "js/pictures.js",
    "js/flashboard.js",
    "js/offline-register.js",
    "vendor/idb/umd.js",
    "vendor/workbox/workbox-window.prod.umd.js",
)

#: The floor's pages (URL names), kept as they are visited and when a night's pages are asked
#: for: what the hall needs to go on when the Wi-Fi drops.
FLOOR_PAGES = (
    "door_sales",
    "workers_present",
    "draw_home",
    "draw_console",
    "game_claims",
    "flashboard",
    "occasion_detail",
)
#: The night's pack (contract §1), kept with the pages; its path as the contract fixes it while
#: the endpoint is not there.
PACK = "offline_pack"
PACK_FALLBACK = r"^/org/[0-9]+/occasions/[0-9]+/offline/pack/$"

#: The templates of the /offline/ page: its revision in the worker's list follows them.
OFFLINE_TEMPLATES = ("offline/offline.html", "base.html")


def _content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _path_regex(name: str) -> str | None:
    """The JavaScript regex of the path of URL name ``name``, from its URL pattern: the route's
    own regex with its group names dropped and anchored at both ends (None: no such URL)."""
    entries = get_resolver().reverse_dict.getlist(name)
    if not entries:
        return None
    pattern = entries[0][1]
    body = re.sub(r"\(\?P<\w+>", "(", pattern).removesuffix(r"\Z")
    return "^" + re.escape(get_script_prefix()) + body + "$"


@functools.cache
def _manifest() -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], str | None]:
    """The precache list (URL, revision), the floor pages' regexes and the pack's: a pure
    function of the deployed files and URLs, worked out once per process."""
    entries = []
    for name in FLOOR_STATIC:
        found = finders.find(name)
        if not found:  # a floor file renamed without this list: the laptop would lose it offline
            raise LookupError(f"The floor's static file {name} is not in static/.")
        with open(found, "rb") as f:
            entries.append((static(name), _content_hash(f.read())))
    templates = b"".join(get_template(t).template.source.encode() for t in OFFLINE_TEMPLATES)
    entries.append((reverse("offline_page"), _content_hash(templates)))
    pages = tuple(p for p in map(_path_regex, FLOOR_PAGES) if p)
    return tuple(entries), pages, _path_regex(PACK) or PACK_FALLBACK


def manifest() -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], str | None]:
    """As ``_manifest``; worked out again for each request in development, where a script
    edited must reach the laptop without a restart."""
    if settings.DEBUG:
        _manifest.cache_clear()
    return _manifest()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker script. ``no-cache`` so the browser asks each time whether it changed (a
    deployment's new files); allowed the whole site as its scope."""
    precache, pages, pack = manifest()
    context = {
        "workbox": json.dumps([static(name) for name in WORKBOX]),
        "precache": json.dumps([{"url": url, "revision": rev} for url, rev in precache]),
        "pages": json.dumps(list(pages)),
        "pack": json.dumps(pack),
        "offline_url": json.dumps(reverse("offline_page")),
    }
    response = render(request, "offline/sw.js", context, content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the laptop shows for a page it did not keep. Kept once for everyone who uses the
    laptop, so it is drawn as for someone not signed in: no name, no menu."""
    return render(request, "offline/offline.html", {"user": AnonymousUser()})

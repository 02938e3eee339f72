"""The Content Security Policy and the other security headers, on real responses; and the
templates keep to the policy: no inline script, no event-handler attributes, no inline style."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import login

ROOT = Path(settings.BASE_DIR)
# Every template a browser receives. The PDF templates (templates/*/pdf/) are rendered by
# WeasyPrint into a file, never served as a page: their <style> is the PDF's and no policy applies.
TEMPLATE_FILES = sorted(
    p
    for p in ROOT.rglob("*.html")
    if not {".venv", "var", "node_modules", "pdf"} & set(p.relative_to(ROOT).parts)
)


def _directives(header: str) -> dict[str, list[str]]:
    return {
        part.split()[0]: part.split()[1:] for part in (p.strip() for p in header.split(";")) if part
    }


def assert_secure_headers(response) -> None:
    policy = _directives(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["worker-src"] == ["'self'"]  # the hall laptop's service worker, /sw.js
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


def test_the_login_page_carries_the_policy_and_the_headers(client):
    assert_secure_headers(client.get(reverse("login")))


def test_a_logged_in_page_carries_them(client, tenant):
    login(client, tenant.member_in_charge)
    assert_secure_headers(client.get(reverse("organization_home", args=[tenant.organization.pk])))


def test_the_flashboard_is_not_framed_either(client, tenant, open_occasion):
    from games import draw_services

    board = draw_services.issue_flashboard_link(occasion=open_occasion, by=tenant.head)
    assert_secure_headers(client.get(reverse("flashboard", args=[board.token])))


def test_the_admin_carries_them(client, commission_admin):
    login(client, commission_admin)
    assert_secure_headers(client.get(reverse("admin:index")))


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_templates_have_no_inline_script_or_style(path):
    text = path.read_text()
    scripts = re.findall(r"<script\b[^>]*>", text)
    assert all("src=" in tag for tag in scripts), "inline <script>: move it to static/js"
    assert not re.search(r"<style\b", text), "<style> block: move it to static/css"
    assert not re.search(r"\sstyle\s*=", text), "style attribute: use a class"
    assert not re.search(r"<[^>]*\son[a-z]+\s*=", text, re.S), "on* handler: see static/js/beano.js"
    assert "javascript:" not in text.lower()

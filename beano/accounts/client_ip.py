"""The client's address for django-axes' login lockout (settings.AXES_CLIENT_IP_CALLABLE).

Without a reverse proxy the address is the socket's, REMOTE_ADDR; X-Forwarded-For is then
ignored, because anyone can send one. Behind ``TRUSTED_PROXY_COUNT`` proxies that each append
the address they received from to X-Forwarded-For, the client is the entry that many places
from the right: the one the outermost trusted proxy saw. Entries further left were written by
the client and are not believed. A header shorter than expected (a request that reached the
application without passing every proxy) falls back to REMOTE_ADDR.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valid(address: str) -> str | None:
    try:
        return str(ipaddress.ip_address(address.strip()))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str | None:
    remote = _valid(request.META.get("REMOTE_ADDR", "") or "")
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < count:
        return remote
    return _valid(forwarded[-count]) or remote

"""The flashboard's unchanged poll, answered before Django's request cycle.

Every screen of every hall polls its board every second, and five polls in six find nothing
changed: Django answers them 304 from the cache without a query (``draw_views.flashboard_board``),
but each still pays the request cycle, about two thirds of its time (the request object, the
URL resolver, twenty middlewares that do nothing for a public page). This WSGI layer, wrapped
around the application in ``beano.wsgi``, answers those polls itself when the same proof holds:
the tag the poll sends back is exactly the board's, and the cache shows the board unchanged since
(``draw_selectors.unchanged_etag``: one round trip, no query).

It never decides anything Django would decide otherwise. Whatever is not plainly such a poll goes
on to Django: another method or path, a query string, a host Django would refuse, a plain-HTTP
request Django would redirect, a tag not exactly the current one, the cache unreachable. Its
304 carries the headers Django's own 304 carried: it learns them from the first unchanged poll
Django answers (secure and not, apart), and until then every poll goes on to Django."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from games import draw_selectors

#: The poll's path (``games.urls.flashboard_urlpatterns``, matched first among the site's).
BOARD_PATH = re.compile(r"/flash/([^/]+)/board/")

#: Headers of Django's 304 that belong to that one answer, never replayed.
_OWN = frozenset({"etag", "date", "set-cookie"})

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def _secure(environ: dict[str, Any]) -> bool:
    """As Django's ``request.is_secure()`` sees the request."""
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        header, value = proxy
        forwarded = environ.get(header)
        if forwarded is not None:
            return forwarded.split(",", 1)[0].strip() == value
    return environ.get("wsgi.url_scheme") == "https"


def _host_allowed(environ: dict[str, Any]) -> bool:
    """The Host header against ALLOWED_HOSTS, as Django's ``request.get_host()`` checks it; a
    forwarded host or no Host header is left to Django."""
    if settings.USE_X_FORWARDED_HOST:
        return False
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _ = split_domain_port(environ.get("HTTP_HOST", ""))
    return bool(domain) and validate_host(domain, allowed)


class UnchangedPolls:
    """WSGI middleware: the flashboard's unchanged poll answered 304 from the cache."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app
        #: Django's 304 headers, learnt, secure (True) and not (False).
        self.headers: dict[bool, list[tuple[str, str]]] = {}

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        seen = environ.get("HTTP_IF_NONE_MATCH", "")
        if (
            not seen
            or environ.get("REQUEST_METHOD") != "GET"
            or environ.get("QUERY_STRING")
            or not (path := BOARD_PATH.fullmatch(environ.get("PATH_INFO", "")))
            or not _host_allowed(environ)
        ):
            return self.app(environ, start_response)
        secure = _secure(environ)
        learnt = self.headers.get(secure)
        if learnt is None:
            return self.app(environ, self._learning(secure, start_response))
        etag = draw_selectors.unchanged_etag(path[1], seen)
        if etag is None:
            return self.app(environ, start_response)
        start_response("304 Not Modified", [*learnt, ("ETag", etag)])
        return []

    def _learning(self, secure: bool, start_response: StartResponse) -> StartResponse:
        """``start_response``, keeping the headers of Django's 304 to a poll of this kind."""

        def learn(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            if status.startswith("304 ") and not any(
                name.lower() == "set-cookie" for name, _ in headers
            ):
                self.headers[secure] = [
                    (name, value) for name, value in headers if name.lower() not in _OWN
                ]
            return start_response(status, headers, *args)

        return learn

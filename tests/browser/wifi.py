"""The hall's Wi-Fi, played by the live server itself: the next request to an address can have
its answer lost on the way back (the request recorded), be lost before it arrives (nothing
recorded), or be held back until the test lets it go (the server is slow tonight).

The browser sees what it would see on a bad night: an answer cut off (its headers promise more
than comes before the connection closes) is a dropped connection, with no answer. It is done
here rather than by Playwright's interception of the page's requests: a CI run saw the page
send a sale that interception never saw (no request event, no route called), so the answer the
test meant to lose arrived."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

Application = Callable[[dict, Callable], Iterable[bytes]]
#: What becomes of a request: given the application, the request's environ and start_response.
Fate = Callable[[Application, dict, Callable], Iterable[bytes]]

#: How long a held request waits for the test, at most.
HOLD_SECONDS = 30


def _cut_off(start_response: Callable) -> list[bytes]:
    """An answer cut off after its first byte, the connection closed (by the server's handler
    of the connection, whose ``start_response`` this is: a WSGI application may not send
    ``Connection: close`` itself)."""
    start_response.__self__.request_handler.close_connection = True  # type: ignore[attr-defined]
    start_response(
        "200 OK", [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", "1024")]
    )
    return [b"<"]


def lose_the_answer(app: Application, environ: dict, start_response: Callable) -> list[bytes]:
    """The request reaches the application, which records it; its answer is lost on the way
    back."""
    answer = app(environ, lambda status, headers, exc_info=None: None)
    try:
        b"".join(answer)
    finally:
        if hasattr(answer, "close"):
            answer.close()  # the request finished, as the server would finish it
    return _cut_off(start_response)


def never_sent(app: Application, environ: dict, start_response: Callable) -> list[bytes]:
    """The request never reaches the application: the hall's Wi-Fi is down."""
    return _cut_off(start_response)


def no_connection(app: Application, environ: dict, start_response: Callable) -> list[bytes]:
    """The hall's Wi-Fi is down: the connection is closed before a byte comes back, so the
    browser's fetch fails outright (a page, a service worker's fetch, a sale alike), as it does
    when the laptop cannot reach the server at all."""
    handler = start_response.__self__.request_handler  # type: ignore[attr-defined]
    handler.close_connection = True
    with contextlib.suppress(OSError):
        handler.connection.shutdown(socket.SHUT_RDWR)
    start_response("200 OK", [("Content-Length", "0")])
    return []


class Held:
    """A request held back until ``go`` is set; ``arrived`` says it came."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.go = threading.Event()

    def __call__(self, app: Application, environ: dict, start_response: Callable) -> Any:
        self.arrived.set()
        self.go.wait(HOLD_SECONDS)
        return app(environ, start_response)


class Wifi:
    """The live server's application wrapped: ``fate(url)(what)`` makes the next POST to ``url``
    meet ``what`` (fates asked for in turn meet requests in turn); the others go through."""

    def __init__(self, live_server: Any) -> None:
        self._httpd = live_server.thread.httpd
        self._app = self._httpd.get_app()
        self._fates: dict[str, list[Fate]] = defaultdict(list)
        self._lock = threading.Lock()
        self._down: bool | str = False
        self._httpd.set_app(self._serve)

    def down(self, user_agent: str = "") -> None:
        """The Wi-Fi drops: every request from now on, of any kind, gets no connection; with
        ``user_agent``, only the requests of the browser whose User-Agent holds it (one laptop
        of two at the door, its service worker's requests included)."""
        self._down = user_agent or True

    def up(self) -> None:
        """The Wi-Fi is back."""
        self._down = False

    def _cut(self, environ: dict) -> bool:
        if self._down is True:
            return True
        return bool(self._down) and self._down in environ.get("HTTP_USER_AGENT", "")

    def restore(self) -> None:
        self._httpd.set_app(self._app)

    def fate(self, url: str) -> Callable[[Fate], None]:
        path = urlsplit(url).path

        def arm(fate: Fate) -> None:
            with self._lock:
                self._fates[path].append(fate)

        return arm

    def _serve(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if self._cut(environ):
            return no_connection(self._app, environ, start_response)
        with self._lock:
            fates = self._fates.get(environ.get("PATH_INFO", ""))
            fate = fates.pop(0) if fates and environ.get("REQUEST_METHOD") == "POST" else None
        if fate is None:
            return self._app(environ, start_response)
        return fate(self._app, environ, start_response)


def held_back(wifi: Wifi, url: str) -> tuple[Callable[[], None], Callable[[], None]]:
    """Hold back the next request to ``url`` (the server is slow tonight): ``hold()`` arms it
    and ``release()`` lets it go once it came; later requests go straight through."""
    held: list[Held] = []

    def hold() -> None:
        held.append(Held())
        wifi.fate(url)(held[-1])

    def release() -> None:
        request = held.pop()
        assert request.arrived.wait(5), "the request was never sent"
        request.go.set()

    return hold, release

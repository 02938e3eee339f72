"""The flashboard's unchanged poll answered before Django's request cycle (games/flash_wsgi.py):
only on the proof Django's view uses, with the headers Django's own 304 carried, and everything
else left to Django."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.wsgi_request import wsgi_request
from games import draw_services as services
from games.flash_wsgi import BOARD_PATH, UnchangedPolls


class Counted:
    """Django's WSGI handler, counting the requests that reach it."""

    def __init__(self) -> None:
        self.handler = WSGIHandler()
        self.calls = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.calls += 1
        return self.handler(environ, start_response)


def send(app: Any, path: str, method: str = "GET", **extra: str) -> SimpleNamespace:
    # As Django's test client does: the request's end must not close the test's connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        answer = wsgi_request(app, path, method, **{"HTTP_HOST": "testserver", **extra})
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return SimpleNamespace(
        status=answer.status_code, headers=answer.headers, content=answer.content
    )


@pytest.fixture
def flash(tenant, open_occasion):
    return services.issue_flashboard_link(occasion=open_occasion, by=tenant.member_in_charge)


@pytest.fixture
def board(flash):
    return reverse("flashboard_board", args=[flash.token])


@pytest.fixture
def served():
    django = Counted()
    return SimpleNamespace(django=django, app=UnchangedPolls(django))


def _etag(served, board) -> str:
    first = send(served.app, board)
    assert first.status == 200
    return first.headers["ETag"]


def test_the_path_is_the_url_confs(flash, board):
    match = BOARD_PATH.fullmatch(board)
    assert match is not None and match[1] == flash.token
    assert BOARD_PATH.fullmatch(reverse("flashboard", args=[flash.token])) is None


def test_the_application_a_server_runs_is_wrapped():
    from beano.wsgi import application

    assert isinstance(application, UnchangedPolls)
    assert isinstance(application.app, WSGIHandler)


def test_an_unchanged_poll_is_answered_without_django_and_with_its_headers(
    served, board, draw_game, ball_call
):
    etag = _etag(served, board)
    by_django = send(served.app, board, HTTP_IF_NONE_MATCH=etag)  # learnt from this one
    assert by_django.status == 304 and served.django.calls == 2
    with CaptureQueriesContext(connection) as poll:
        answered = send(served.app, board, HTTP_IF_NONE_MATCH=etag)
    assert answered.status == 304 and answered.content == b""
    assert served.django.calls == 2 and len(poll.captured_queries) == 0
    assert answered.headers["ETag"] == etag
    assert "no-cache" in answered.headers["Cache-Control"]
    mine = {k: v for k, v in answered.headers.items() if k not in ("Date",)}
    django = {k: v for k, v in by_django.headers.items() if k not in ("Date",)}
    assert mine == django
    assert "Content-Security-Policy" in mine and "X-Robots-Tag" in mine


def test_after_a_ball_the_old_tag_goes_on_to_django_and_gets_the_board(
    served, board, tenant, draw_game, ball_call
):
    etag = _etag(served, board)
    send(served.app, board, HTTP_IF_NONE_MATCH=etag)
    assert send(served.app, board, HTTP_IF_NONE_MATCH=etag).status == 304
    calls = served.django.calls
    services.record_ball_call(game=draw_game, number=7, by=tenant.worker)
    changed = send(served.app, board, HTTP_IF_NONE_MATCH=etag)
    assert changed.status == 200 and changed.headers["ETag"] != etag
    assert ">B7<" in changed.content.decode() and served.django.calls == calls + 1
    # The new tag is answered without Django again: that 200's poll kept the cache's answer.
    assert send(served.app, board, HTTP_IF_NONE_MATCH=changed.headers["ETag"]).status == 304
    assert served.django.calls == calls + 1


def test_a_link_turned_off_is_404_at_once(served, board, flash, tenant):
    etag = _etag(served, board)
    send(served.app, board, HTTP_IF_NONE_MATCH=etag)
    assert send(served.app, board, HTTP_IF_NONE_MATCH=etag).status == 304
    services.revoke_flashboard_link(occasion=flash.occasion, by=tenant.member_in_charge)
    assert send(served.app, board, HTTP_IF_NONE_MATCH=etag).status == 404


@pytest.mark.parametrize(
    "change",
    [
        {"method": "POST"},
        {"method": "HEAD"},
        {"QUERY_STRING": "x=1"},
        {"HTTP_HOST": "evil.example"},
        {"HTTP_IF_NONE_MATCH": '"an-old-one"'},
        {"HTTP_IF_NONE_MATCH": "W/{etag}"},
        {"HTTP_IF_NONE_MATCH": '{etag}, "another"'},
        {"path": "/flash/{token}/"},
        {"path": "/flash/{token}/board/x/"},
    ],
    ids=[
        "post",
        "head",
        "query",
        "host",
        "another-tag",
        "weak-tag",
        "two-tags",
        "page",
        "longer-path",
    ],
)
def test_what_is_not_plainly_an_unchanged_poll_goes_on_to_django(
    served, board, flash, draw_game, ball_call, change
):
    etag = _etag(served, board)
    send(served.app, board, HTTP_IF_NONE_MATCH=etag)
    assert send(served.app, board, HTTP_IF_NONE_MATCH=etag).status == 304  # learnt, answered
    calls = served.django.calls
    extra = {"HTTP_IF_NONE_MATCH": etag}
    for name, value in change.items():
        extra[name] = value.format(etag=etag, token=flash.token)
    method, path = extra.pop("method", "GET"), extra.pop("path", board)
    answered = send(served.app, path, method=method, **extra)
    assert served.django.calls == calls + 1
    if "HTTP_HOST" in change:
        assert answered.status == 400  # Django refuses the host
    if change.get("method") == "POST":
        assert answered.status == 403  # Django's CSRF check
    if change.get("method") == "HEAD":
        assert answered.status == 405  # the poll's view answers GET alone
    if "QUERY_STRING" in change:
        assert answered.status == 304  # Django's own answer, all the same


def test_without_the_cache_the_poll_goes_on_to_django(
    served, board, draw_game, ball_call, monkeypatch
):
    from django.core.cache import cache

    etag = _etag(served, board)
    send(served.app, board, HTTP_IF_NONE_MATCH=etag)
    calls = served.django.calls

    def unreachable(*args, **kwargs):
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(cache, "get_many", unreachable)
    monkeypatch.setattr(cache, "get", unreachable)
    monkeypatch.setattr(cache, "set", unreachable)
    answered = send(served.app, board, HTTP_IF_NONE_MATCH=etag)
    assert served.django.calls == calls + 1 and answered.status == 304  # the database's proof


@override_settings(
    SECURE_SSL_REDIRECT=True,
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
    SECURE_HSTS_SECONDS=3600,
)
def test_secure_and_plain_polls_are_learnt_apart_and_plain_http_is_redirected(
    board, draw_game, ball_call
):
    served = SimpleNamespace(django=Counted())  # its middlewares read the settings above
    served.app = UnchangedPolls(served.django)
    tls = {"HTTP_X_FORWARDED_PROTO": "https"}
    etag = send(served.app, board, **tls).headers["ETag"]
    send(served.app, board, HTTP_IF_NONE_MATCH=etag, **tls)
    calls = served.django.calls
    answered = send(served.app, board, HTTP_IF_NONE_MATCH=etag, **tls)
    assert answered.status == 304 and served.django.calls == calls
    assert answered.headers["Strict-Transport-Security"].startswith("max-age=3600")
    for _ in range(2):  # plain HTTP: Django redirects it, every time
        plain = send(served.app, board, HTTP_IF_NONE_MATCH=etag)
        assert plain.status == 301 and plain.headers["Location"].startswith("https://")
    assert served.django.calls == calls + 2 and False not in served.app.headers


@pytest.mark.skipif(
    settings.CACHES["default"]["BACKEND"].endswith("LocMemCache"),
    reason="CACHE_URL=locmem:// keeps the cache inside each process, as it says",
)
def test_a_change_another_process_records_ends_this_ones_answers(
    served, board, flash, draw_game, ball_call
):
    """What the layer keeps in its process is Django's headers alone: whether the board
    changed is read from the cache every process shares."""
    from tests.test_shared_state import in_another_process

    etag = _etag(served, board)
    send(served.app, board, HTTP_IF_NONE_MATCH=etag)
    assert send(served.app, board, HTTP_IF_NONE_MATCH=etag).status == 304
    calls = served.django.calls
    in_another_process(f"from occasions import live\nlive._bump({flash.occasion_id})\n")
    send(served.app, board, HTTP_IF_NONE_MATCH=etag)
    assert served.django.calls == calls + 1  # the version moved: Django reads the board again

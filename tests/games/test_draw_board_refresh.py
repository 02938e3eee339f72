"""The caller's console refreshes the board, the last ball and the calls from the copy every live
page of the night reads (``games.board_cache``), the flashboard's too: a fixed and small number
of queries however many balls are called, nothing at all while the board is the one shown, the
new ball after a call (whoever read the board first), 404 for another organization's game, and
read-only to an inspector."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import board_cache, draw_services
from games.models import BallCall
from organizations.models import AuditEvent
from tests.conftest import login, totp_device
from tests.games.test_draw_queries import _called_before

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_X_BEANO_POLL": "1"}


def _url(game, since: object = None) -> str:
    url = reverse(
        "draw_board",
        kwargs={
            "org_id": game.occasion.organization_id,
            "pk": game.occasion_id,
            "game_pk": game.pk,
        },
    )
    return url if since is None else f"{url}?since={since}"


@pytest.fixture
def caller(client, tenant):
    totp_device(tenant.worker)
    login(client, tenant.worker)
    return client


def _refresh(client, game, since: object = None):
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(_url(game, since), **HTMX)
    return response, [q["sql"] for q in queries.captured_queries]


def _version(game) -> int:
    kept = board_cache.kept_board(game.occasion.organization_id, game.occasion_id, game.pk)
    assert kept is not None and kept.version is not None
    return kept.version


@pytest.mark.parametrize("called", [5, 50])
def test_the_refresh_reads_the_kept_board_in_one_query(caller, draw_game, called):
    _called_before(draw_game, called)
    _refresh(caller, draw_game)  # the first reader after a change reads and keeps the board
    response, queries = _refresh(caller, draw_game)
    assert response.status_code == 200
    # The user with their roles here, and nothing of the game or its calls.
    assert len(queries) == 1, queries
    assert not any("games_ballcall" in q or "games_game" in q for q in queries)
    assert f"{min(called, 70)} called" in response.content.decode()


def test_nothing_is_sent_while_the_board_is_the_one_shown(caller, draw_game):
    _called_before(draw_game, 5)
    _refresh(caller, draw_game)  # the session's first request notes its activity
    response, queries = _refresh(caller, draw_game, since=_version(draw_game))
    assert response.status_code == 204 and response.content == b""
    assert len(queries) == 1


def test_after_a_call_the_refresh_shows_the_new_ball(caller, draw_game, tenant):
    _called_before(draw_game, 5)
    shown = _version(draw_game)
    url = reverse("draw_call", args=[tenant.organization.pk, draw_game.occasion_id, draw_game.pk])
    caller.post(url, {"ball": "75", "request_key": str(uuid.uuid4())}, HTTP_HX_REQUEST="true")
    response, queries = _refresh(caller, draw_game, since=shown)
    page = response.content.decode()
    assert response.status_code == 200
    # The board changed: read again once (the game, its calls), then kept for every page.
    assert len(queries) == 3 and any("games_ballcall" in q for q in queries)
    assert 'id="draw-ball-75" class="draw-ball is-called is-last"' in page
    assert "6 called" in page and 'id="draw-calls-body" hx-swap-oob="true"' in page
    assert f"since={_version(draw_game)}" in page  # the next poll asks from the new version
    assert _refresh(caller, draw_game, since=_version(draw_game))[0].status_code == 204


def test_the_flashboard_and_the_console_read_one_copy(client, caller, draw_game, tenant):
    _called_before(draw_game, 5)
    flash = draw_services.issue_flashboard_link(occasion=draw_game.occasion, by=tenant.head)
    _refresh(caller, draw_game)  # the console reads the board first and keeps it
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        board = client.get(reverse("flashboard_board", args=[flash.token]))
    assert board.status_code == 200 and "5 called" in board.content.decode()
    # The ETag's fingerprint joins the calls; the board itself is not read again.
    assert not any('FROM "games_ballcall"' in q["sql"] for q in queries.captured_queries)


def test_another_organizations_game_is_a_404(client, other_tenant, draw_game):
    _called_before(draw_game, 5)
    board_cache.kept_board(draw_game.occasion.organization_id, draw_game.occasion_id, draw_game.pk)
    login(client, other_tenant.worker)
    assert client.get(_url(draw_game), **HTMX).status_code == 404
    other = other_tenant.organization.pk
    url = reverse("draw_board", args=[other, draw_game.occasion_id, draw_game.pk])
    assert client.get(url, **HTMX).status_code == 404


def test_an_inspector_reads_it_and_writes_nothing(client, inspector, draw_game):
    _called_before(draw_game, 5)
    login(client, inspector)
    before = (BallCall.objects.count(), AuditEvent.objects.count())
    response = client.get(_url(draw_game), **HTMX)
    assert response.status_code == 200
    assert 'name="ball"' not in response.content.decode()  # the board, not buttons to call
    assert client.post(_url(draw_game), {}, **HTMX).status_code in (403, 405)
    assert (BallCall.objects.count(), AuditEvent.objects.count()) == before


def test_the_console_page_polls_its_refresh(caller, draw_game):
    _called_before(draw_game, 5)
    url = reverse(
        "draw_console",
        args=[draw_game.occasion.organization_id, draw_game.occasion_id, draw_game.pk],
    )
    page = caller.get(url).content.decode()
    assert f'hx-get="{_url(draw_game, _version(draw_game))}"' in page
    assert "X-Beano-Poll" in page

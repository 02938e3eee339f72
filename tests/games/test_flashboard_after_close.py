"""A closed night's flashboard (issue 39, item 5): the projector shows the final board and
"This night is over" instead of an error page, for ``SHOWN_AFTER_CLOSE`` (two hours) after the
close; then the link answers 404 as a link turned off does, through Django and through the WSGI
layer that answers the unchanged polls (its proof ends with the window, not ten minutes later).
A night closed after the fact, its close long past, shows nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games import draw_services as services
from games import program_services
from games.draw_selectors import SHOWN_AFTER_CLOSE
from games.flash_wsgi import UnchangedPolls
from occasions import floor_services
from tests.conftest import login
from tests.games.test_flash_wsgi import Counted, send

OVER = "This night is over"


@pytest.fixture
def flash(tenant, open_occasion):
    return services.issue_flashboard_link(occasion=open_occasion, by=tenant.member_in_charge)


@pytest.fixture
def closed(tenant, flash, draw_game, ball_call):
    """Game 1 played (N42 called), finished, and the night closed at 11 PM."""
    program_services.finish_game(game=draw_game, by=tenant.member_in_charge)
    floor_services.close_occasion(occasion=flash.occasion, by=tenant.member_in_charge)
    flash.occasion.refresh_from_db()
    return flash


def _page(flash):
    return reverse("flashboard", args=[flash.token])


def _board(flash):
    return reverse("flashboard_board", args=[flash.token])


def _later(monkeypatch, occasion, after: dt.timedelta) -> None:
    moment = occasion.closed_at + after
    monkeypatch.setattr(timezone, "now", lambda: moment)


def test_the_closed_nights_link_shows_the_final_board_and_says_the_night_is_over(client, closed):
    page = client.get(_page(closed))
    assert page.status_code == 200
    text = page.content.decode()
    assert f'<span class="flash-ended" role="status">{OVER}</span>' in text
    assert "Game 1" in text and "final board" in text
    assert '<span role="cell" class="flash-ball is-called is-last">42</span>' in text
    board = client.get(_board(closed))
    assert board.status_code == 200 and OVER in board.content.decode()


def test_the_close_changes_the_tag_so_a_screen_polling_shows_it_at_once(
    client, tenant, flash, draw_game, ball_call
):
    before = client.get(_board(flash))["ETag"]
    program_services.finish_game(game=draw_game, by=tenant.member_in_charge)
    finished = client.get(_board(flash), HTTP_IF_NONE_MATCH=before)
    assert finished.status_code == 200 and OVER not in finished.content.decode()
    floor_services.close_occasion(occasion=flash.occasion, by=tenant.member_in_charge)
    over = client.get(_board(flash), HTTP_IF_NONE_MATCH=finished["ETag"])
    assert over.status_code == 200 and OVER in over.content.decode()
    assert over["ETag"] not in (before, finished["ETag"])
    # Then the screen's polls are unchanged ones again.
    assert client.get(_board(flash), HTTP_IF_NONE_MATCH=over["ETag"]).status_code == 304


def test_a_night_closed_with_no_game_played_says_so(client, tenant, flash):
    floor_services.close_occasion(occasion=flash.occasion, by=tenant.member_in_charge)
    text = client.get(_page(flash)).content.decode()
    assert "This night is over. Thank you for playing." in text
    assert "Waiting for the first game" not in text


def test_after_the_window_the_link_answers_404_even_to_a_kept_tag(client, closed, monkeypatch):
    etag = client.get(_board(closed))["ETag"]
    _later(monkeypatch, closed.occasion, SHOWN_AFTER_CLOSE - dt.timedelta(minutes=1))
    assert client.get(_board(closed), HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(_page(closed)).status_code == 200
    _later(monkeypatch, closed.occasion, SHOWN_AFTER_CLOSE)
    assert client.get(_board(closed), HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert client.get(_board(closed)).status_code == 404
    assert client.get(_page(closed)).status_code == 404


def test_the_wsgi_layer_keeps_the_same_proof_and_ends_with_the_window(closed, monkeypatch):
    django = Counted()
    app = UnchangedPolls(django)
    board = _board(closed)
    first = send(app, board)
    assert first.status == 200 and OVER in first.content.decode()
    etag = first.headers["ETag"]
    assert send(app, board, HTTP_IF_NONE_MATCH=etag).status == 304  # Django's, learnt
    calls = django.calls
    assert send(app, board, HTTP_IF_NONE_MATCH=etag).status == 304
    assert django.calls == calls  # answered before Django: the final board is unchanged
    _later(monkeypatch, closed.occasion, SHOWN_AFTER_CLOSE + dt.timedelta(seconds=1))
    gone = send(app, board, HTTP_IF_NONE_MATCH=etag)
    assert gone.status == 404 and django.calls == calls + 1  # left to Django, which says 404


def test_a_turned_off_link_stops_the_final_board_at_once(client, tenant, closed):
    etag = client.get(_board(closed))["ETag"]
    services.revoke_flashboard_link(occasion=closed.occasion, by=tenant.member_in_charge)
    assert client.get(_board(closed), HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_night_closed_after_the_fact_shows_nothing(client, tenant, flash, monkeypatch):
    """Closed three days later at the time the night ended: its window is long past."""
    occasion = flash.occasion
    later = timezone.make_aware(
        dt.datetime.combine(occasion.date + dt.timedelta(days=3), dt.time(9, 0))
    )
    monkeypatch.setattr(timezone, "now", lambda: later)
    ended = timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(22, 30)))
    floor_services.close_occasion(
        occasion=occasion, by=tenant.member_in_charge, at=ended, late_reason="Forgotten"
    )
    assert client.get(_board(flash)).status_code == 404
    assert client.get(_page(flash)).status_code == 404


def test_the_occasion_page_says_how_long_the_final_board_is_shown(
    client, tenant, closed, monkeypatch
):
    login(client, tenant.member_in_charge)
    occasion = closed.occasion
    detail = reverse("occasion_detail", args=[tenant.organization.pk, occasion.pk])
    page = client.get(detail).content.decode()
    link = f"http://testserver{_page(closed)}"
    assert f'href="{link}"' in page and "until 1:00 AM, then the link stops" in page
    assert "Turn off now" in page and "Make the flashboard link" not in page
    _later(monkeypatch, occasion, SHOWN_AFTER_CLOSE)
    page = client.get(detail).content.decode()
    assert "the link stopped" in page and "for 2 hours after its close" in page
    assert link not in page and "Turn off now" not in page

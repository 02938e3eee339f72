"""The public flashboard (961 CMR 3.04(3)(b), (6)(a)): the balls called, large, on the hall's
screen at a link only its token opens. A wrong, replaced or turned-off token is a 404; the page
shows the game, its prizes and its balls and nothing else; the poll answers 304 while nothing
changed, from the cache without a query, and the same number of queries at 1 and at 75 balls."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import draw_services as services
from games import program_services
from games.models import BallCall, Flashboard, Game
from occasions import live
from organizations.models import AuditEvent
from tests.conftest import login


@pytest.fixture
def flash(tenant, open_occasion):
    return services.issue_flashboard_link(occasion=open_occasion, by=tenant.member_in_charge)


def _page(flash):
    return reverse("flashboard", args=[flash.token])


def _board(flash):
    return reverse("flashboard_board", args=[flash.token])


def _bulk_calls(game, numbers, start_sequence: int = 1) -> None:
    base = timezone.make_aware(dt.datetime.combine(game.occasion.date, dt.time(18, 56)))
    BallCall.objects.bulk_create(
        BallCall(game=game, sequence=start_sequence + i, number=n, called_at=base)
        for i, n in enumerate(numbers)
    )


def test_the_token_is_long_and_unguessable(flash, tenant, open_occasion):
    assert len(flash.token) >= 32
    other = services.issue_flashboard_link(occasion=open_occasion, by=tenant.head)
    assert other.pk == flash.pk and other.token != flash.token


def test_anyone_with_the_link_sees_the_board_without_logging_in(
    client, flash, tenant, draw_game, ball_call
):
    response = client.get(_page(flash))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Game 1" in page and "Any single line" in page and "$50" in page
    assert 'class="flash-last"' in page and ">N42<" in page
    assert page.count('class="flash-ball') == 75 and page.count("is-called") == 1
    assert '<span role="cell" class="flash-ball is-called is-last">42</span>' in page
    assert 'hx-trigger="every 1s"' in page and _board(flash) in page
    assert "no-cache" in response["Cache-Control"]


def test_it_exposes_nothing_but_the_game_and_its_balls(client, flash, tenant, ball_call):
    page = client.get(_page(flash)).content.decode()
    for secret in (
        tenant.worker.username,
        tenant.member_in_charge.username,
        "/org/",
        "csrf",
        "BN-",
        "Log out",
        "1 Main Street",
    ):
        assert secret not in page
    # The token opens the board and its poll, nothing else.
    assert client.get(f"/flash/{flash.token}/calls/").status_code == 404
    assert (
        client.get(
            reverse("occasion_detail", args=[tenant.organization.pk, flash.occasion_id])
        ).status_code
        == 302
    )


def test_a_wrong_token_is_404(client, flash):
    for token in ("nope", flash.token[:-1], flash.token.upper(), "x" * 300):
        assert client.get(reverse("flashboard", args=[token])).status_code == 404
        assert client.get(reverse("flashboard_board", args=[token])).status_code == 404


def test_a_new_link_ends_the_old_one_and_turning_it_off_ends_both(client, flash, tenant):
    old = flash.token
    new = services.issue_flashboard_link(occasion=flash.occasion, by=tenant.member_in_charge)
    assert client.get(reverse("flashboard", args=[old])).status_code == 404
    assert client.get(_page(new)).status_code == 200
    services.revoke_flashboard_link(occasion=flash.occasion, by=tenant.member_in_charge)
    assert client.get(_page(new)).status_code == 404
    assert client.get(_board(new)).status_code == 404
    actions = list(
        AuditEvent.objects.filter(action__startswith="games.flashboard").values_list(
            "action", "new_values"
        )
    )
    assert [a for a, _ in actions] == [
        "games.flashboard.link_made",
        "games.flashboard.link_replaced",
        "games.flashboard.link_revoked",
    ]
    assert all(old not in str(v) and new.token not in str(v) for _, v in actions)  # masked


def test_before_any_game_it_waits(client, flash):
    assert "Waiting for the first game" in client.get(_board(flash)).content.decode()


def test_the_poll_answers_304_while_nothing_changes_and_200_after_a_call(
    client, flash, tenant, draw_game, ball_call
):
    first = client.get(_board(flash))
    assert first.status_code == 200 and "no-cache" in first["Cache-Control"]
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as poll:
        unchanged = client.get(_board(flash), HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == etag and "no-cache" in unchanged["Cache-Control"]
    assert len(poll.captured_queries) == 0  # the cache's answer
    services.record_ball_call(game=draw_game, number=7, by=tenant.worker)
    changed = client.get(_board(flash), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert ">B7<" in changed.content.decode()


def test_a_correction_and_the_end_of_the_game_change_the_etag(
    client, flash, tenant, draw_game, ball_call
):
    etags = [client.get(_board(flash))["ETag"]]
    services.correct_ball_call(call=ball_call, reason="mis-keyed", by=tenant.worker)
    etags.append(client.get(_board(flash))["ETag"])
    program_services.finish_game(game=draw_game, by=tenant.member_in_charge)
    response = client.get(_board(flash), HTTP_IF_NONE_MATCH=etags[-1])
    assert response.status_code == 200 and "flash-over" in response.content.decode()
    etags.append(response["ETag"])
    assert len(set(etags)) == 3
    assert "is-called" not in response.content.decode()  # the voided N42 is not lit


def test_the_next_game_in_play_takes_the_screen(client, flash, tenant, draw_game, ball_call):
    from tests.fixtures.games import start_game_for_tests

    Game.objects.filter(pk=draw_game.pk).update(status=Game.Status.FINISHED)
    second = Game.objects.create(occasion=draw_game.occasion, number=2, half=1, kind="special")
    start_game_for_tests(second, timezone.now())
    page = client.get(_board(flash)).content.decode()
    assert "Game 2" in page and "is-called" not in page


def test_the_board_runs_the_same_queries_at_1_and_at_75_balls(client, flash, draw_game):
    client.get(_board(flash))  # the token's occasion is known from now on
    _bulk_calls(draw_game, [1])
    live.changed(draw_game.occasion_id)  # written directly: say so, as the services do
    with CaptureQueriesContext(connection) as one:
        client.get(_board(flash))
    _bulk_calls(draw_game, range(2, 76), start_sequence=2)
    live.changed(draw_game.occasion_id)
    with CaptureQueriesContext(connection) as all_75:
        page = client.get(_board(flash)).content.decode()
    assert page.count("is-called") == 75
    assert len(one.captured_queries) == len(all_75.captured_queries)
    with CaptureQueriesContext(connection) as page_75:
        client.get(_page(flash))
    assert len(page_75.captured_queries) == len(all_75.captured_queries)


# The link from the occasion page


def test_the_member_in_charge_makes_the_link_from_the_occasion_page(client, tenant, open_occasion):
    login(client, tenant.member_in_charge)
    detail = reverse("occasion_detail", args=[tenant.organization.pk, open_occasion.pk])
    assert "Make the flashboard link" in client.get(detail).content.decode()
    link = reverse("flashboard_link", args=[tenant.organization.pk, open_occasion.pk])
    response = client.post(link, {"action": "new"}, follow=True)
    board = Flashboard.objects.get(occasion=open_occasion)
    page = response.content.decode()
    assert "Open the flashboard" in page and 'target="_blank"' in page
    assert f"http://testserver/flash/{board.token}/" in page
    client.post(link, {"action": "new"})
    assert Flashboard.objects.get(occasion=open_occasion).token != board.token
    client.post(link, {"action": "off"})
    assert Flashboard.objects.get(occasion=open_occasion).revoked_at is not None
    assert "Make the flashboard link" in client.get(detail).content.decode()


def test_a_worker_opens_the_board_but_cannot_change_the_link(client, tenant, flash):
    login(client, tenant.worker)
    detail = reverse("occasion_detail", args=[tenant.organization.pk, flash.occasion_id])
    page = client.get(detail).content.decode()
    assert "Open the flashboard" in page and "New link" not in page
    link = reverse("flashboard_link", args=[tenant.organization.pk, flash.occasion_id])
    assert client.post(link, {"action": "off"}).status_code == 403
    assert Flashboard.objects.get().revoked_at is None


@pytest.mark.parametrize("action", ["new", "off"])
def test_a_sealed_occasions_link_is_refused_with_a_message_not_an_error(
    client, tenant, flash, action
):
    """A page left open while the bookkeeper filed the report (or a replayed form) asks for a
    new link, or to turn it off, on a sealed occasion: the service refuses, and the page says
    why instead of answering 500."""
    occasion = flash.occasion
    type(occasion).objects.filter(pk=occasion.pk).update(sealed_at=timezone.now())
    login(client, tenant.member_in_charge)
    link = reverse("flashboard_link", args=[tenant.organization.pk, occasion.pk])
    client.raise_request_exception = False
    response = client.post(link, {"action": action}, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse(
        "occasion_detail", args=[tenant.organization.pk, occasion.pk]
    )
    assert "is filed and the occasion is sealed" in response.content.decode()
    board = Flashboard.objects.get(occasion=occasion)
    assert board.token == flash.token and board.revoked_at is None


# The poll's answer kept in the cache


def test_a_link_turned_off_stops_the_poll_at_once(client, flash, tenant):
    etag = client.get(_board(flash))["ETag"]
    assert client.get(_board(flash), HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.revoke_flashboard_link(occasion=flash.occasion, by=tenant.member_in_charge)
    assert client.get(_board(flash), HTTP_IF_NONE_MATCH=etag).status_code == 404
    new = services.issue_flashboard_link(occasion=flash.occasion, by=tenant.member_in_charge)
    assert client.get(_board(new)).status_code == 200
    assert client.get(_board(flash)).status_code == 404  # the old token is gone for good


def test_a_second_screen_gets_the_board_while_the_first_gets_304(
    client, flash, tenant, draw_game, ball_call
):
    etag = client.get(_board(flash))["ETag"]
    assert client.get(_board(flash), HTTP_IF_NONE_MATCH=etag).status_code == 304
    other = client.get(_board(flash), HTTP_IF_NONE_MATCH='"an-old-one"')
    assert other.status_code == 200 and other["ETag"] == etag and ">N42<" in other.content.decode()


def test_an_unchanged_poll_reads_the_cache_once_and_no_table(
    client, flash, draw_game, ball_call, monkeypatch
):
    """The tag the poll sends back names the occasion: the kept answer and the occasion's
    version are read in one round trip."""
    from django.core.cache import cache

    etag = client.get(_board(flash))["ETag"]
    assert client.get(_board(flash), HTTP_IF_NONE_MATCH=etag).status_code == 304
    reads, inside = [], []  # the cache reads asked for (a backend may make get_many of gets)
    real_get, real_get_many = cache.get, cache.get_many

    def get(*args, **kwargs):
        reads.extend([] if inside else ["get"])
        return real_get(*args, **kwargs)

    def get_many(*args, **kwargs):
        reads.append("get_many")
        inside.append(True)
        try:
            return real_get_many(*args, **kwargs)
        finally:
            inside.pop()

    monkeypatch.setattr(cache, "get", get)
    monkeypatch.setattr(cache, "get_many", get_many)
    with CaptureQueriesContext(connection) as poll:
        unchanged = client.get(_board(flash), HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged["ETag"] == etag
    assert reads == ["get_many"] and len(poll.captured_queries) == 0


def test_the_poll_is_matched_before_the_signed_in_pages_patterns_are_tried():
    from django.urls import resolve

    match = resolve("/flash/some-token/board/")
    assert match.url_name == "flashboard_board" and match.kwargs == {"token": "some-token"}
    assert len(match.tried) <= 2  # the page's pattern, then the poll's


def test_a_tag_naming_another_occasion_never_keeps_an_old_board(
    client, flash, tenant, draw_game, ball_call
):
    """The occasion a tag names is the client's word: a version read for it counts only when the
    answer kept under the token is of that occasion. Here the poll sends two tags, the first
    naming another occasion whose version equals the one the old answer was kept at, the second
    the board's own old tag: the new ball is shown all the same."""
    from django.core.cache import cache

    etag = client.get(_board(flash))["ETag"]
    assert client.get(_board(flash), HTTP_IF_NONE_MATCH=etag).status_code == 304
    kept_at = live.version(flash.occasion_id)
    services.record_ball_call(game=draw_game, number=7, by=tenant.worker)
    other = flash.occasion_id + 1000
    cache.set(live.version_key(other), kept_at)
    forged = etag.replace(f'"{flash.occasion_id}-', f'"{other}-', 1)
    assert forged != etag
    response = client.get(_board(flash), HTTP_IF_NONE_MATCH=f"{forged}, {etag}")
    assert response.status_code == 200 and ">B7<" in response.content.decode()
    assert response["ETag"] != etag


def test_the_version_moves_at_once_and_again_when_the_transaction_commits(
    flash, django_capture_on_commit_callbacks
):
    first = live.version(flash.occasion_id)
    assert first is not None and live.version(flash.occasion_id) == first
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        live.changed(flash.occasion_id)
        assert live.version(flash.occasion_id) == first + 1
    assert len(callbacks) == 1 and live.version(flash.occasion_id) == first + 2


def test_a_poll_that_read_before_the_commit_does_not_keep_its_answer(
    client, flash, tenant, draw_game, ball_call, django_capture_on_commit_callbacks
):
    """A ball is recorded while a poll reads the board: the poll's answer (made before the
    commit) must not stand after it."""
    etag = client.get(_board(flash))["ETag"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.record_ball_call(game=draw_game, number=7, by=tenant.worker)
    # A poll between the service's first move and its commit keeps an answer under that version
    # (here it sees the new ball already; in a real race it may not).
    client.get(_board(flash), HTTP_IF_NONE_MATCH=etag)
    kept = live.version(flash.occasion_id)
    for callback in callbacks:
        callback()
    assert live.version(flash.occasion_id) == kept + 1  # the commit moved past it


def test_without_the_cache_the_poll_reads_the_database(
    client, flash, tenant, draw_game, ball_call, monkeypatch
):
    from django.core.cache import cache

    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    for method in ("get", "get_many", "set", "add", "incr"):
        monkeypatch.setattr(cache, method, down)
    first = client.get(_board(flash))
    assert first.status_code == 200 and ">N42<" in first.content.decode()
    etag = first["ETag"]
    assert client.get(_board(flash), HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.record_ball_call(game=draw_game, number=7, by=tenant.worker)
    changed = client.get(_board(flash), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and ">B7<" in changed.content.decode()

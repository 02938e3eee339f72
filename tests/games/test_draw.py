"""The draw (961 CMR 3.04(6)(a)): each ball as the caller calls it, in order and with its time;
never twice in a game; a mis-keyed entry voided with its reason and kept; the caller's console
(typed or tapped, refusals with their citation, nothing saved, never a 500) in a constant number
of queries from the first ball to the 75th."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from beano.rules import RuleViolation
from beano.rules.models import RefusedAction
from games import draw_selectors as selectors
from games import draw_services as services
from games.models import BallCall, Game
from occasions.models import FloorSubmission, Occasion
from organizations.models import AuditEvent
from tests.conftest import login
from tests.fixtures.games import start_game_for_tests

CITATION = "961 CMR 3.04(6)(a)"
HTMX = {"HTTP_HX_REQUEST": "true"}
KEY = "0b7e5d2c-3f41-4a8e-9c6d-1e2f3a4b5c6d"


def at(occasion, hour: int, minute: int, second: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(hour, minute, second)))


def _state():
    return BallCall.objects.count(), AuditEvent.objects.count()


def _bulk_calls(game, numbers, start_sequence: int = 1) -> None:
    base = at(game.occasion, 18, 56)
    BallCall.objects.bulk_create(
        BallCall(
            game=game,
            sequence=start_sequence + i,
            number=n,
            called_at=base + dt.timedelta(seconds=i),
        )
        for i, n in enumerate(numbers)
    )


def _url(name, game, **extra):
    return reverse(
        name,
        kwargs={"org_id": game.occasion.organization_id, "pk": game.occasion_id, "game_pk": game.pk}
        | extra,
    )


# The services


def test_calls_are_recorded_in_order_with_their_times_and_audited(tenant, draw_game):
    occasion = draw_game.occasion
    for number, minute in ((42, 56), (7, 57), (68, 58)):
        services.record_ball_call(
            game=draw_game, number=number, by=tenant.worker, at=at(occasion, 18, minute)
        )
    calls = list(selectors.calls_that_count(draw_game))
    assert [(c.sequence, c.number, c.called_at) for c in calls] == [
        (1, 42, at(occasion, 18, 56)),
        (2, 7, at(occasion, 18, 57)),
        (3, 68, at(occasion, 18, 58)),
    ]
    assert all(c.called_by == tenant.worker for c in calls)
    event = AuditEvent.objects.filter(action="games.ball.called").last()
    assert event.new_values["ball"] == "O68" and event.new_values["sequence"] == 3
    assert event.actor == tenant.worker


def test_without_a_time_the_call_is_now(tenant, draw_game):
    call = services.record_ball_call(game=draw_game, number="N42", by=tenant.worker)
    assert call.called_at == timezone.now() and call.number == 42


@pytest.mark.parametrize("entry", [42, "42", "N42", " n 42 ", "N 42", "N-42"])
def test_a_ball_is_entered_by_its_number_or_letter_and_number(tenant, draw_game, entry):
    assert services.record_ball_call(game=draw_game, number=entry, by=tenant.worker).number == 42


def test_a_ball_called_twice_is_refused_with_its_citation_and_nothing_is_saved(
    tenant, draw_game, ball_call
):
    before = _state()
    with pytest.raises(RuleViolation) as refused:
        services.record_ball_call(game=draw_game, number="N42", by=tenant.member_in_charge)
    assert refused.value.citations == [CITATION]
    assert refused.value.messages[0].startswith(f"{CITATION}: N42 was already called")
    assert _state() == before
    logged = RefusedAction.objects.get(action="ball.call")
    assert logged.citations == CITATION and logged.user == tenant.member_in_charge


@pytest.mark.parametrize(
    "entry,code", [(0, "D-6A-ONE-OF-75"), ("76", "D-6A-ONE-OF-75"), ("B42", "D-6A-LETTER-MATCHES")]
)
def test_a_number_that_is_no_ball_is_refused(tenant, draw_game, entry, code):
    with pytest.raises(RuleViolation) as refused:
        services.record_ball_call(game=draw_game, number=entry, by=tenant.worker)
    assert [v.code for v in refused.value.violations] == [code]
    assert BallCall.objects.count() == 0


@pytest.mark.parametrize("entry", ["", "abc", "N", "4 2", "-3", "1234", None, 4.2, True])
def test_an_entry_that_is_not_a_ball_is_a_plain_error(tenant, draw_game, entry):
    with pytest.raises(ValidationError) as error:
        services.record_ball_call(game=draw_game, number=entry, by=tenant.worker)
    assert not isinstance(error.value, RuleViolation)
    assert BallCall.objects.count() == 0


def test_no_ball_is_called_in_a_game_not_begun(tenant, open_occasion):
    game = Game.objects.create(occasion=open_occasion, number=2, half=1, kind="regular")
    with pytest.raises(RuleViolation) as refused:
        services.record_ball_call(game=game, number=42, by=tenant.worker)
    assert [v.code for v in refused.value.violations] == ["D-6A-GAME-IN-PLAY"]


def test_no_ball_is_called_or_corrected_once_the_game_is_over(tenant, draw_game, ball_call):
    Game.objects.filter(pk=draw_game.pk).update(
        status=Game.Status.FINISHED, finished_at=timezone.now()
    )
    with pytest.raises(RuleViolation) as refused:
        services.record_ball_call(game=draw_game, number=7, by=tenant.worker)
    assert [v.code for v in refused.value.violations] == ["D-6A-GAME-CONCLUDED"]
    with pytest.raises(RuleViolation) as refused:
        services.correct_ball_call(call=ball_call, reason="keyed wrong", by=tenant.worker)
    assert [v.code for v in refused.value.violations] == ["D-6A-GAME-CONCLUDED"]
    ball_call.refresh_from_db()
    assert ball_call.voided_at is None


def test_a_ball_is_called_only_within_the_license_hours(tenant, draw_game, monkeypatch):
    """3.04(7) judges every act of play, not only the start of a game: a ball keyed at 11:40 AM
    (or after the close of the licensed hours) is refused, live and from paper alike."""
    draw_game.occasion.license.__class__.objects.filter(pk=draw_game.occasion.license_id).update(
        start_time=dt.time(18, 30), end_time=dt.time(22, 0)
    )
    before = _state()
    with pytest.raises(RuleViolation) as refused:
        services.record_ball_call(
            game=draw_game, number=42, by=tenant.member_in_charge, at=at(draw_game.occasion, 22, 15)
        )
    assert {v.code for v in refused.value.violations} == {"H-7-LICENSE-HOURS"}
    assert refused.value.citations == ["961 CMR 3.04(7)"]
    assert _state() == before
    assert RefusedAction.objects.get().action == "ball.call"
    call = services.record_ball_call(
        game=draw_game, number=42, by=tenant.member_in_charge, at=at(draw_game.occasion, 21, 59)
    )
    assert call.number == 42


def test_a_call_is_not_recorded_before_the_one_before_it_or_the_games_start(tenant, draw_game):
    occasion = draw_game.occasion
    services.record_ball_call(game=draw_game, number=1, by=tenant.worker, at=at(occasion, 18, 58))
    with pytest.raises(ValidationError, match="before the ball before it"):
        services.record_ball_call(
            game=draw_game, number=2, by=tenant.worker, at=at(occasion, 18, 57)
        )
    with pytest.raises(ValidationError, match="began after"):
        services.record_ball_call(
            game=draw_game, number=3, by=tenant.worker, at=at(occasion, 18, 0)
        )
    assert BallCall.objects.count() == 1


def test_a_correction_voids_the_call_keeps_it_and_frees_the_number(tenant, draw_game, ball_call):
    services.record_ball_call(game=draw_game, number=7, by=tenant.worker)
    voided = services.correct_ball_call(
        call=ball_call, reason="  keyed 42,  called 41 ", by=tenant.member_in_charge
    )
    assert voided.voided_at == timezone.now() and voided.voided_by == tenant.member_in_charge
    assert voided.void_reason == "keyed 42, called 41"
    assert BallCall.objects.filter(pk=ball_call.pk).exists()  # kept, never deleted
    assert [c.number for c in selectors.calls_that_count(draw_game)] == [7]
    again = services.record_ball_call(game=draw_game, number=42, by=tenant.worker)
    assert again.sequence == 3  # after every entry, voided ones included
    assert [c.number for c in selectors.calls_that_count(draw_game)] == [7, 42]
    event = AuditEvent.objects.get(action="games.ball.voided")
    assert event.old_values == {"voided_at": None, "void_reason": ""}
    assert event.new_values["void_reason"] == "keyed 42, called 41"


def test_a_correction_needs_its_reason_and_is_made_once(tenant, draw_game, ball_call):
    before = _state()
    with pytest.raises(RuleViolation) as refused:
        services.correct_ball_call(call=ball_call, reason="   ", by=tenant.worker)
    assert refused.value.messages == [f"{CITATION}: Say why call #1 (N42) is corrected."]
    assert _state() == before
    services.correct_ball_call(call=ball_call, reason="mis-keyed", by=tenant.worker)
    with pytest.raises(RuleViolation) as refused:
        services.correct_ball_call(call=ball_call, reason="again", by=tenant.worker)
    assert [v.code for v in refused.value.violations] == ["D-6A-CORRECTION-ONCE"]
    ball_call.refresh_from_db()
    assert ball_call.void_reason == "mis-keyed"


def test_a_reason_too_long_is_a_plain_error(tenant, ball_call):
    with pytest.raises(ValidationError, match="200 characters"):
        services.correct_ball_call(call=ball_call, reason="x" * 201, by=tenant.worker)


def test_the_databases_unique_index_backs_the_rule(tenant, draw_game, ball_call, monkeypatch):
    """Were the check under the lock ever to miss a live call, the partial unique index refuses
    the second row, and the refusal is the rule's, with its citation."""
    locked = services._locked_game_for_call

    def missing_the_call(game, number, organization, by):
        game = locked(game, number, organization, by)
        game.live_sequence = None  # the check under the lock misses the live call
        return game

    monkeypatch.setattr(services, "_locked_game_for_call", missing_the_call)
    before = _state()
    with pytest.raises(RuleViolation) as refused:
        services.record_ball_call(game=draw_game, number=42, by=tenant.worker)
    assert [v.code for v in refused.value.violations] == ["D-6A-NOT-RETURNED"]
    assert _state() == before


@pytest.mark.django_db(transaction=True)
def test_two_consoles_entering_the_same_ball_at_once_record_it_once(tenant, draw_game):
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def enter(user):
        try:
            barrier.wait(timeout=10)
            services.record_ball_call(game=draw_game, number=42, by=user)
            outcomes.append("recorded")
        except RuleViolation as refused:
            outcomes.append(refused.citations[0])
        finally:
            connection.close()

    threads = [
        threading.Thread(target=enter, args=(u,)) for u in (tenant.worker, tenant.member_in_charge)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == [CITATION, "recorded"]
    assert BallCall.objects.filter(game=draw_game, number=42).count() == 1


def test_the_board_state_in_one_query(tenant, draw_game, django_assert_num_queries):
    _bulk_calls(draw_game, [5, 20, 33])
    BallCall.objects.filter(number=20).update(voided_at=timezone.now(), void_reason="slip")
    with django_assert_num_queries(1):
        board = selectors.board_state(draw_game)
    assert board.called == {5, 33} and board.count == 2 and board.last.number == 33
    rows = dict(board.rows)
    assert [b.number for b in rows["B"]] == list(range(1, 16))
    assert [b.label for b in rows["N"] if b.called] == ["N33"]


# The caller's console


@pytest.fixture
def caller(client, tenant):
    login(client, tenant.worker)
    return client


def test_the_console_offers_the_number_box_the_board_and_the_games_prize(caller, draw_game):
    page = caller.get(_url("draw_console", draw_game)).content.decode()
    assert 'name="ball"' in page and "autofocus" in page
    assert page.count('class="draw-ball') == 75
    assert "Any single line" in page and "$50" in page
    assert "Game 1" in page and "No ball called yet" in page


def test_typing_42_and_enter_records_n42_and_answers_the_boards_delta(caller, draw_game):
    response = caller.post(_url("draw_call", draw_game), {"ball": "42"}, **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert "N42 called (#1)." in page
    assert 'id="draw-live"' not in page and "<html" not in page  # the form stays in place
    assert 'hx-swap-oob="true"' in page
    assert 'aria-pressed="true" aria-label="N42"' in page
    assert BallCall.objects.get().number == 42


def test_a_tap_on_the_board_records_the_ball(caller, draw_game):
    caller.post(_url("draw_call", draw_game), {"ball": "7"}, **HTMX)
    assert BallCall.objects.get().number == 7


def test_a_plain_post_redirects_to_the_console_with_the_ball(caller, draw_game):
    response = caller.post(_url("draw_call", draw_game), {"ball": "O75"}, follow=True)
    assert response.redirect_chain[-1][0] == _url("draw_console", draw_game)
    assert "O75 called (#1)." in response.content.decode()


def test_the_console_sends_each_ball_with_a_key_made_in_the_browser(caller, draw_game):
    page = caller.get(_url("draw_console", draw_game)).content.decode()
    assert page.count('<input type="hidden" name="request_key" value="">') == 2  # box, board
    assert page.count('data-floor-entry="draw"') == 2 and 'data-floor-unsent="draw"' in page
    assert "js/floor.js" in page


@pytest.mark.parametrize("headers", [HTMX, {}])
def test_a_ball_sent_twice_with_its_key_is_called_once_and_answered_alike(
    caller, draw_game, headers
):
    data = {"ball": "N42", "request_key": KEY}
    answers = [
        caller.post(_url("draw_call", draw_game), data, follow=True, **headers).content.decode()
        for _ in range(2)
    ]
    assert all("N42 called (#1)." in page for page in answers)
    assert BallCall.objects.filter(game=draw_game).count() == 1
    assert FloorSubmission.objects.get().action == FloorSubmission.Action.BALL_CALL


def test_a_ball_with_another_organization_or_by_an_inspector_is_not_called(
    client, other_tenant, inspector, draw_game
):
    data = {"ball": "N42", "request_key": KEY}
    login(client, other_tenant.head)
    assert client.post(_url("draw_call", draw_game), data, **HTMX).status_code == 404
    login(client, inspector)
    assert client.post(_url("draw_call", draw_game), data, **HTMX).status_code == 403
    assert not BallCall.objects.exists() and not FloorSubmission.objects.exists()


def test_a_duplicate_is_shown_with_its_citation_and_nothing_is_saved(caller, draw_game, ball_call):
    before = _state()
    for headers in (HTMX, {}):
        response = caller.post(_url("draw_call", draw_game), {"ball": "N42"}, **headers)
        assert response.status_code == 200
        page = response.content.decode()
        assert CITATION.removeprefix("961 CMR ") in page and "N42 was already called" in page
    assert _state() == before


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"ball": ""},
        {"ball": "abc"},
        {"ball": "99999999999"},
        {"ball": "-3"},
        {"ball": "N0"},
        {"ball": "G7"},
        {"ball": "76"},
        {"ball": "x" * 500},
    ],
)
def test_bad_input_is_shown_and_saves_nothing(caller, draw_game, data):
    before = _state()
    response = caller.post(_url("draw_call", draw_game), data, **HTMX)
    assert response.status_code == 200
    assert "alert-danger" in response.content.decode()
    assert _state() == before


def test_the_correction_needs_a_reason_and_then_voids_the_call(caller, draw_game, ball_call):
    url = _url("draw_correct", draw_game, call_pk=ball_call.pk)
    response = caller.post(url, {"reason": ""}, **HTMX)
    assert response.status_code == 200
    assert "Say why call #1 (N42) is corrected." in response.content.decode()
    ball_call.refresh_from_db()
    assert ball_call.voided_at is None
    response = caller.post(url, {"reason": "keyed 42, called 41"}, **HTMX)
    page = response.content.decode()
    assert "Call #1 (N42) voided" in page and "voided: keyed 42, called 41" in page
    assert "<s>N42</s>" in page
    ball_call.refresh_from_db()
    assert ball_call.void_reason == "keyed 42, called 41"


def test_a_call_of_another_game_or_a_stale_id_is_404(caller, draw_game, ball_call):
    other = start_game_for_tests(
        Game.objects.create(occasion=draw_game.occasion, number=2, half=1, kind="regular"),
        at(draw_game.occasion, 18, 58),
    )
    for game, call_pk in ((other, ball_call.pk), (draw_game, ball_call.pk + 1000)):
        url = _url("draw_correct", game, call_pk=call_pk)
        assert caller.post(url, {"reason": "x"}).status_code == 404
    assert (
        caller.get(
            _url("draw_console", draw_game).replace(
                f"/games/{draw_game.pk}/", f"/games/{draw_game.pk + 1000}/"
            )
        ).status_code
        == 404
    )


def test_the_bookkeeper_reads_the_draw_but_enters_nothing(client, tenant, draw_game):
    login(client, tenant.bookkeeper)
    page = client.get(_url("draw_console", draw_game)).content.decode()
    assert 'name="ball"' not in page and "You are reading the draw" in page
    assert client.post(_url("draw_call", draw_game), {"ball": "42"}).status_code == 403
    assert BallCall.objects.count() == 0


def test_a_game_not_begun_offers_no_entry(caller, open_occasion, draw_game):
    planned = Game.objects.create(occasion=open_occasion, number=2, half=1, kind="special")
    page = caller.get(_url("draw_console", planned)).content.decode()
    assert 'name="ball"' not in page and "Game 2 has not begun" in page
    response = caller.post(_url("draw_call", planned), {"ball": "42"}, **HTMX)
    assert "Game 2 has not begun" in response.content.decode()
    assert BallCall.objects.count() == 0


def _home(game) -> str:
    return reverse("draw_home", args=[game.occasion.organization_id, game.occasion_id])


def test_with_a_game_in_play_the_draw_opens_its_console(caller, draw_game):
    """The "Caller's console" of the dashboard and the occasion page, and the bar's Console on
    a night with a game in play, lead to that game's console, never to "Pick the game"; its
    own picker still offers every other game."""
    Game.objects.create(occasion=draw_game.occasion, number=2, half=1, kind="special")
    response = caller.get(_home(draw_game))
    assert response.status_code == 302
    assert response["Location"] == _url("draw_console", draw_game)
    page = caller.get(response["Location"]).content.decode()
    assert "in play · 0" in page and "Special" in page


def test_with_no_game_in_play_the_picker_lists_the_occasions_games(caller, draw_game):
    Game.objects.filter(pk=draw_game.pk).update(status=Game.Status.FINISHED)
    Game.objects.create(occasion=draw_game.occasion, number=2, half=1, kind="special")
    page = caller.get(_home(draw_game)).content.decode()
    assert "Pick the game" in page and _url("draw_console", draw_game) in page
    assert "over · 0" in page and "Special" in page


def test_an_inspector_is_led_to_the_game_in_play_too(client, inspector, draw_game):
    login(client, inspector)
    response = client.get(_home(draw_game))
    assert response.status_code == 302
    assert response["Location"] == _url("draw_console", draw_game)


def test_the_console_runs_the_same_queries_at_1_and_at_75_balls(caller, draw_game):
    _bulk_calls(draw_game, [1])
    caller.get(_url("draw_console", draw_game))  # warm the session
    with CaptureQueriesContext(connection) as one:
        caller.get(_url("draw_console", draw_game))
    _bulk_calls(draw_game, range(2, 76), start_sequence=2)
    with CaptureQueriesContext(connection) as all_75:
        page = caller.get(_url("draw_console", draw_game)).content.decode()
    assert page.count('aria-pressed="true"') == 75
    assert len(one.captured_queries) == len(all_75.captured_queries)


def test_no_ball_is_called_or_corrected_once_the_occasion_is_closed(tenant, draw_game, ball_call):
    Occasion.objects.filter(pk=draw_game.occasion_id).update(status="closed")
    with pytest.raises(RuleViolation) as refused:
        services.record_ball_call(game=draw_game, number=7, by=tenant.worker)
    assert "961 CMR 3.04(7)" in refused.value.citations
    with pytest.raises(RuleViolation):
        services.correct_ball_call(call=ball_call, reason="keyed wrong", by=tenant.member_in_charge)
    assert list(BallCall.objects.values_list("number", "voided_at")) == [(42, None)]


def test_the_occasion_does_not_close_with_a_game_in_play(tenant, draw_game):
    from occasions import floor_services

    with pytest.raises(ValidationError, match="Finish game 1 before closing"):
        floor_services.close_occasion(occasion=draw_game.occasion, by=tenant.member_in_charge)
    draw_game.occasion.refresh_from_db()
    assert draw_game.occasion.status == "open"


def test_a_ball_call_reads_the_figures_in_force_once_for_all_its_judgments(
    tenant, draw_game, limit_reads
):
    services.record_ball_call(game=draw_game, number="N42", by=tenant.worker)
    assert len(limit_reads) == 1

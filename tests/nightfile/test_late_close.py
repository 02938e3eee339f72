"""Closing a forgotten night on a later day, from its page: each game left in play finished at
the time it ended, then the close at the time the night ended, with the reason; for the head,
the member in charge and the bookkeeper of the organization only."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import Arrangement, BallCall, Game, PrizePart
from nightfile.late_close import close_forgotten_night, games_in_play
from occasions import floor_services as floor
from occasions.models import Occasion, WorkerPresence
from organizations.models import AuditEvent
from tests.conftest import login
from tests.fixtures.games import start_game_for_tests
from tests.occasions.conftest import NIGHT, at

THREE_DAYS_LATER = NIGHT + dt.timedelta(days=3)
REASON = "The laptop was shut with the night still open; the hall was locked at 10:30"


@pytest.fixture
def forgotten(tenant, ready, clock):
    """``ready`` opened at 6:45 PM, game 4 in play since 9 PM with two balls called (the last at
    9:05 PM), never closed; the clock reads Monday morning, three days later."""
    floor.open_occasion(occasion=ready, by=tenant.member_in_charge, at=at(18, 45))
    game = Game.objects.create(occasion=ready, number=4, half=2, kind="regular")
    PrizePart.objects.create(
        game=game,
        order=1,
        arrangement=Arrangement.objects.get(code="single_line"),
        amount=Decimal("50.00"),
        announced_at=at(20, 58),
    )
    start_game_for_tests(game, at(21, 0))
    BallCall.objects.create(game=game, sequence=1, number=12, called_at=at(21, 1))
    BallCall.objects.create(game=game, sequence=2, number=44, called_at=at(21, 5))
    clock["now"] = at(9, 14, THREE_DAYS_LATER)
    return ready


def game_4(occasion: Occasion) -> Game:
    return Game.objects.get(occasion=occasion, number=4)


def test_the_game_in_play_is_listed_with_its_last_recorded_act(forgotten):
    [row] = games_in_play(forgotten)
    assert row.game.number == 4 and row.last_act == at(21, 5)


def test_a_game_in_play_finishes_at_its_stated_time_then_the_night_closes(tenant, forgotten):
    game = game_4(forgotten)
    closed = close_forgotten_night(
        occasion=forgotten,
        ended_at=at(22, 30),
        reason=REASON,
        finishes={game.pk: at(21, 40)},
        by=tenant.member_in_charge,
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at == at(21, 40)
    assert closed.status == Occasion.Status.CLOSED and closed.closed_at == at(22, 30)
    assert closed.close_reason == REASON
    assert set(WorkerPresence.objects.values_list("signed_out_at", flat=True)) == {at(22, 30)}
    finished = AuditEvent.objects.get(action="games.game.finished")
    assert finished.new_values["finished_at"].startswith("2026-12-04T21:40")
    assert finished.provenance["closed_late"] is True
    assert finished.provenance["entered_by"] == tenant.member_in_charge.username


def test_the_report_figures_carry_the_late_close(tenant, forgotten):
    from reports.figures import compute_figures

    close_forgotten_night(
        occasion=forgotten,
        ended_at=at(22, 30),
        reason=REASON,
        finishes={game_4(forgotten).pk: at(21, 40)},
        by=tenant.member_in_charge,
    )
    forgotten.refresh_from_db()
    provenance = compute_figures(forgotten)["provenance"]
    assert provenance == {
        "from_paper": [],
        "closed_late": {
            "closed_at": "2026-12-04T22:30-05:00",
            "recorded_at": "2026-12-07T09:14-05:00",
            "recorded_by": tenant.member_in_charge.username,
            "reason": REASON,
        },
    }


def test_the_close_alone_is_refused_while_a_game_is_in_play(tenant, forgotten):
    with pytest.raises(ValidationError, match="Finish game 4 before closing the occasion"):
        floor.close_occasion(occasion=forgotten, by=tenant.head, at=at(22, 30), late_reason=REASON)


def test_each_game_in_play_needs_its_finish_time(tenant, forgotten):
    with pytest.raises(ValidationError, match="Give the time game 4 finished"):
        close_forgotten_night(
            occasion=forgotten, ended_at=at(22, 30), reason=REASON, finishes={}, by=tenant.head
        )
    assert game_4(forgotten).status == Game.Status.IN_PLAY


def test_a_game_finishes_after_its_last_ball_and_before_the_night_ended(tenant, forgotten):
    game = game_4(forgotten)
    with pytest.raises(ValidationError, match=r"Game 4 cannot finish before its last recorded"):
        close_forgotten_night(
            occasion=forgotten,
            ended_at=at(22, 30),
            reason=REASON,
            finishes={game.pk: at(21, 3)},
            by=tenant.head,
        )
    with pytest.raises(ValidationError, match="Game 4 cannot finish after the night ended"):
        close_forgotten_night(
            occasion=forgotten,
            ended_at=at(21, 30),
            reason=REASON,
            finishes={game.pk: at(21, 40)},
            by=tenant.head,
        )
    forgotten.refresh_from_db()
    assert forgotten.status == Occasion.Status.OPEN
    assert game_4(forgotten).status == Game.Status.IN_PLAY
    assert not AuditEvent.objects.filter(action="games.game.finished").exists()


def test_the_night_ends_no_earlier_than_the_games_records(tenant, forgotten):
    Game.objects.filter(pk=game_4(forgotten).pk).update(status="finished", finished_at=at(21, 40))
    with pytest.raises(ValidationError, match=r"before its last recorded act \(9:40 PM\)"):
        floor.close_occasion(occasion=forgotten, by=tenant.head, at=at(21, 30), late_reason=REASON)


def test_the_reason_is_asked_for_before_anything_is_finished(tenant, forgotten):
    with pytest.raises(ValidationError, match="Say why the close is recorded"):
        close_forgotten_night(
            occasion=forgotten,
            ended_at=at(22, 30),
            reason=" ",
            finishes={game_4(forgotten).pk: at(21, 40)},
            by=tenant.head,
        )


def test_on_its_night_the_occasion_is_closed_from_the_close_page(tenant, ready, clock):
    floor.open_occasion(occasion=ready, by=tenant.member_in_charge, at=at(18, 45))
    clock["now"] = at(22, 0)
    with pytest.raises(ValidationError, match="close it from the close page"):
        close_forgotten_night(
            occasion=ready, ended_at=at(21, 30), reason=REASON, finishes={}, by=tenant.head
        )


# The page


def url(name: str, occasion: Occasion) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk})


def post_data(occasion: Occasion, **changes: str) -> dict[str, str]:
    return {
        "ended_at": "22:30",
        "reason": REASON,
        f"game_{game_4(occasion).pk}": "21:40",
    } | changes


def test_the_close_page_sends_a_night_whose_day_has_passed_to_the_late_close(
    client, tenant, forgotten
):
    login(client, tenant.member_in_charge)
    page = client.get(url("occasion_close", forgotten)).content.decode()
    assert "The night of Friday, December 4 has passed" in page
    assert f'href="{url("occasion_close_late", forgotten)}"' in page


def test_the_late_close_page_asks_for_the_end_the_reason_and_each_game_in_play(
    client, tenant, forgotten
):
    login(client, tenant.bookkeeper)
    page = client.get(url("occasion_close_late", forgotten)).content.decode()
    assert "When the night ended" in page and "Why the close is recorded now" in page
    assert "Game 4 finished at" in page and "last recorded act 9:05 PM" in page
    assert 'placeholder="hh:mm"' in page and "e.g. 21:50 or 9:50 PM" in page
    assert 'type="datetime-local"' not in page  # typed as on the paper pages
    for name in ("Linda Souza", "Karen Pacheco"):
        assert name in page  # still signed in: signed out at the time the night ended


def test_the_bookkeeper_closes_the_forgotten_night_from_its_page(client, tenant, forgotten):
    login(client, tenant.bookkeeper)
    response = client.post(url("occasion_close_late", forgotten), post_data(forgotten))
    assert response.status_code == 302 and response["Location"] == url("occasion_detail", forgotten)
    forgotten.refresh_from_db()
    assert forgotten.status == Occasion.Status.CLOSED and forgotten.closed_at == at(22, 30)
    assert forgotten.close_reason == REASON
    page = client.get(url("occasion_detail", forgotten)).content.decode()
    assert "Recorded after the fact on December 7, 2026 at 9:14 AM" in page
    assert REASON in page


def test_a_refusal_is_shown_on_the_page_and_nothing_changes(client, tenant, forgotten):
    login(client, tenant.head)
    data = post_data(forgotten, ended_at="21:00")
    response = client.post(url("occasion_close_late", forgotten), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Game 4 cannot finish after the night ended." in page
    forgotten.refresh_from_db()
    assert forgotten.status == Occasion.Status.OPEN
    assert game_4(forgotten).status == Game.Status.IN_PLAY


@pytest.mark.parametrize("missing", ["ended_at", "reason"])
def test_the_form_needs_the_end_and_the_reason(client, tenant, forgotten, missing):
    login(client, tenant.head)
    data = post_data(forgotten, **{missing: ""})
    response = client.post(url("occasion_close_late", forgotten), data)
    assert response.status_code == 200 and "This field is required." in response.content.decode()
    forgotten.refresh_from_db()
    assert forgotten.status == Occasion.Status.OPEN


def test_a_worker_of_the_organization_may_not_close_late(client, tenant, forgotten):
    login(client, tenant.worker)
    assert client.get(url("occasion_close_late", forgotten)).status_code == 403
    assert client.post(url("occasion_close_late", forgotten), post_data(forgotten)).status_code == (
        403
    )


def test_another_organization_gets_404(client, other_tenant, forgotten):
    login(client, other_tenant.head)
    assert client.get(url("occasion_close_late", forgotten)).status_code == 404
    assert client.post(url("occasion_close_late", forgotten), post_data(forgotten)).status_code == (
        404
    )


def test_an_inspector_may_not_close_a_night(client, inspector, forgotten):
    login(client, inspector)
    response = client.post(url("occasion_close_late", forgotten), post_data(forgotten))
    assert response.status_code == 403
    forgotten.refresh_from_db()
    assert forgotten.status == Occasion.Status.OPEN


def test_the_inspector_reads_when_and_why_the_close_was_recorded(
    client, tenant, inspector, forgotten
):
    close_forgotten_night(
        occasion=forgotten,
        ended_at=at(22, 30),
        reason=REASON,
        finishes={game_4(forgotten).pk: at(21, 40)},
        by=tenant.bookkeeper,
    )
    login(client, inspector)
    record = " ".join(client.get(url("occasion_record", forgotten)).content.decode().split())
    assert (
        "Recorded after the fact on December 7, 2026 at 9:14 AM by post-one-bookkeeper: the "
        f"night ended at 10:30 PM. Reason: {REASON}"
    ) in record
    dashboard = client.get(reverse("inspector_dashboard"), {"date_from": "2026-12-01"})
    assert "closed after the fact" in dashboard.content.decode()


# Times typed one way (issue 40, item 6): as on the paper pages, read in the night's context.


def test_the_late_close_takes_a_time_as_the_paper_pages_do(client, tenant, forgotten):
    """The date-time picker dropped "21:50" as "This field is required"."""
    login(client, tenant.bookkeeper)
    data = post_data(forgotten, ended_at="21:50")
    response = client.post(url("occasion_close_late", forgotten), data)
    assert response.status_code == 302
    forgotten.refresh_from_db()
    assert forgotten.closed_at == at(21, 50)


def test_a_time_without_am_or_pm_is_read_in_the_night_and_said_back(client, tenant, forgotten):
    login(client, tenant.bookkeeper)
    data = post_data(forgotten, ended_at="10:15") | {f"game_{game_4(forgotten).pk}": "9:40"}
    response = client.post(url("occasion_close_late", forgotten), data, follow=True)
    forgotten.refresh_from_db()
    assert forgotten.closed_at == at(22, 15)
    assert game_4(forgotten).finished_at == at(21, 40)
    page = response.content.decode()
    assert "10:15 read as 10:15 PM; 9:40 read as 9:40 PM" in page


def test_a_time_past_midnight_is_the_morning_after(client, tenant, forgotten):
    login(client, tenant.bookkeeper)
    client.post(url("occasion_close_late", forgotten), post_data(forgotten, ended_at="0:20"))
    forgotten.refresh_from_db()
    assert forgotten.closed_at == at(0, 20, NIGHT + dt.timedelta(days=1))


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("25:00", "That is not a time of day."),
        ("9:61", "That is not a time of day."),
        ("ten to ten", "Write the time as 19:05, 7:05 PM or 7:05."),
        ("13:00 PM", "With AM or PM the hour is 1 to 12."),
    ],
)
def test_a_time_that_is_no_time_is_refused_with_a_message(client, tenant, forgotten, typed, said):
    login(client, tenant.head)
    data = post_data(forgotten, ended_at=typed)
    response = client.post(url("occasion_close_late", forgotten), data)
    assert response.status_code == 200 and said in response.content.decode()
    forgotten.refresh_from_db()
    assert forgotten.status == Occasion.Status.OPEN


def test_a_late_close_past_the_license_hours_is_flagged_with_its_citation(
    client, tenant, forgotten
):
    forgotten.license.start_time, forgotten.license.end_time = dt.time(18, 0), dt.time(22, 0)
    forgotten.license.save()
    login(client, tenant.bookkeeper)
    data = post_data(forgotten, ended_at="11:30 PM")
    page = client.post(url("occasion_close_late", forgotten), data, follow=True).content.decode()
    forgotten.refresh_from_db()
    assert forgotten.closed_at == at(23, 30)  # recorded as it happened
    assert (
        '<div class="alert alert-warning" role="alert">The night ended at 11:30 PM, after the '
        "license&#x27;s hours (until 10:00 PM). The close is recorded as it happened. "
        '<span class="citation">961 CMR 3.04(7)</span></div>' in page
    )


def test_a_late_close_within_the_license_hours_is_not_flagged(client, tenant, forgotten):
    forgotten.license.start_time, forgotten.license.end_time = dt.time(18, 0), dt.time(22, 0)
    forgotten.license.save()
    login(client, tenant.bookkeeper)
    data = post_data(forgotten, ended_at="10:00")
    page = client.post(url("occasion_close_late", forgotten), data, follow=True).content.decode()
    forgotten.refresh_from_db()
    assert forgotten.closed_at == at(22, 0)
    assert "10:00 read as 10:00 PM" in page
    assert "after the license" not in page

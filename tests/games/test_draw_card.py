"""The occasion page's draw card: the balls of the game last played, as many as were entered;
on a night entered from paper whose game has no ball entered, it says the balls are on the
sheets instead of "0 balls called"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from occasions import paper
from tests.conftest import login
from tests.fixtures.games import at_night


def _card(client, occasion) -> str:
    page = client.get(reverse("occasion_detail", args=[occasion.organization_id, occasion.pk]))
    html = page.content.decode()
    start = html.index('id="flashboard"')
    return html[start : html.index("Flashboard</span>", start)]


def test_a_live_game_shows_its_balls_called(client, tenant, game_in_play):
    login(client, tenant.member_in_charge)
    card = _card(client, game_in_play.occasion)
    assert "Game 3 in play: <strong>6</strong> balls called." in card


def test_a_game_entered_from_paper_without_its_balls_says_they_are_on_the_sheets(
    client, tenant, occasion
):
    paper.begin(
        occasion=occasion,
        sheets="Control sheets 1–4",
        reason="The hall's laptop failed",
        by=tenant.bookkeeper,
    )
    Game.objects.create(occasion=occasion, number=1, half=1, kind="regular", status="finished")
    login(client, tenant.bookkeeper)
    card = _card(client, occasion)
    assert "0 balls" not in card
    assert "Game 1 was the last played: its balls are on the paper sheets, not entered." in card


def test_a_live_game_without_a_ball_yet_says_so(client, tenant, open_occasion):
    Game.objects.create(occasion=open_occasion, number=1, half=1, kind="regular", status="in_play")
    login(client, tenant.member_in_charge)
    card = _card(client, open_occasion)
    assert "Game 1 in play: <strong>0</strong> balls called." in card


@pytest.mark.parametrize(("started", "on_paper"), [(19, True), (21, False)])
def test_a_part_from_paper_holds_the_games_begun_in_it(client, tenant, occasion, started, on_paper):
    paper.begin(
        occasion=occasion,
        sheets="Door sheet 2",
        reason="The Wi-Fi dropped",
        by=tenant.bookkeeper,
        starts_at=at_night(occasion, 18, 30),
        ends_at=at_night(occasion, 20, 0),
    )
    Game.objects.create(
        occasion=occasion,
        number=1,
        half=1,
        kind="regular",
        status="finished",
        started_at=at_night(occasion, started, 15),
    )
    login(client, tenant.bookkeeper)
    card = _card(client, occasion)
    assert ("its balls are on the paper sheets" in card) is on_paper
    assert ("<strong>0</strong> balls called." in card) is not on_paper

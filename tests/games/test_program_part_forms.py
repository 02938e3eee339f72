"""The program page's "add a prize" forms: each planned game's blank form is drawn once for the
page and given to the game under its own prefix, and must read exactly as Django draws that
game's form; a game in play or finished has none, nor has a reader who cannot plan; a refused
form comes back filled in under its own game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import program_selectors
from games.models import Arrangement, Game
from games.program_forms import PrizePartForm
from tests.conftest import login

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, occasion, **extra) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk, **extra})


def django_form(occasion, game: Game, *args) -> PrizePartForm:
    authorized = list(
        program_selectors.authorized_arrangements(occasion.organization, occasion.date)
    )
    return PrizePartForm(*args, authorized=authorized, prefix=f"g{game.pk}")


@pytest.fixture
def games(open_occasion, program_game, game_in_play):
    """Game 1 planned (the fixture's), game 2 planned, game 3 in play, game 4 finished."""
    second = Game.objects.create(occasion=open_occasion, number=2, half=2, kind="regular")
    finished = Game.objects.create(
        occasion=open_occasion, number=4, half=2, kind="regular", status="finished"
    )
    return {"planned": [program_game, second], "not planned": [game_in_play, finished]}


def test_each_planned_game_has_its_own_form_as_django_draws_it(client, tenant, games):
    login(client, tenant.member_in_charge)
    occasion = games["planned"][0].occasion
    page = client.get(url("game_program", occasion)).content.decode()
    for game in games["planned"]:
        form = django_form(occasion, game)
        for name in form.fields:
            assert str(form[name]) in page, (game.number, name)
            assert f'for="{form[name].id_for_label}"' in page
        assert url("prize_part_add", occasion, game_pk=game.pk) in page
    for game in games["not planned"]:
        assert f'name="g{game.pk}-' not in page
        assert f"Add a prize to game {game.number}" not in page
    assert page.count('name="g') == 6 * 2  # six fields, two planned games


def test_an_arrangement_named_like_the_drawn_prefix_is_shown_as_named(client, tenant, games):
    Arrangement.objects.filter(code="letter_h").update(name='Letter "gGAME-H"')
    login(client, tenant.member_in_charge)
    occasion = games["planned"][0].occasion
    page = client.get(url("game_program", occasion)).content.decode()
    assert page.count("Letter &quot;gGAME-H&quot;") >= 2  # in each planned game's list
    assert "&quot;g{}-H".format(games["planned"][0].pk) not in page


def test_a_refused_form_comes_back_filled_in_under_its_own_game(client, tenant, games):
    login(client, tenant.member_in_charge)
    first, second = games["planned"]
    occasion = first.occasion
    data = {
        f"g{second.pk}-arrangement": str(Arrangement.objects.get(code="four_corners").pk),
        f"g{second.pk}-kind": "cash",
        f"g{second.pk}-amount": "200.01",
        f"g{second.pk}-description": "",
    }
    page = client.post(
        url("prize_part_add", occasion, game_pk=second.pk), data, **HTMX
    ).content.decode()
    assert "961 CMR 3.04(8)(b)" in page
    bound = django_form(occasion, second, data)
    assert str(bound["amount"]) in page and 'value="200.01"' in str(bound["amount"])
    assert '<details class="add-part mt-2" open>' in page
    assert str(django_form(occasion, first)["amount"]) in page  # the other game's, blank


@pytest.mark.parametrize("who", ["bookkeeper", "worker"])
def test_a_reader_who_cannot_plan_gets_no_form(client, tenant, games, who):
    login(client, getattr(tenant, who))
    occasion = games["planned"][0].occasion
    page = client.get(url("game_program", occasion)).content.decode()
    assert "Any single line" in page and 'name="g' not in page

"""The program page: plain and htmx posts, refusals shown with their citation (status 200,
nothing saved), bad input never a 500, roles, and the Games card on the occasion page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from beano.rules.models import RefusedAction
from games.models import Arrangement, Game, PrizePart
from organizations.models import AuditEvent
from tests.conftest import login

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, occasion, **extra) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk, **extra})


@pytest.fixture
def mic_client(client, tenant):
    login(client, tenant.member_in_charge)
    return client


def state():
    return (
        Game.objects.count(),
        PrizePart.objects.count(),
        PrizePart.objects.filter(announced_at__isnull=False).count(),
        Game.objects.exclude(status="planned").count(),
        AuditEvent.objects.count(),
    )


def part_data(game: Game, **values) -> dict[str, str]:
    base = {
        "arrangement": str(Arrangement.objects.get(code="four_corners").pk),
        "kind": "cash",
        "amount": "50.00",
        "description": "",
    }
    return {f"g{game.pk}-{k}": v for k, v in (base | values).items()}


def test_the_page_lists_the_program_by_half_with_its_buttons(
    mic_client, open_occasion, program_game
):
    page = mic_client.get(url("game_program", open_occasion)).content.decode()
    assert "First half" in page and "Second half" in page
    assert "Any single line" in page and "$50.00" in page
    for label in ("Announce", "75 balls present", "Start game 1", "Add a game"):
        assert label in page


def test_an_inspector_sees_the_program_without_buttons(
    client, inspector, open_occasion, program_game
):
    login(client, inspector)
    page = client.get(url("game_program", open_occasion)).content.decode()
    assert "Any single line" in page
    assert "Start game 1" not in page and "Add a game" not in page


def test_a_worker_reads_but_may_not_start_a_game(client, tenant, open_occasion, program_game):
    login(client, tenant.worker)
    assert client.get(url("game_program", open_occasion)).status_code == 200
    response = client.post(url("game_start", open_occasion, game_pk=program_game.pk))
    assert response.status_code == 403


def test_adding_a_game_by_htmx_returns_the_panel(mic_client, open_occasion):
    response = mic_client.post(
        url("game_add", open_occasion), {"number": "3", "half": "1", "kind": "regular"}, **HTMX
    )
    page = response.content.decode()
    assert response.status_code == 200 and 'id="program-panel"' in page and "<html" not in page
    assert "Game 3 is in the program." in page
    assert Game.objects.get().number == 3


def test_a_plain_post_goes_back_to_the_page(mic_client, open_occasion):
    response = mic_client.post(
        url("game_add", open_occasion), {"number": "3", "half": "2", "kind": "special"}
    )
    assert response.status_code == 302
    assert response["Location"] == url("game_program", open_occasion)


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_prize_over_200_is_refused_with_its_citation_and_nothing_saved(
    mic_client, open_occasion, program_game, headers
):
    before = state()
    response = mic_client.post(
        url("prize_part_add", open_occasion, game_pk=program_game.pk),
        part_data(program_game, amount="150.01"),
        **headers,
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "961 CMR 3.04(8)(b)" in page and "Refused" in page
    assert state() == before
    assert RefusedAction.objects.filter(citations="961 CMR 3.04(8)(b)").count() == 1


def test_an_arrangement_not_authorized_is_not_offered_and_refused_if_sent(
    mic_client, open_occasion, authorization
):
    from games.models import ArrangementAuthorization

    ArrangementAuthorization.objects.create(
        authorization=authorization, arrangement=Arrangement.objects.get(code="single_line")
    )
    game = Game.objects.create(occasion=open_occasion, number=1, half=1, kind="regular")
    page = mic_client.get(url("game_program", open_occasion)).content.decode()
    assert "Any single line" in page and "Letter H" not in page
    letter_h = str(Arrangement.objects.get(code="letter_h").pk)
    response = mic_client.post(
        url("prize_part_add", open_occasion, game_pk=game.pk),
        part_data(game, arrangement=letter_h),
        **HTMX,
    )
    assert "961 CMR 3.04(6)(c)" in response.content.decode()
    assert not PrizePart.objects.exists()


def test_announce_balls_start_and_finish_by_htmx(mic_client, open_occasion, program_game):
    part = program_game.parts.get()
    start = url("game_start", open_occasion, game_pk=program_game.pk)
    refused = mic_client.post(start, **HTMX).content.decode()
    assert "961 CMR 3.04(6)(b)" in refused and "961 CMR 3.04(4)(b)" in refused
    mic_client.post(url("prize_part_announce", open_occasion, part_pk=part.pk), **HTMX)
    mic_client.post(url("game_confirm_balls", open_occasion, game_pk=program_game.pk), **HTMX)
    page = mic_client.post(start, **HTMX).content.decode()
    assert "Game 1 has begun." in page and "Finish game 1" in page
    finish = url("game_finish", open_occasion, game_pk=program_game.pk)
    events = AuditEvent.objects.count()
    summary = mic_client.post(finish, **HTMX).content.decode()  # not confirmed: nothing done
    program_game.refresh_from_db()
    assert program_game.status == "in_play" and AuditEvent.objects.count() == events
    assert "Finish game 1?" in summary and "Yes, finish game 1" in summary
    assert "No winner is recorded for" in summary and "($50.00)" in summary
    assert "cannot be put back in play" in summary and 'value="yes"' in summary
    page = mic_client.post(finish, {"confirmed": "yes"}, **HTMX).content.decode()
    program_game.refresh_from_db()
    assert program_game.status == "finished" and "Finished" in page


def test_an_unconfirmed_plain_finish_shows_the_summary_on_the_page(
    mic_client, open_occasion, program_game
):
    Game.objects.filter(pk=program_game.pk).update(status="in_play")
    response = mic_client.post(url("game_finish", open_occasion, game_pk=program_game.pk))
    page = response.content.decode()
    assert response.status_code == 200 and "<html" in page and "Finish game 1?" in page
    program_game.refresh_from_db()
    assert program_game.status == "in_play"


def test_bad_input_is_refused_on_the_page_never_a_500(mic_client, open_occasion, program_game):
    before = state()
    add_game = url("game_add", open_occasion)
    for data in (
        {},
        {"number": "x", "half": "1", "kind": "regular"},
        {"number": "-4", "half": "1", "kind": "regular"},
        {"number": "1", "half": "1", "kind": "regular"},
        {"number": "99999999999999999999", "half": "9", "kind": "?"},
    ):
        response = mic_client.post(add_game, data, **HTMX)
        assert response.status_code == 200 and "Refused" in response.content.decode()
    add_part = url("prize_part_add", open_occasion, game_pk=program_game.pk)
    for values in (
        {"amount": "-5"},
        {"amount": "12.345"},
        {"amount": "1e400"},
        {"amount": "99999999999999"},
        {"amount": ""},
        {"arrangement": "999999"},
        {"arrangement": "9" * 40},
        {"arrangement": "abc"},
        {"kind": "gold"},
    ):
        response = mic_client.post(add_part, part_data(program_game, **values), **HTMX)
        assert response.status_code == 200 and "Refused" in response.content.decode(), values
    copy = url("program_copy", open_occasion)
    assert mic_client.post(copy, {"from_occasion": "x"}).status_code == 200
    assert state() == before


def test_stale_and_other_organizations_ids_are_404(
    mic_client, open_occasion, program_game, other_tenant
):
    from games import program_services

    part = program_game.parts.get()
    program_services.remove_game(game=program_game, by=None)
    assert (
        mic_client.post(url("game_start", open_occasion, game_pk=program_game.pk)).status_code
        == 404
    )
    assert (
        mic_client.post(url("prize_part_announce", open_occasion, part_pk=part.pk)).status_code
        == 404
    )


def test_the_occasion_page_has_a_games_card(mic_client, open_occasion, program_game):
    page = mic_client.get(url("occasion_detail", open_occasion)).content.decode()
    assert "Games in the program" in page and url("game_program", open_occasion) in page
    assert "Next: game 1" in page

"""Recording the winners of a prize confirms with a summary (issue 19): who wins what, the split
to the dollar (961 CMR 3.04(6)(f)), that nothing is paid yet, the W-2G and Form 5754 the payout
will need, the prize's claims left out and how a mistake is put right. The first POST saves
nothing; the confirmed POST records, judged by the rules as before."""

from __future__ import annotations

import datetime as dt
import html
from decimal import Decimal

import pytest
from django.urls import reverse

from beano.rules.models import LawLimit, RefusedAction
from games.models import Winner
from tests.conftest import login
from tests.fixtures.floor import listed
from tests.games.claims_helpers import new_claim, two_claims_on_g47, verified

CONFIRM = {"confirmed": "yes"}


@pytest.fixture(autouse=True)
def _verifier_on_the_floor(request, tenant):
    """As in test_claims: the head is on the floor of the night."""
    from tests.fixtures.floor import on_floor

    if "game_in_play" in request.fixturenames:
        on_floor(tenant.head, request.getfixturevalue("game_in_play").occasion)


def _post_url(game, part) -> str:
    return reverse(
        "winners_record",
        kwargs={
            "org_id": game.occasion.organization_id,
            "pk": game.occasion_id,
            "game_pk": game.pk,
            "part_pk": part.pk,
        },
    )


def _form(part, *ticked) -> dict[str, str]:
    p = f"part{part.pk}-"
    data = {}
    for claim in ticked:
        data[f"{p}won_{claim.pk}"] = "on"
        data[f"{p}name_{claim.pk}"] = claim.player_name
    return data


@pytest.fixture
def mic(client, tenant):
    login(client, tenant.member_in_charge)
    return client


def test_the_summary_shows_who_wins_what_and_saves_nothing(mic, tenant, game_in_play):
    first, second = two_claims_on_g47(game_in_play, tenant)
    part = first.part
    response = mic.post(_post_url(game_in_play, part), _form(part, first, second))
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "Record the winners of game 3, prize 1?" in page
    assert "Record Mary Costa for the claim of" in page and "at table 7" in page
    assert "2 winners on the same call share prize 1" in page
    assert "divided to the dollar: Mary Costa $38.00 and Ann Pires $37.00." in page
    assert "Nothing is paid yet" in page
    assert "no Form W-2G and no Form 5754 is needed" in page
    assert "cannot be changed or taken back" in page and "close-out's explanation" in page
    # The confirmation posts the same ticks and names again, with "confirmed".
    assert f'name="part{part.pk}-won_{first.pk}" value="on"' in page
    assert f'name="part{part.pk}-name_{second.pk}" value="Ann Pires"' in page
    assert 'name="confirmed" value="yes"' in page
    assert not Winner.objects.exists() and not RefusedAction.objects.exists()


def test_the_confirmed_post_records_the_winners(mic, tenant, game_in_play):
    first, second = two_claims_on_g47(game_in_play, tenant)
    part = first.part
    response = mic.post(_post_url(game_in_play, part), _form(part, first, second) | CONFIRM)
    assert response.status_code == 302
    shares = dict(Winner.objects.values_list("player_name", "share"))
    assert shares == {"Mary Costa": Decimal("38.00"), "Ann Pires": Decimal("37.00")}


def test_a_verified_claim_left_unticked_and_one_not_verified_are_named(mic, tenant, game_in_play):
    first, _ = two_claims_on_g47(game_in_play, tenant)
    unverified = new_claim(game_in_play, tenant.worker, player_name="Rita Lopes", table="9")
    part = first.part
    page = html.unescape(
        mic.post(_post_url(game_in_play, part), _form(part, first)).content.decode()
    )
    assert "(Ann Pires) was verified but is not ticked: it gets nothing." in page
    assert "at table 9 (Rita Lopes) is not verified yet" in page
    assert "Mary Costa wins prize 1 (" in page and "$75.00), all of it." in page
    assert unverified.pk and not Winner.objects.exists()


def test_a_win_over_the_threshold_names_the_w2g_and_form_5754(mic, tenant, game_in_play):
    LawLimit.objects.create(
        name="w2g_threshold",
        value=Decimal("75"),
        effective_from=dt.date(2026, 12, 1),
        source="test",
        status="V",
    )
    claim = new_claim(game_in_play, tenant.worker, player_name="Mary Costa")
    verified(claim, tenant.member_in_charge)
    page = html.unescape(
        mic.post(_post_url(game_in_play, claim.part), _form(claim.part, claim)).content.decode()
    )
    assert "Mary Costa's $75.00 is $75.00 or more: at the payout, Form W-2G takes" in page
    assert "Form 5754 lists each person's name, address, TIN and share" in page
    assert not Winner.objects.exists()


def test_bad_input_gets_its_message_and_no_summary(mic, tenant, game_in_play):
    first, _ = two_claims_on_g47(game_in_play, tenant)
    response = mic.post(_post_url(game_in_play, first.part), {})
    page = html.unescape(response.content.decode())
    assert response.status_code == 200 and "Tick the winning claims." in page
    assert "Record the winners of game 3" not in page and not Winner.objects.exists()


def test_the_rules_still_judge_the_confirmed_winners(mic, tenant, game_in_play):
    """A worker on the list named as the winner: the summary shows, the confirmation is
    refused with 3.04(1)(h), and nothing is saved."""
    entry = listed(tenant, "Rose Tavares", ["seller"], "P-11")
    claim = new_claim(game_in_play, tenant.worker, player_name="Rose Tavares")
    verified(claim, tenant.member_in_charge)
    part = claim.part
    data = _form(part, claim) | {f"part{part.pk}-person_{claim.pk}": str(entry.person_id)}
    summary = mic.post(_post_url(game_in_play, part), data)
    assert summary.status_code == 200 and not Winner.objects.exists()
    refused = mic.post(_post_url(game_in_play, part), data | CONFIRM)
    assert refused.status_code == 200 and "3.04(1)(h)" in refused.content.decode()
    assert not Winner.objects.exists()


def test_another_organization_gets_404_and_an_inspector_403(
    client, tenant, other_tenant, inspector, game_in_play
):
    first, second = two_claims_on_g47(game_in_play, tenant)
    data = _form(first.part, first, second)
    url = _post_url(game_in_play, first.part)
    login(client, other_tenant.member_in_charge)
    assert client.post(url, data).status_code == 404
    assert client.post(url, data | CONFIRM).status_code == 404
    login(client, inspector)
    assert client.post(url, data).status_code == 403
    assert client.post(url, data | CONFIRM).status_code == 403
    assert not Winner.objects.exists()

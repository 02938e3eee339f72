"""The progressive jackpot pages (961 CMR 3.04(6)(h), (8)(a)2): from the hall, from bad input and
stale ids, and read-only for workers and the inspector."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from games import jackpot_services
from games.models import JackpotLedgerEntry, ProgressiveGame, ProgressiveSeries
from tests.conftest import login
from tests.fixtures.games import start_sample_series
from tests.games.test_jackpots import friday, game_13, play


@pytest.fixture
def mic(client, tenant):
    login(client, tenant.member_in_charge)
    return client


def start_data(**changes) -> dict:
    from games.models import Arrangement

    data = {
        "name": "Coverall jackpot",
        "started_on": "2026-11-27",
        "mode": "growing_jackpot",
        "starting_amount": "1500.00",
        "increment": "100.00",
        "cap": "3000.00",
        "arrangement": Arrangement.objects.get(code="coverall").pk,
        "calls_allowed": "52",
        "calls_increment": "0",
        "consolation_amount": "100.00",
        "rules_text": "Coverall within 52 numbers.",
    }
    return data | changes


def test_the_member_in_charge_starts_a_series_from_the_page(mic, tenant):
    from tests.fixtures.games import authorize_arrangements

    authorize_arrangements(tenant.organization, "coverall")  # the Director's letter (6)(c)
    url = reverse("jackpot_start", args=[tenant.organization.pk])
    assert mic.get(url).status_code == 200
    response = mic.post(url, start_data())
    series = ProgressiveSeries.objects.get()
    assert response.status_code == 302 and str(series.pk) in response["Location"]
    page = mic.get(response["Location"]).content.decode()
    assert "$1,500.00" in page and "Coverall within 52 numbers." in page


@pytest.mark.parametrize(
    "changes",
    [
        {"cap": "3050.00"},
        {"increment": "0"},
        {"starting_amount": "-5"},
        {"starting_amount": "12.345"},
        {"starting_amount": "99999999999999"},
        {"starting_amount": "lots"},
        {"calls_allowed": "80"},
        {"arrangement": "999999"},
        {"name": ""},
        {"mode": "lottery"},
        {"started_on": "2027-01-01"},
    ],
)
def test_a_refused_or_bad_series_is_shown_on_its_form_and_nothing_saved(mic, tenant, changes):
    url = reverse("jackpot_start", args=[tenant.organization.pk])
    response = mic.post(url, start_data(**changes))
    assert response.status_code == 200
    assert not ProgressiveSeries.objects.exists()
    if "cap" in changes:
        assert "961 CMR 3.04(8)(a)" in response.content.decode()
    if "increment" in changes:
        assert "961 CMR 3.04(6)(h)" in response.content.decode()


def test_a_rules_change_mid_series_is_refused_on_the_page_with_its_citation(
    mic, tenant, jackpot_series
):
    play(tenant, jackpot_series, 0)
    url = reverse("jackpot_rules_change", args=[tenant.organization.pk, jackpot_series.pk])
    data = {
        k: v for k, v in start_data(increment="50.00").items() if k not in ("name", "started_on")
    }
    response = mic.post(url, data)
    assert response.status_code == 200
    assert "961 CMR 3.04(6)(h)" in response.content.decode()
    jackpot_series.refresh_from_db()
    assert jackpot_series.increment == Decimal("100.00")


def test_the_occasion_page_carries_a_jackpot_and_records_its_outcome(mic, tenant, jackpot_series):
    occasion = friday(tenant, 0)
    game = game_13(occasion)
    detail = mic.get(reverse("occasion_detail", args=[tenant.organization.pk, occasion.pk]))
    assert "Progressive jackpot" in detail.content.decode()
    attach = reverse("occasion_jackpot_attach", args=[tenant.organization.pk, occasion.pk])
    response = mic.post(
        attach, {"game": game.pk, "series": jackpot_series.pk}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="jackpot-panel"' in page and "<html" not in page and "$1,500.00" in page
    pg = ProgressiveGame.objects.get()
    outcome = reverse("jackpot_game_outcome", args=[tenant.organization.pk, pg.pk])
    response = mic.post(outcome, {"outcome": "consolation"})
    assert response.status_code == 302
    assert JackpotLedgerEntry.objects.get().carried_out == Decimal("1500.00")
    listing = mic.get(reverse("jackpot_list", args=[tenant.organization.pk])).content.decode()
    assert "$1,600.00" in listing


def test_stale_or_foreign_ids_and_bad_outcomes_never_500(mic, tenant, other_tenant, jackpot_series):
    occasion = friday(tenant, 0)
    game = game_13(occasion)
    theirs = start_sample_series(other_tenant)
    attach = reverse("occasion_jackpot_attach", args=[tenant.organization.pk, occasion.pk])
    for data in ({"game": game.pk, "series": theirs.pk}, {"game": "x", "series": ""}, {}):
        assert mic.post(attach, data).status_code == 200
    assert not ProgressiveGame.objects.exists()
    pg = jackpot_services.attach_game(game=game, series=jackpot_series, by=tenant.head)
    outcome = reverse("jackpot_game_outcome", args=[tenant.organization.pk, pg.pk])
    for data in ({"outcome": "jackpot!"}, {}):
        assert mic.post(outcome, data).status_code == 200
    assert mic.post(attach, {"game": game.pk, "series": jackpot_series.pk}).status_code == 200
    assert not JackpotLedgerEntry.objects.exists()


def test_a_refused_outcome_shows_its_citation_on_the_occasion_page(mic, tenant):
    series = start_sample_series(tenant, consolation_amount=Decimal("0.00"))
    pg = jackpot_services.attach_game(game=game_13(friday(tenant, 0)), series=series, by=None)
    outcome = reverse("jackpot_game_outcome", args=[tenant.organization.pk, pg.pk])
    response = mic.post(outcome, {"outcome": "consolation"})
    assert response.status_code == 200
    assert "961 CMR 3.04(8)(a)" in response.content.decode()
    assert not JackpotLedgerEntry.objects.exists()


def test_a_worker_reads_the_ledger_but_does_not_write(client, tenant, jackpot_series):
    login(client, tenant.worker)
    play(tenant, jackpot_series, 0, consolation=True)
    detail = client.get(reverse("jackpot_detail", args=[tenant.organization.pk, jackpot_series.pk]))
    assert detail.status_code == 200 and "$1,600.00" in detail.content.decode()
    assert client.get(reverse("jackpot_start", args=[tenant.organization.pk])).status_code == 403


def test_the_inspector_sees_the_ledger_occasion_by_occasion(
    client, tenant, inspector, jackpot_series
):
    play(tenant, jackpot_series, 0, consolation=True)
    play(tenant, jackpot_series, 1)
    login(client, inspector)
    page = client.get(
        reverse("jackpot_detail", args=[tenant.organization.pk, jackpot_series.pk])
    ).content.decode()
    assert "Dec 4, 2026" in page and "Dec 11, 2026" in page
    assert "$1,700.00" in page  # the next occasion's jackpot
    assert "Change the rules" not in page and "Read-only review" in page

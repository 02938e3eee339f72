"""The claims page: recording a claim (by htmx, with its key, once), verifying the card on its
grid, the draw's witnesses, the split shown before it is saved, the payout form with the W-2G
fields and a masked TIN; refusals with their citations, bad input never a 500, another
organization's or an inspector's post never recorded."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import (
    CardVerification,
    Claim,
    Payout,
    PrizePart,
    Winner,
)
from tests.conftest import PASSWORD, login
from tests.fixtures.games import WINNING_CORNERS
from tests.games.claims_helpers import (
    DETAILS,
    TIN,
    D,
    _verifier_on_the_floor,  # noqa: F401  (autouse)
    two_claims_on_g47,
    verified,
)

# The page


def url(name, **kwargs):
    return reverse(name, kwargs=kwargs)


def test_the_page_records_a_claim_and_shows_it(client, tenant, claims_game_kwargs):
    login(client, tenant.worker)
    page = url("game_claims", org_id=tenant.organization.pk, **claims_game_kwargs)
    post = url("claim_record", org_id=tenant.organization.pk, **claims_game_kwargs)
    part = PrizePart.objects.get()
    response = client.post(
        post,
        {"part": part.pk, "ball_in_hand": "70", "calling_begun": "yes", "player_name": "Joe Dias"},
    )
    assert response.status_code == 302
    claim = Claim.objects.get()
    assert claim.ball_in_hand == 70 and claim.calling_begun
    html = client.get(page).content.decode()
    assert "Joe Dias" in html and "calling had begun — it counts" in html


CLAIM_KEY = "5d0c9e7a-2b1f-4c3d-8e6a-7f9b0c1d2e3f"


def test_the_claim_form_is_sent_by_htmx_with_a_key(client, tenant, claims_game_kwargs):
    login(client, tenant.worker)
    page = client.get(url("game_claims", org_id=tenant.organization.pk, **claims_game_kwargs))
    html = page.content.decode()
    assert '<input type="hidden" name="request_key" value="">' in html
    assert 'data-floor-entry="claim"' in html and 'hx-select="#claim"' in html
    assert 'data-floor-unsent="claim"' in html and "js/floor.js" in html


def test_a_claim_sent_twice_with_its_key_is_recorded_once_and_answered_alike(
    client, tenant, claims_game_kwargs
):
    login(client, tenant.worker)
    post = url("claim_record", org_id=tenant.organization.pk, **claims_game_kwargs)
    page = url("game_claims", org_id=tenant.organization.pk, **claims_game_kwargs)
    data = {
        "part": PrizePart.objects.get().pk,
        "ball_in_hand": "",
        "calling_begun": "no",
        "player_name": "Joe Dias",
        "request_key": CLAIM_KEY,
    }
    for _ in range(2):
        response = client.post(post, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and response["HX-Redirect"] == page
        assert "The claim is recorded." in client.get(page).content.decode()
    assert Claim.objects.get().player_name == "Joe Dias"


def test_an_htmx_refused_claim_answers_the_page_for_its_form(client, tenant, claims_game_kwargs):
    login(client, tenant.worker)
    post = url("claim_record", org_id=tenant.organization.pk, **claims_game_kwargs)
    data = {"part": PrizePart.objects.get().pk, "ball_in_hand": "61", "calling_begun": "no"}
    response = client.post(post, {**data, "request_key": CLAIM_KEY}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "HX-Redirect" not in response
    assert 'id="claim"' in response.content.decode()
    assert "961 CMR 3.04(6)(a)" in response.content.decode()
    assert not Claim.objects.exists()


def test_a_claim_from_another_organization_or_an_inspector_is_not_recorded(
    client, tenant, other_tenant, inspector, claims_game_kwargs
):
    post = url("claim_record", org_id=tenant.organization.pk, **claims_game_kwargs)
    data = {"part": PrizePart.objects.get().pk, "calling_begun": "no", "request_key": CLAIM_KEY}
    login(client, other_tenant.head)
    assert client.post(post, data, HTTP_HX_REQUEST="true").status_code == 404
    login(client, inspector)
    assert client.post(post, data, HTTP_HX_REQUEST="true").status_code == 403
    assert not Claim.objects.exists()


def test_a_refused_claim_shows_its_citation_with_status_200(client, tenant, claims_game_kwargs):
    login(client, tenant.member_in_charge)
    post = url("claim_record", org_id=tenant.organization.pk, **claims_game_kwargs)
    response = client.post(
        post, {"part": PrizePart.objects.get().pk, "ball_in_hand": "61", "calling_begun": "no"}
    )
    assert response.status_code == 200
    assert "961 CMR 3.04(6)(a)" in response.content.decode()
    assert not Claim.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"part": "x", "ball_in_hand": "abc", "calling_begun": "maybe"},
        {"part": "999999", "ball_in_hand": "76", "calling_begun": "no"},
        {"part": "99999999999999999999999", "ball_in_hand": "-1", "calling_begun": "yes"},
    ],
)
def test_bad_claim_input_is_never_a_500(client, tenant, claims_game_kwargs, data):
    login(client, tenant.member_in_charge)
    post = url("claim_record", org_id=tenant.organization.pk, **claims_game_kwargs)
    assert client.post(post, data).status_code == 200
    assert not Claim.objects.exists()


def card_data(claim, numbers, witness=("Rose Medeiros", "12")):
    data = {f"card{claim.pk}-sq_{s}": str(n) for s, n in numbers.items()}
    data |= {f"card{claim.pk}-whole_card": "no"}
    data |= {
        f"card{claim.pk}-witness1_name": witness[0],
        f"card{claim.pk}-witness1_table": witness[1],
    }
    return data


def test_the_card_grid_verifies_and_shows_each_reason(client, tenant, claim, claim_kwargs):
    login(client, tenant.member_in_charge)
    post = url("claim_verify_card", org_id=tenant.organization.pk, **claim_kwargs)
    response = client.post(post, card_data(claim, WINNING_CORNERS | {"O5": 70}), follow=True)
    html = response.content.decode()
    assert "Card invalid" in html and "70 (O5) was not drawn." in html
    assert client.post(post, card_data(claim, WINNING_CORNERS)).status_code == 302
    assert CardVerification.objects.latest("pk").valid


@pytest.mark.parametrize(
    "numbers,witness",
    [
        ({"B1": "abc"}, ("Rose", "12")),
        ({"B1": "99999999999"}, ("Rose", "12")),
        ({}, ("Rose", "12")),
        (WINNING_CORNERS, ("", "")),
        (WINNING_CORNERS, ("Rose", "7")),
    ],
)
def test_bad_card_input_is_never_a_500(client, tenant, claim, claim_kwargs, numbers, witness):
    login(client, tenant.member_in_charge)
    post = url("claim_verify_card", org_id=tenant.organization.pk, **claim_kwargs)
    response = client.post(post, card_data(claim, numbers, witness))
    assert response.status_code == 200
    assert not CardVerification.objects.exists()


def test_the_draw_form_refuses_without_witnesses(client, tenant, claim, claim_kwargs):
    login(client, tenant.member_in_charge)
    post = url("claim_verify_draw", org_id=tenant.organization.pk, **claim_kwargs)
    response = client.post(post, {f"draw{claim.pk}-member_in_charge": "Ann Silva"})
    assert response.status_code == 200 and "961 CMR 3.04(6)(d)" in response.content.decode()
    data = {f"draw{claim.pk}-member_in_charge": "Ann Silva", f"draw{claim.pk}-witnesses": "Rose"}
    assert client.post(post, data).status_code == 302


def test_the_split_is_shown_before_saving_and_then_recorded(client, tenant, game_in_play):
    first, second = two_claims_on_g47(game_in_play, tenant)
    login(client, tenant.member_in_charge)
    kwargs = {"org_id": tenant.organization.pk, "pk": game_in_play.occasion_id}
    kwargs["game_pk"] = game_in_play.pk
    part = first.part
    p = f"part{part.pk}-"
    ticks = {f"{p}won_{first.pk}": "on", f"{p}won_{second.pk}": "on"}
    split = client.get(url("winners_split", **kwargs), {"part": part.pk} | ticks)
    assert "$38.00" in split.content.decode() and "$37.00" in split.content.decode()
    assert not Winner.objects.exists()
    names = {f"{p}name_{first.pk}": "Mary Costa", f"{p}name_{second.pk}": "Ann Pires"}
    post = url("winners_record", part_pk=part.pk, **kwargs)
    summary = client.post(post, ticks | names)  # the summary first, nothing saved
    assert summary.status_code == 200 and not Winner.objects.exists()
    assert client.post(post, ticks | names | {"confirmed": "yes"}).status_code == 302
    assert sorted(Winner.objects.values_list("share", flat=True)) == [D("37"), D("38")]


def test_bad_winner_input_is_never_a_500(client, tenant, claim, part_kwargs):
    verified(claim, tenant.member_in_charge)
    login(client, tenant.member_in_charge)
    post = url("winners_record", org_id=tenant.organization.pk, **part_kwargs)
    p = f"part{claim.part_id}-"
    for data in (
        {},
        {f"{p}won_{claim.pk}": "on", f"{p}name_{claim.pk}": ""},
        {f"{p}won_{claim.pk}": "on", f"{p}person_{claim.pk}": "99999"},
    ):
        assert client.post(post, data).status_code == 200
    assert not Winner.objects.exists()
    kwargs = {k: v for k, v in part_kwargs.items() if k != "part_pk"}
    split = url("winners_split", org_id=tenant.organization.pk, **kwargs)
    assert client.get(split, {"part": "abc"}).status_code == 200
    assert client.get(split, {"part": "999999"}).status_code == 404
    bad_money = {"part": claim.part_id, f"{p}substitute_value": "1e999"}
    assert client.get(split, bad_money).status_code == 200


def test_the_payout_form_shows_w2g_fields_and_only_a_masked_tin(client, tenant, big_win):
    login(client, tenant.member_in_charge)
    game = big_win.claim.game
    kwargs = {"org_id": tenant.organization.pk, "pk": game.occasion_id, "game_pk": game.pk}
    page = client.get(url("game_claims", **kwargs)).content.decode()
    assert "Form W-2G" in page and "TIN (SSN or ITIN)" in page
    post = url("payout_record", winner_pk=big_win.pk, **kwargs)
    p = f"payout{big_win.pk}-"
    data = {
        f"{p}verified_by": tenant.head.pk,
        f"{p}verifier_secret": PASSWORD,
        f"{p}amount": "75.00",
        f"{p}w2g_legal_name": DETAILS.legal_name,
        f"{p}w2g_address": DETAILS.address,
        f"{p}tin": TIN,
        f"{p}id1_kind": DETAILS.id1_kind,
        f"{p}id1_number": DETAILS.id1_number,
        f"{p}id2_kind": DETAILS.id2_kind,
        f"{p}id2_number": DETAILS.id2_number,
    }
    missing = client.post(post, {k: v for k, v in data.items() if "id2" not in k})
    assert missing.status_code == 200 and "26 U.S.C. § 6041" in missing.content.decode()
    assert client.post(post, data).status_code == 302
    # Once recorded, the W-2G's details are personal data: the member in charge who took them
    # is told they are recorded; the head (with a second factor) sees only the masked TIN.
    page = client.get(url("game_claims", **kwargs)).content.decode()
    assert "W-2G details recorded" in page and "6789" not in page
    head = Client()
    login(head, tenant.head)
    page = head.get(url("game_claims", **kwargs)).content.decode()
    assert "••••6789" in page and "123-45" not in page and "123456789" not in page
    occasion = client.get(
        reverse("occasion_detail", args=[tenant.organization.pk, game.occasion_id])
    ).content.decode()
    assert "Mary Costa" in occasion and "paid" in occasion


@pytest.mark.parametrize("amount", ["-5", "abc", "75.001", "1e20", ""])
def test_bad_payout_input_is_never_a_500(client, tenant, winner, winner_kwargs, amount):
    login(client, tenant.member_in_charge)
    post = url("payout_record", org_id=tenant.organization.pk, **winner_kwargs)
    data = {f"payout{winner.pk}-verified_by": tenant.head.pk, f"payout{winner.pk}-amount": amount}
    assert client.post(post, data).status_code == 200
    assert not Payout.objects.exists()


def test_the_payer_verifying_themselves_is_refused_on_the_page(
    client, tenant, winner, winner_kwargs
):
    login(client, tenant.member_in_charge)
    post = url("payout_record", org_id=tenant.organization.pk, **winner_kwargs)
    data = {
        f"payout{winner.pk}-verified_by": tenant.member_in_charge.pk,
        f"payout{winner.pk}-amount": "75.00",
    }
    response = client.post(post, data)
    assert response.status_code == 200
    assert not Payout.objects.exists()


def test_a_worker_records_claims_but_not_winners_or_payouts(client, tenant, winner_kwargs):
    login(client, tenant.worker)
    post = url("payout_record", org_id=tenant.organization.pk, **winner_kwargs)
    assert client.post(post, {}).status_code == 403

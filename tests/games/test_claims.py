"""Claims, verifications, winners and payouts: the services (961 CMR 3.04(6), (1)(h); W-2G) and
the claims page."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse

from beano import rules
from beano.rules.claims import W2G_CITATION, Witness
from beano.rules.models import LawLimit, RefusedAction
from games import claims_services as services
from games import payout_services
from games.claims_services import PlayerEntry
from games.models import (
    BallCall,
    CardVerification,
    Claim,
    DrawVerification,
    Payout,
    PrizePart,
    Winner,
)
from games.payout_services import W2GDetails
from games.sealed import unseal
from organizations.models import AuditEvent, DirectorAuthorization
from organizations.worker_services import add_to_worker_list
from tests.conftest import PASSWORD, WINNING_CORNERS, at_night, login, on_floor

WITNESS = [Witness("Rose Medeiros", "12")]


@pytest.fixture(autouse=True)
def _verifier_on_the_floor(request, tenant):
    """The payouts' verifier (the head) is signed in on the floor of the night, as a second
    person must be; they confirm with their own password."""
    if "game_in_play" in request.fixturenames:
        on_floor(tenant.head, request.getfixturevalue("game_in_play").occasion)


D = Decimal


def new_claim(game, by, **changes):
    values = {
        "game": game,
        "part": game.parts.get(),
        "ball_in_hand": None,
        "calling_begun": False,
        "player_name": "Ann Pires",
        "table": "3",
        "by": by,
    }
    values.update(changes)
    return services.record_claim(**values)


def verified(claim, by, numbers=None):
    return services.verify_card(
        claim=claim, numbers=numbers or WINNING_CORNERS, witnesses=WITNESS, by=by
    )


# Claims and which balls count (6)(a)


def test_it_records_a_claim_on_the_last_ball_called(claim, game_in_play):
    assert claim.claimed_at == at_night(game_in_play.occasion, 23, 0)  # the pinned clock
    event = AuditEvent.objects.filter(action="games.claim.recorded").get()
    assert event.new_values["call"] == "G47 (ball 6)"


def test_a_ball_in_hand_not_yet_begun_does_not_count(game_in_play, tenant):
    # Mary's O5 is 74, the ball the caller had removed but not begun to call.
    claim = new_claim(game_in_play, tenant.worker, ball_in_hand=74)
    card = verified(claim, tenant.member_in_charge, WINNING_CORNERS | {"O5": 74})
    assert not card.valid
    assert {r["code"] for r in card.reasons} == {"C-6A-BALL-NOT-COUNTED", "C-6E-ARRANGEMENT"}


def test_a_ball_in_hand_whose_calling_had_begun_counts(game_in_play, tenant):
    claim = new_claim(game_in_play, tenant.worker, ball_in_hand=74, calling_begun=True)
    card = verified(claim, tenant.member_in_charge, WINNING_CORNERS | {"O5": 74})
    assert card.valid and card.reasons == []


def test_it_refuses_a_ball_in_hand_already_called_and_logs_the_refusal(game_in_play, tenant):
    with pytest.raises(rules.RuleViolation) as refused:
        new_claim(game_in_play, tenant.worker, ball_in_hand=61)
    assert refused.value.citations == ["961 CMR 3.04(6)(a)"]
    assert not Claim.objects.exists()
    assert RefusedAction.objects.get().action == "game.record_claim"


def test_it_refuses_a_claim_of_a_prize_not_announced(game_in_play, tenant):
    PrizePart.objects.update(announced_at=None)
    with pytest.raises(rules.RuleViolation) as refused:
        new_claim(game_in_play, tenant.worker)
    assert refused.value.citations == ["961 CMR 3.04(6)(b)"]


def test_no_claim_when_the_game_is_not_in_play(game_in_play, tenant):
    type(game_in_play).objects.filter(pk=game_in_play.pk).update(status="finished")
    with pytest.raises(ValidationError):
        new_claim(game_in_play, tenant.worker)
    assert not Claim.objects.exists()


def test_a_voided_call_does_not_count(claim, tenant):
    BallCall.objects.filter(number=75).update(voided_at=at_night(claim.game.occasion, 18, 59))
    card = verified(claim, tenant.member_in_charge)
    assert not card.valid
    assert "75 (O5) was not drawn." in [r["message"] for r in card.reasons]


# Verifications (6)(d), (6)(e)


def test_the_draw_verification_keeps_what_was_shown(claim, tenant):
    row = services.verify_draw(
        claim=claim,
        member_in_charge="Ann Silva",
        witnesses=["Rose Medeiros"],
        requested_by="Joe Dias",
        by=tenant.member_in_charge,
    )
    assert row.numbers_drawn == [5, 61, 33, 12, 75, 47]
    assert len(row.balls_remaining) == 69 and 47 not in row.balls_remaining


def test_the_draw_is_not_verified_before_the_winner_alone(claim, tenant):
    with pytest.raises(rules.RuleViolation) as refused:
        services.verify_draw(
            claim=claim, member_in_charge="Ann Silva", witnesses=["Mary Costa"], by=tenant.head
        )
    assert refused.value.citations == ["961 CMR 3.04(6)(d)"]


def test_a_card_is_not_verified_before_a_witness_at_the_winners_table(claim, tenant):
    with pytest.raises(rules.RuleViolation) as refused:
        services.verify_card(
            claim=claim,
            numbers=WINNING_CORNERS,
            witnesses=[Witness("Rose Medeiros", "7")],
            by=tenant.member_in_charge,
        )
    assert refused.value.citations == ["961 CMR 3.04(6)(e)"]
    assert not CardVerification.objects.exists()


def test_an_invalid_card_is_recorded_with_its_reasons(claim, tenant):
    card = verified(claim, tenant.member_in_charge, {"B1": 20, "O1": 61, "B5": 12, "O5": 70})
    assert not card.valid
    codes = {r["code"] for r in card.reasons}
    assert codes == {"C-6E-CARD-COLUMNS", "C-6E-NUMBERS-DRAWN", "C-6E-ARRANGEMENT"}


# Winners and the split (6)(f), (1)(h)


def two_claims_on_g47(game_in_play, tenant):
    first = new_claim(game_in_play, tenant.worker, player_name="Mary Costa", table="7")
    second = new_claim(game_in_play, tenant.worker, player_name="Ann Pires", table="3")
    for c in (first, second):
        verified(c, tenant.member_in_charge)
    return first, second


def test_two_winners_on_the_same_call_share_75_as_38_and_37(game_in_play, tenant):
    first, second = two_claims_on_g47(game_in_play, tenant)
    winners = services.record_winners(
        claims=[second, first],
        players=[PlayerEntry("Ann Pires"), PlayerEntry("Mary Costa")],
        by=tenant.member_in_charge,
    )
    assert [(w.player_name, w.share) for w in winners] == [
        ("Mary Costa", D("38.00")),
        ("Ann Pires", D("37.00")),
    ]
    assert sum(w.share for w in winners) == D("75.00")


def test_a_later_winner_cannot_be_added_to_an_awarded_prize(game_in_play, tenant, winner):
    later = new_claim(game_in_play, tenant.worker)
    verified(later, tenant.member_in_charge)
    with pytest.raises(rules.RuleViolation) as refused:
        services.record_winners(
            claims=[later], players=[PlayerEntry("Ann Pires")], by=tenant.member_in_charge
        )
    assert refused.value.citations == ["961 CMR 3.04(6)(f)"]
    assert Winner.objects.count() == 1


def test_claims_on_different_calls_do_not_share(game_in_play, tenant, claim):
    verified(claim, tenant.member_in_charge)
    later = new_claim(game_in_play, tenant.worker, ball_in_hand=70, calling_begun=True)
    verified(later, tenant.member_in_charge)
    with pytest.raises(rules.RuleViolation) as refused:
        services.record_winners(
            claims=[claim, later],
            players=[PlayerEntry("Mary Costa"), PlayerEntry("Ann Pires")],
            by=tenant.member_in_charge,
        )
    assert refused.value.citations == ["961 CMR 3.04(6)(f)"]


def test_no_winner_without_a_verified_card(claim, tenant):
    with pytest.raises(rules.RuleViolation) as refused:
        services.record_winners(
            claims=[claim], players=[PlayerEntry("Mary Costa")], by=tenant.member_in_charge
        )
    assert refused.value.citations == ["961 CMR 3.04(6)(e)"]


def test_merchandise_among_three_gets_equal_substitutes(game_in_play, tenant):
    PrizePart.objects.update(kind="merchandise", amount=D("100.00"), description="TV")
    claims = [new_claim(game_in_play, tenant.worker, player_name=n) for n in "ABC"]
    for c in claims:
        verified(c, tenant.member_in_charge)
    players = [PlayerEntry(n, substitute="Gift card basket") for n in "ABC"]
    winners = services.record_winners(claims=claims, players=players, by=tenant.head)
    assert [w.share for w in winners] == [D("33.33")] * 3
    assert {w.substitute_description for w in winners} == {"Gift card basket"}


@pytest.fixture
def listed_member(tenant, member, occasion):
    """``member`` on the worker list of the occasion's year, as a seller."""
    add_to_worker_list(
        organization=tenant.organization,
        year=occasion.date.year,
        person=member.person,
        roles=["seller"],
        identification="B-101",
        compensated=False,
        compensation_note="",
        good_moral_character_attested=False,
        attested_by="",
        on=dt.date(2026, 1, 5),
        by=tenant.head,
    )
    return member.person


def worker_plays(claim, tenant, person):
    verified(claim, tenant.member_in_charge)
    return services.record_winners(
        claims=[claim],
        players=[PlayerEntry(person.legal_name, person=person)],
        by=tenant.member_in_charge,
    )


def test_a_worker_on_the_list_cannot_win(claim, tenant, listed_member):
    with pytest.raises(rules.RuleViolation) as refused:
        worker_plays(claim, tenant, listed_member)
    assert refused.value.citations == ["961 CMR 3.04(1)(h)"]


def name_plays(claim, tenant, typed, **player):
    """A winner recorded by a typed name, with no person picked from the list."""
    verified(claim, tenant.member_in_charge)
    return services.record_winners(
        claims=[claim], players=[PlayerEntry(typed, **player)], by=tenant.member_in_charge
    )


@pytest.mark.parametrize("typed", ["Joseph Rebello", "REBELLO, Joseph", "  joseph  rebello "])
def test_a_listed_worker_typed_by_name_is_the_worker_and_cannot_win(
    claim, tenant, listed_member, typed
):
    """The side door: leaving "known person" empty and typing the name got a listed worker
    recorded as a winner. People are matched as people, in any order, case or spacing."""
    with pytest.raises(rules.RuleViolation) as refused:
        name_plays(claim, tenant, typed)
    assert {v.code for v in refused.value.violations} == {"W-1H-WORKER-PLAYS"}
    assert refused.value.citations == ["961 CMR 3.04(1)(h)"]
    assert not Winner.objects.exists()
    assert RefusedAction.objects.filter(citations="961 CMR 3.04(1)(h)").exists()


def test_a_name_close_to_a_listed_worker_is_resolved_by_a_person(claim, tenant, listed_member):
    with pytest.raises(rules.RuleViolation) as refused:
        name_plays(claim, tenant, "J. Rebello")
    assert {v.code for v in refused.value.violations} == {"W-1H-NAME-RESOLVED"}
    assert "may be Joseph Rebello" in refused.value.messages[0]
    [winner] = name_plays(
        claim, tenant, "J. Rebello", other_person_reason="Jane Rebello, his cousin from Dartmouth"
    )
    assert winner.person is None
    event = AuditEvent.objects.filter(action="games.winner.recorded").last()
    assert event.new_values["other_person_reason"] == "Jane Rebello, his cousin from Dartmouth"


def authorize(tenant, person, valid_to):
    return DirectorAuthorization.objects.create(
        organization=tenant.organization,
        kind="1h_worker_player",
        person=person,
        reference_number=f"MSLC-1H-{valid_to:%Y%m%d}",
        subject="Worker may play",
        valid_from=dt.date(2026, 1, 1),
        valid_to=valid_to,
    )


def test_a_worker_wins_under_a_valid_authorization_for_them(claim, tenant, listed_member):
    granted = authorize(tenant, listed_member, dt.date(2026, 12, 31))
    (won,) = worker_plays(claim, tenant, listed_member)
    assert won.authorization == granted


def test_an_expired_authorization_does_not_let_a_worker_win(claim, tenant, listed_member):
    authorize(tenant, listed_member, dt.date(2026, 11, 30))
    with pytest.raises(rules.RuleViolation):
        worker_plays(claim, tenant, listed_member)


# Payouts


def test_a_payout_submitted_twice_is_paid_once(winner, tenant):
    first = payout_services.record_payout(
        winner=winner, by=tenant.member_in_charge, verified_by=tenant.head, verifier_secret=PASSWORD
    )
    events = AuditEvent.objects.count()
    again = payout_services.record_payout(
        winner=winner, by=tenant.member_in_charge, verified_by=tenant.head, verifier_secret=PASSWORD
    )
    assert again.pk == first.pk and Payout.objects.count() == 1
    assert AuditEvent.objects.count() == events
    assert first.amount == D("75.00") and not first.w2g_required


def test_the_payer_does_not_verify_their_own_payout(winner, tenant):
    with pytest.raises(rules.RuleViolation) as refused:
        payout_services.record_payout(
            winner=winner, by=tenant.member_in_charge, verified_by=tenant.member_in_charge
        )
    assert refused.value.citations == ["961 CMR 3.04(6)(e)"]


def test_the_payout_is_the_share(winner, tenant):
    with pytest.raises(rules.RuleViolation) as refused:
        payout_services.record_payout(
            winner=winner,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
            amount=D("80"),
        )
    assert refused.value.citations == ["961 CMR 3.04(6)(f)"]


def test_the_verifier_is_of_the_organization(winner, tenant, other_tenant):
    with pytest.raises(ValidationError):
        payout_services.record_payout(
            winner=winner, by=tenant.member_in_charge, verified_by=other_tenant.head
        )


TIN = "123-45-6789"
DETAILS = W2GDetails(
    legal_name="Mary A. Costa",
    address="12 Oak St, Fairhaven MA 02719",
    tin=TIN,
    id1_kind="Driver's license",
    id1_number="S98765432",
    id2_kind="Passport",
    id2_number="P1122334",
)


@pytest.fixture
def big_win(winner):
    """The W-2G threshold lowered to $75 so this night's $75 win is a "single win" needing it."""
    LawLimit.objects.create(
        name="w2g_threshold",
        value=D("75"),
        effective_from=dt.date(2026, 12, 1),
        source="test",
        status="V",
    )
    return winner


def test_a_win_at_the_threshold_needs_the_w2g_details(big_win, tenant):
    with pytest.raises(ValidationError) as missing:
        payout_services.record_payout(
            winner=big_win,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
        )
    assert W2G_CITATION in str(missing.value)
    no_tin = W2GDetails(**{**DETAILS.__dict__, "tin": ""})
    with pytest.raises(ValidationError) as refused:
        payout_services.record_payout(
            winner=big_win,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
            w2g=no_tin,
        )
    assert "tin" in refused.value.error_dict
    assert not Payout.objects.exists()


def test_backup_withholding_stands_for_a_missing_tin(big_win, tenant):
    details = W2GDetails(**{**DETAILS.__dict__, "tin": "", "backup_withholding": True})
    payout = payout_services.record_payout(
        winner=big_win,
        by=tenant.member_in_charge,
        verified_by=tenant.head,
        verifier_secret=PASSWORD,
        w2g=details,
    )
    assert payout.backup_withholding and payout.tin_sealed == "" and payout.masked_tin == ""


def test_the_tin_is_encrypted_at_rest_and_never_audited(big_win, tenant):
    payout = payout_services.record_payout(
        winner=big_win,
        by=tenant.member_in_charge,
        verified_by=tenant.head,
        verifier_secret=PASSWORD,
        w2g=DETAILS,
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Payout._meta.db_table} WHERE id = %s", [payout.pk])
        raw = " ".join(str(v) for v in cursor.fetchone())
    for secret in ("123456789", TIN, "12345", "S98765432", "P1122334"):
        assert secret not in raw
    assert payout.masked_tin == "••••6789"
    assert unseal(Payout.objects.get().tin_sealed) == "123456789"
    events = " ".join(str(e.new_values) + str(e.old_values) for e in AuditEvent.objects.all())
    assert "6789" not in events and "S98765432" not in events
    assert "Mary A. Costa" in events


def test_the_raw_row_holds_no_run_of_the_tins_digits_but_the_last_four(big_win, tenant):
    """Read as the database stores it, column by column: no five consecutive digits of the TIN
    anywhere (nor of an ID number), and its last four only in tin_last4, for the masked display."""
    payout = payout_services.record_payout(
        winner=big_win,
        by=tenant.member_in_charge,
        verified_by=tenant.head,
        verifier_secret=PASSWORD,
        w2g=DETAILS,
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Payout._meta.db_table} WHERE id = %s", [payout.pk])
        names = [column[0] for column in cursor.description]
        row = dict(zip(names, (str(v) for v in cursor.fetchone()), strict=True))
    digits = TIN.replace("-", "")
    runs = {digits[i : i + 5] for i in range(len(digits) - 4)}
    runs |= {"98765", "87654", "76543", "65432", "11223", "12233", "22334"}
    for column, value in row.items():
        assert not any(run in value.replace("-", "") for run in runs), column
    assert [c for c, v in row.items() if "6789" in v] == ["tin_last4"]


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
    page = client.get(url("game_claims", **kwargs)).content.decode()
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


# The hours in force judge every act of play (3.04(7))


def _license_hours(game, start: dt.time, end: dt.time) -> None:
    type(game.occasion.license).objects.filter(pk=game.occasion.license_id).update(
        start_time=start, end_time=end
    )


def test_a_claim_after_the_license_hours_is_refused(game_in_play, tenant):
    _license_hours(game_in_play, dt.time(18, 30), dt.time(22, 0))
    with pytest.raises(rules.RuleViolation) as refused:
        new_claim(game_in_play, tenant.member_in_charge, at=at_night(game_in_play.occasion, 22, 5))
    assert {v.code for v in refused.value.violations} == {"H-7-LICENSE-HOURS"}
    assert not Claim.objects.exists()
    assert RefusedAction.objects.get().citations == "961 CMR 3.04(7)"


def test_a_payout_after_the_license_hours_is_refused(winner, tenant):
    _license_hours(winner.claim.game, dt.time(18, 30), dt.time(22, 0))
    with pytest.raises(rules.RuleViolation) as refused:
        payout_services.record_payout(
            winner=winner,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
            at=at_night(winner.claim.game.occasion, 22, 30),
        )
    assert refused.value.citations == ["961 CMR 3.04(7)"]
    assert not Payout.objects.exists()


def test_a_draw_verification_after_the_license_hours_is_refused(claim, tenant):
    """Live, at 11 PM (the pinned clock), on a license whose hours end at 10 PM."""
    _license_hours(claim.game, dt.time(18, 30), dt.time(22, 0))
    with pytest.raises(rules.RuleViolation) as refused:
        services.verify_draw(
            claim=claim,
            member_in_charge="Ann Silva",
            witnesses=["Rose Medeiros"],
            by=tenant.member_in_charge,
        )
    assert refused.value.citations == ["961 CMR 3.04(7)"]
    assert not DrawVerification.objects.exists()
    assert RefusedAction.objects.get().action == "game.verify_draw"


def test_a_card_verification_after_the_license_hours_is_refused(claim, tenant):
    _license_hours(claim.game, dt.time(18, 30), dt.time(22, 0))
    with pytest.raises(rules.RuleViolation) as refused:
        services.verify_card(
            claim=claim,
            numbers=WINNING_CORNERS,
            witnesses=WITNESS,
            by=tenant.member_in_charge,
        )
    assert refused.value.citations == ["961 CMR 3.04(7)"]
    assert not CardVerification.objects.exists()
    assert RefusedAction.objects.get().action == "game.verify_card"


def test_a_verification_within_the_license_hours_is_allowed(claim, tenant):
    _license_hours(claim.game, dt.time(18, 30), dt.time(23, 30))
    card = services.verify_card(
        claim=claim,
        numbers=WINNING_CORNERS,
        witnesses=WITNESS,
        by=tenant.member_in_charge,
    )
    assert card.valid

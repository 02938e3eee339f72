"""Claims, verifications, winners and payouts: the services (961 CMR 3.04(6), (1)(h); W-2G) and
the claims page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from beano import rules
from beano.rules.claims import Witness
from beano.rules.models import RefusedAction
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
from organizations.models import AuditEvent, DirectorAuthorization
from organizations.worker_services import add_to_worker_list
from tests.conftest import PASSWORD
from tests.fixtures.games import WINNING_CORNERS, at_night
from tests.games.claims_helpers import (
    WITNESS,
    D,
    _verifier_on_the_floor,  # noqa: F401  (autouse)
    new_claim,
    two_claims_on_g47,
    verified,
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

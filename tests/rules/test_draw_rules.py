"""961 CMR 3.04(6)(a), the drawing of numbers, as pure rules: plain facts in, cited violations
out. No database: the limits are given, not read. None of these rules is waivable: 3.04(6)(a)
leaves the Director no room to authorize otherwise."""

from __future__ import annotations

import datetime as dt

import pytest

from beano import rules
from beano.rules import AuthorizationFact, AuthorizationKind, Limits
from beano.rules.catalog import ACTION_LABELS
from beano.rules.draw import (
    CALL,
    CORRECT,
    BallCallFacts,
    CorrectionFacts,
    DrawGameFacts,
)

DAY = dt.date(2026, 12, 4)
NO_LIMITS = Limits(on=DAY)
CITATION = "961 CMR 3.04(6)(a)"

IN_PLAY = DrawGameFacts(game_number=3, started=True, finished=False)
PLANNED = DrawGameFacts(game_number=3, started=False, finished=False)
OVER = DrawGameFacts(game_number=3, started=True, finished=True)


def ball(number: int, letter: str = "", already: int | None = None) -> BallCallFacts:
    return BallCallFacts(number=number, letter=letter, already_called_as=already)


def correction(reason: str = "Keyed 41 for N42", voided: bool = False) -> CorrectionFacts:
    return CorrectionFacts(sequence=7, number=41, already_voided=voided, reason=reason)


def judge(action: str, *facts: object, authorizations: tuple = ()) -> rules.Decision:
    return rules.judge(action, list(facts), on=DAY, authorizations=authorizations, limits=NO_LIMITS)


def refused(decision: rules.Decision) -> dict[str, str]:
    return {v.code: v.citation for v in decision.violations}


def test_every_draw_rule_cites_6a_and_no_director_may_waive_it():
    draw_rules = [r for r in rules.all_rules() if r.code.startswith("D-6A-")]
    assert {r.code for r in draw_rules} == {
        "D-6A-GAME-IN-PLAY",
        "D-6A-GAME-CONCLUDED",
        "D-6A-ONE-OF-75",
        "D-6A-LETTER-MATCHES",
        "D-6A-NOT-RETURNED",
        "D-6A-CORRECTION-REASON",
        "D-6A-CORRECTION-ONCE",
    }
    assert {r.citation for r in draw_rules} == {CITATION}
    assert not any(r.waivable for r in draw_rules)
    assert CALL in ACTION_LABELS and CORRECT in ACTION_LABELS


@pytest.mark.parametrize("number,letter", [(1, ""), (15, "B"), (16, "I"), (42, "N"), (75, "o")])
def test_it_allows_a_ball_of_the_75_in_a_game_in_play(number, letter):
    decision = judge(CALL, IN_PLAY, ball(number, letter))
    assert decision.allowed
    assert "D-6A-NOT-RETURNED" in decision.checked


@pytest.mark.parametrize("number", [0, 76, 99, 1000])
def test_it_refuses_a_number_that_is_no_ball(number):
    decision = judge(CALL, IN_PLAY, ball(number))
    assert refused(decision) == {"D-6A-ONE-OF-75": CITATION}
    assert str(decision.violations[0]).startswith(f"{CITATION}: {number} is not a ball")


def test_it_refuses_a_letter_that_is_not_the_numbers():
    decision = judge(CALL, IN_PLAY, ball(42, "B"))
    assert refused(decision) == {"D-6A-LETTER-MATCHES": CITATION}
    assert "42 is N42" in decision.violations[0].message


def test_it_refuses_a_ball_called_twice_in_a_game():
    decision = judge(CALL, IN_PLAY, ball(42, "N", already=5))
    assert refused(decision) == {"D-6A-NOT-RETURNED": CITATION}
    assert "N42 was already called in this game (call #5)" in decision.violations[0].message


def test_it_refuses_a_ball_in_a_game_not_begun():
    decision = judge(CALL, PLANNED, ball(42))
    assert refused(decision) == {"D-6A-GAME-IN-PLAY": CITATION}
    assert "Game 3 has not begun" in decision.violations[0].message


@pytest.mark.parametrize("action,facts", [(CALL, ball(42)), (CORRECT, correction())])
def test_nothing_is_called_or_corrected_once_the_game_has_its_winner(action, facts):
    decision = judge(action, OVER, facts)
    assert refused(decision) == {"D-6A-GAME-CONCLUDED": CITATION}


def test_it_allows_a_correction_with_its_reason():
    assert judge(CORRECT, IN_PLAY, correction()).allowed


@pytest.mark.parametrize("reason", ["", "   "])
def test_it_refuses_a_correction_without_a_reason(reason):
    decision = judge(CORRECT, IN_PLAY, correction(reason))
    assert refused(decision) == {"D-6A-CORRECTION-REASON": CITATION}
    assert "Say why call #7 (N41) is corrected" in decision.violations[0].message


def test_it_refuses_voiding_a_call_twice():
    decision = judge(CORRECT, IN_PLAY, correction(voided=True))
    assert refused(decision) == {"D-6A-CORRECTION-ONCE": CITATION}


def test_every_violation_is_reported_at_once():
    decision = judge(CALL, OVER, ball(42, "G", already=2))
    assert set(refused(decision)) == {
        "D-6A-GAME-CONCLUDED",
        "D-6A-LETTER-MATCHES",
        "D-6A-NOT-RETURNED",
    }


def test_no_authorization_waives_a_ball_called_twice():
    """Not even a valid authorization of the Director's: (6)(a) gives no such power."""
    letter = AuthorizationFact(
        pk=1,
        kind=AuthorizationKind.WINNING_ARRANGEMENT,
        reference="MSLC-TEST-0001",
        valid_from=dt.date(2025, 1, 1),
        valid_to=None,
    )
    decision = judge(CALL, IN_PLAY, ball(42, already=1), authorizations=(letter,))
    assert refused(decision) == {"D-6A-NOT-RETURNED": CITATION}
    assert decision.waivers == []

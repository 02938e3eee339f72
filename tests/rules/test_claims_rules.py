"""961 CMR 3.04(6)(a), (b), (d), (e), (f), (i) and (1)(h) for claims and winners, judged as pure
rules: no database, the figures passed in."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

import pytest

from beano import rules
from beano.rules import AuthorizationFact, AuthorizationKind, Limits
from beano.rules.cards import COMMON_ARRANGEMENTS
from beano.rules.catalog import ACTION_LABELS
from beano.rules.claims import (
    CARD_RESULT,
    RECORD_CLAIM,
    RECORD_PAYOUT,
    SHARE_PRIZE,
    VERIFY_CARD,
    VERIFY_DRAW,
    CardFacts,
    CardWitnessFacts,
    ClaimFacts,
    DrawVerificationFacts,
    PayoutFacts,
    SplitFacts,
    WinningClaimFacts,
    Witness,
    balls_that_count,
    needs_w2g,
)
from beano.rules.money import equal_substitute_value, split_to_the_dollar
from beano.rules.workers import RECORD_WINNER, PlayerFacts

ON = dt.date(2026, 12, 4)
LIMITS = Limits(on=ON, values={})
D = Decimal


def judge(action: str, facts: object, **kwargs: object) -> rules.Decision:
    return rules.judge(action, facts, on=ON, limits=LIMITS, **kwargs)


def refused_by(action: str, facts: object, **kwargs: object) -> dict[str, str]:
    return {v.code: v.citation for v in judge(action, facts, **kwargs).violations}


def messages(action: str, facts: object) -> list[str]:
    return [v.message for v in judge(action, facts).violations]


# (6)(a): which balls count


def test_a_ball_whose_calling_had_begun_counts():
    assert balls_that_count((5, 22), 40, calling_begun=True) == (5, 22, 40)


def test_a_ball_removed_but_not_yet_begun_does_not_count():
    assert balls_that_count((5, 22), 40, calling_begun=False) == (5, 22)


def test_a_ball_keyed_in_but_not_begun_when_claimed_does_not_count():
    assert balls_that_count((5, 22, 40), 40, calling_begun=False) == (5, 22)


CLAIM = ClaimFacts(
    called_before=(5, 22, 40),
    ball_in_hand=None,
    calling_begun=False,
    part_announced=True,
    part_label="Prize 1 (Four corners)",
    player="Mary Costa",
    table="7",
)


def test_it_allows_a_claim_between_balls_and_with_a_ball_in_hand():
    assert judge(RECORD_CLAIM, CLAIM).allowed
    assert judge(RECORD_CLAIM, replace(CLAIM, ball_in_hand=61)).allowed
    assert judge(RECORD_CLAIM, replace(CLAIM, ball_in_hand=61, calling_begun=True)).allowed
    # The console keyed the ball in as its calling began.
    assert judge(RECORD_CLAIM, replace(CLAIM, ball_in_hand=40, calling_begun=True)).allowed


def test_it_refuses_a_ball_in_hand_that_was_called_before():
    facts = replace(CLAIM, ball_in_hand=22)
    assert refused_by(RECORD_CLAIM, facts) == {"C-6A-BALL-IN-HAND": "961 CMR 3.04(6)(a)"}
    assert "I22 was called earlier" in messages(RECORD_CLAIM, facts)[0]


def test_it_refuses_a_keyed_in_ball_said_not_begun():
    facts = replace(CLAIM, ball_in_hand=40, calling_begun=False)
    assert refused_by(RECORD_CLAIM, facts) == {"C-6A-BALL-IN-HAND": "961 CMR 3.04(6)(a)"}


def test_it_refuses_calling_begun_without_a_ball():
    facts = replace(CLAIM, calling_begun=True)
    assert refused_by(RECORD_CLAIM, facts) == {"C-6A-BALL-IN-HAND": "961 CMR 3.04(6)(a)"}


def test_it_refuses_a_claim_of_a_prize_not_announced():
    facts = replace(CLAIM, part_announced=False)
    assert refused_by(RECORD_CLAIM, facts) == {"C-6B-PART-ANNOUNCED": "961 CMR 3.04(6)(b)"}


def test_a_claim_says_who_made_it_by_name_or_by_table():
    """Issue 39: "#1 Player", no name and no table, was recorded; its card could then be
    verified before anyone, since no one's table is the winner's (3.04(6)(e))."""
    assert judge(RECORD_CLAIM, replace(CLAIM, table="")).allowed
    assert judge(RECORD_CLAIM, replace(CLAIM, player="")).allowed
    for player, table in (("", ""), ("  ", " ")):
        facts = replace(CLAIM, player=player, table=table)
        assert refused_by(RECORD_CLAIM, facts) == {"C-6E-CLAIMANT": "961 CMR 3.04(6)(e)"}
        assert messages(RECORD_CLAIM, facts) == [
            "Give the player's name or their table: the card is verified "
            "before players at another table, and the prize is paid to the player who claimed it."
        ]


# (6)(d) and (6)(e): witnesses


def test_the_draw_is_verified_before_the_member_in_charge_and_another_player():
    facts = DrawVerificationFacts("Ann Silva", ("Rose Medeiros",), ("Mary Costa",))
    assert judge(VERIFY_DRAW, facts).allowed
    assert refused_by(VERIFY_DRAW, replace(facts, member_in_charge=" ")) == {
        "C-6D-WITNESSES": "961 CMR 3.04(6)(d)"
    }
    assert not judge(VERIFY_DRAW, replace(facts, witnesses=())).allowed
    assert not judge(VERIFY_DRAW, replace(facts, witnesses=("mary  COSTA",))).allowed


def test_the_winner_written_another_way_is_not_another_player():
    """Issue 14: the winner is matched as a person ("Costa, Mary"), not as a string."""
    facts = DrawVerificationFacts("Ann Silva", ("Costa, Mary",), ("Mary Costa",))
    assert refused_by(VERIFY_DRAW, facts) == {"C-6D-WITNESSES": "961 CMR 3.04(6)(d)"}
    card = CardWitnessFacts((Witness("COSTA,  mary", "12"),), "Mary Costa", "7")
    assert refused_by(VERIFY_CARD, card) == {"C-6E-WITNESSES": "961 CMR 3.04(6)(e)"}


def test_a_card_is_verified_before_a_player_at_another_table():
    facts = CardWitnessFacts((Witness("Rose Medeiros", "12"),), "Mary Costa", "7")
    assert judge(VERIFY_CARD, facts).allowed
    for witnesses in ((), (Witness("Rose Medeiros", "7"),), (Witness("Rose Medeiros", ""),)):
        assert refused_by(VERIFY_CARD, replace(facts, witnesses=witnesses)) == {
            "C-6E-WITNESSES": "961 CMR 3.04(6)(e)"
        }
    assert not judge(VERIFY_CARD, replace(facts, witnesses=(Witness("Mary Costa", "12"),))).allowed


# (6)(e) and (6)(i): the winning card

CORNERS = tuple(tuple(v) for v in COMMON_ARRANGEMENTS["four_corners"][1])
CARD = CardFacts(
    numbers=(("B1", 5), ("O1", 61), ("B5", 12), ("O5", 75)),
    counted=(5, 61, 33, 12, 75, 47),
    not_counted_in_hand=None,
    arrangement="Four corners",
    variants=CORNERS,
)


def test_a_card_covering_the_arrangement_is_valid_even_if_not_on_the_last_number():
    # (6)(i): G47 was the last ball called and is not on the card.
    assert judge(CARD_RESULT, CARD).allowed


def test_a_number_outside_its_column_is_invalid():
    facts = replace(CARD, numbers=(("B1", 20), ("O1", 61), ("B5", 12), ("O5", 75)))
    assert "C-6E-CARD-COLUMNS" in refused_by(CARD_RESULT, facts)
    assert "20 cannot be in column B (B1)." in messages(CARD_RESULT, facts)


def test_a_number_twice_or_the_free_centre_or_no_square_is_invalid():
    twice = replace(CARD, numbers=(("B1", 5), ("B2", 5), ("O1", 61), ("B5", 12), ("O5", 75)))
    assert refused_by(CARD_RESULT, twice) == {"C-6E-CARD-COLUMNS": "961 CMR 3.04(6)(e)"}
    free = replace(CARD, numbers=(*CARD.numbers, ("N3", 40)))
    assert refused_by(CARD_RESULT, free) == {"C-6E-CARD-COLUMNS": "961 CMR 3.04(6)(e)"}
    assert "C-6E-CARD-COLUMNS" in refused_by(CARD_RESULT, replace(CARD, numbers=(("Z9", 1),)))


def test_a_number_not_drawn_is_invalid():
    facts = replace(CARD, counted=(5, 61, 12))
    assert refused_by(CARD_RESULT, facts) == {
        "C-6E-NUMBERS-DRAWN": "961 CMR 3.04(6)(e)",
        "C-6E-ARRANGEMENT": "961 CMR 3.04(6)(e)",
    }
    assert "75 (O5) was not drawn." in messages(CARD_RESULT, facts)


def test_squares_not_completing_the_arrangement_are_invalid():
    facts = replace(
        CARD, numbers=(("B1", 5), ("O1", 61), ("B5", 12), ("B4", 11)), counted=(5, 61, 12, 11)
    )
    assert refused_by(CARD_RESULT, facts) == {"C-6E-ARRANGEMENT": "961 CMR 3.04(6)(e)"}


def test_the_ball_in_hand_not_yet_called_does_not_complete_the_card():
    facts = replace(CARD, counted=(5, 61, 12, 47), not_counted_in_hand=75)
    assert refused_by(CARD_RESULT, facts) == {
        "C-6A-BALL-NOT-COUNTED": "961 CMR 3.04(6)(a)",
        "C-6E-ARRANGEMENT": "961 CMR 3.04(6)(e)",
    }
    # Had its calling begun, it would have counted.
    assert judge(CARD_RESULT, replace(CARD, counted=(5, 61, 12, 47, 75))).allowed


#: A whole card, typed row by row; row 2 (7, 22, 38, 52, 70) is covered by the balls below.
WHOLE = (
    ("B1", 3), ("I1", 17), ("N1", 33), ("G1", 49), ("O1", 62),
    ("B2", 7), ("I2", 22), ("N2", 38), ("G2", 52), ("O2", 70),
    ("B3", 9), ("I3", 25), ("G3", 55), ("O3", 66),
    ("B4", 11), ("I4", 28), ("N4", 41), ("G4", 58), ("O4", 73),
    ("B5", 14), ("I5", 30), ("N5", 44), ("G5", 60), ("O5", 75),
)  # fmt: skip
LINES = tuple(tuple(v) for v in COMMON_ARRANGEMENTS["single_line"][1])
ANY_LINE = replace(
    CARD,
    numbers=WHOLE,
    counted=(1, 3, 20, 7, 22, 25, 35, 38, 47, 52, 65, 70),
    arrangement="Any single line",
    variants=LINES,
)


def test_a_whole_card_typed_for_any_line_is_judged_as_the_whole_card():
    """Issue 39: typing all 24 squares for "any single line" gave "Card invalid", one line "…
    was not drawn" for each square off the line. A whole card is judged as a whole card, by
    what was typed: its numbers not drawn are simply not covered."""
    assert ANY_LINE.whole_card
    assert judge(CARD_RESULT, ANY_LINE).allowed


def test_a_whole_card_without_the_arrangement_covered_is_still_invalid():
    facts = replace(ANY_LINE, counted=(1, 3, 20, 7, 22, 25, 35, 38, 47, 65, 70))  # no G52
    assert refused_by(CARD_RESULT, facts) == {"C-6E-ARRANGEMENT": "961 CMR 3.04(6)(e)"}


def test_a_whole_card_completed_by_the_ball_in_hand_not_yet_called_is_invalid():
    facts = replace(
        ANY_LINE, counted=(1, 3, 20, 7, 22, 25, 35, 38, 47, 65, 70), not_counted_in_hand=52
    )
    assert set(refused_by(CARD_RESULT, facts)) == {"C-6A-BALL-NOT-COUNTED", "C-6E-ARRANGEMENT"}
    assert "G52 (G2) was in the caller's hand" in messages(CARD_RESULT, facts)[0]
    # The ball in hand on a square the arrangement does not need is no reason.
    beside = replace(ANY_LINE, not_counted_in_hand=75)
    assert judge(CARD_RESULT, beside).allowed


def test_a_whole_card_with_a_number_outside_its_column_is_invalid():
    facts = replace(ANY_LINE, numbers=(("B1", 20), *WHOLE[1:]))
    assert refused_by(CARD_RESULT, facts) == {"C-6E-CARD-COLUMNS": "961 CMR 3.04(6)(e)"}


def test_the_lines_squares_alone_are_judged_as_the_arrangements_squares():
    line = tuple(sn for sn in WHOLE if sn[0].endswith("2"))
    facts = replace(ANY_LINE, numbers=line)
    assert not facts.whole_card and judge(CARD_RESULT, facts).allowed
    wrong = replace(facts, numbers=(*line[:4], ("O2", 71)))
    assert refused_by(CARD_RESULT, wrong) == {
        "C-6E-NUMBERS-DRAWN": "961 CMR 3.04(6)(e)",
        "C-6E-ARRANGEMENT": "961 CMR 3.04(6)(e)",
    }
    assert "71 (O2) was not drawn." in messages(CARD_RESULT, wrong)


def test_a_card_typed_all_but_one_square_is_judged_as_the_arrangements_squares():
    """Fewer than the whole card's 24 squares are the arrangement's squares: each must have
    been drawn. Many more than the arrangement needs is said once, not square by square."""
    facts = replace(ANY_LINE, numbers=WHOLE[:-1])
    assert not facts.whole_card
    assert refused_by(CARD_RESULT, facts) == {"C-6E-NUMBERS-DRAWN": "961 CMR 3.04(6)(e)"}
    assert messages(CARD_RESULT, facts) == [
        "23 squares were read: more than the arrangement's 5, fewer than "
        "the whole card's 24. Read only the arrangement's squares, each of which must have been "
        "drawn, or all 24 of the card. Not drawn: 17 (I1), 33 (N1), 49 (G1), 62 (O1), 9 (B3) "
        "and 11 more."
    ]


# (6)(f): the split


@pytest.mark.parametrize(
    "amount,winners,shares",
    [
        ("100", 3, ["34", "33", "33"]),
        ("75", 2, ["38", "37"]),
        ("200", 7, ["29", "29", "29", "29", "28", "28", "28"]),
        ("50", 1, ["50"]),
        ("75.50", 2, ["38", "37.50"]),
        ("2", 3, ["1", "1", "0"]),
    ],
)
def test_the_prize_is_divided_to_the_dollar_and_never_more(amount, winners, shares):
    split = split_to_the_dollar(D(amount), winners)
    assert split == [D(s) for s in shares]
    assert sum(split) == D(amount)
    assert max(split) - min(split) <= 1
    assert all(abs(s - D(amount) / winners) < 1 for s in split)


def test_a_split_needs_a_winner():
    with pytest.raises(ValueError):
        split_to_the_dollar(D("75"), 0)


SPLIT = SplitFacts(
    prize_kind="cash",
    prize_amount=D("75"),
    calls=("G52 (ball 23)", "G52 (ball 23)"),
    shares=(D("38"), D("37")),
    substitutes=("", ""),
    already_awarded=False,
)


def test_two_winners_on_the_same_call_share_75_as_38_and_37():
    assert judge(SHARE_PRIZE, SPLIT).allowed


def test_it_refuses_other_shares_such_as_38_each():
    facts = replace(SPLIT, shares=(D("38"), D("38")))
    assert refused_by(SHARE_PRIZE, facts) == {"C-6F-EQUAL-DIVISION": "961 CMR 3.04(6)(f)"}
    assert "$75 among 2 is divided $38.00 + $37.00." in messages(SHARE_PRIZE, facts)


def test_it_refuses_claims_on_different_calls_or_a_prize_already_awarded():
    facts = replace(SPLIT, calls=("G52 (ball 23)", "O70 (ball 24)"))
    assert refused_by(SHARE_PRIZE, facts) == {"C-6F-SAME-CALL": "961 CMR 3.04(6)(f)"}
    assert refused_by(SHARE_PRIZE, replace(SPLIT, already_awarded=True)) == {
        "C-6F-SAME-CALL": "961 CMR 3.04(6)(f)"
    }


MERCHANDISE = replace(
    SPLIT,
    prize_kind="merchandise",
    prize_amount=D("100"),
    calls=("B5 (ball 9)",) * 3,
    shares=(D("33.33"),) * 3,
    substitutes=("Gift basket", "Gift basket", "Gift basket"),
)


def test_merchandise_among_several_is_equal_substitutes_not_over_the_prize():
    assert equal_substitute_value(D("100"), 3) == D("33.33")
    assert judge(SHARE_PRIZE, MERCHANDISE).allowed
    assert judge(SHARE_PRIZE, replace(MERCHANDISE, shares=(D("30"),) * 3)).allowed


@pytest.mark.parametrize(
    "changes,text",
    [
        ({"shares": (D("34"), D("33"), D("33"))}, "equal value"),
        ({"shares": (D("34"),) * 3}, "more than the $100 prize"),
        ({"substitutes": ("Gift basket", "", "Gift basket")}, "Describe the substitute"),
    ],
)
def test_it_refuses_unequal_excessive_or_undescribed_substitutes(changes, text):
    facts = replace(MERCHANDISE, **changes)
    assert refused_by(SHARE_PRIZE, facts) == {"C-6F-EQUAL-DIVISION": "961 CMR 3.04(6)(f)"}
    assert any(text in m for m in messages(SHARE_PRIZE, facts))


def test_one_winner_of_merchandise_gets_the_prize_itself():
    facts = replace(MERCHANDISE, calls=("B5",), shares=(D("100"),), substitutes=("",))
    assert judge(SHARE_PRIZE, facts).allowed


# Recording a winner: (6)(e) card verified; (1)(h) workers do not play

WORKER = PlayerFacts(person_id=7, name="Linda Souza", on_worker_list=True)
VERIFIED = WinningClaimFacts(player="Linda Souza", card_verified_valid=True)


def permit(**changes: object) -> AuthorizationFact:
    base = AuthorizationFact(
        pk=3,
        kind=AuthorizationKind.WORKER_AS_PLAYER,
        reference="MSLC-1H-0003",
        valid_from=dt.date(2026, 1, 1),
        valid_to=dt.date(2026, 12, 31),
        person_id=7,
    )
    return replace(base, **changes)


def test_a_winner_needs_a_card_verified_as_winning():
    stranger = replace(WORKER, person_id=0, on_worker_list=False)
    assert judge(RECORD_WINNER, [stranger, VERIFIED]).allowed
    refused = refused_by(RECORD_WINNER, [stranger, replace(VERIFIED, card_verified_valid=False)])
    assert refused == {"C-6E-CARD-VERIFIED": "961 CMR 3.04(6)(e)"}


def test_a_worker_on_the_list_cannot_win():
    assert refused_by(RECORD_WINNER, [WORKER, VERIFIED]) == {
        "W-1H-WORKER-PLAYS": "961 CMR 3.04(1)(h)"
    }


def test_a_workers_win_is_waived_by_a_valid_authorization_for_that_person():
    decision = judge(RECORD_WINNER, [WORKER, VERIFIED], authorizations=[permit()])
    assert decision.allowed
    assert [w.code for w in decision.waivers] == ["W-1H-WORKER-PLAYS"]


@pytest.mark.parametrize(
    "changes",
    [
        {"valid_to": dt.date(2026, 11, 30)},  # expired before the night
        {"revoked_on": dt.date(2026, 12, 1)},
        {"person_id": 8},  # another person's
        {"kind": AuthorizationKind.WINNING_ARRANGEMENT, "person_id": None},
    ],
)
def test_an_expired_or_someone_elses_authorization_does_not_waive_it(changes):
    decision = judge(RECORD_WINNER, [WORKER, VERIFIED], authorizations=[permit(**changes)])
    assert {v.code for v in decision.violations} == {"W-1H-WORKER-PLAYS"}


# Payouts

PAYOUT = PayoutFacts(paid_by_id=1, verified_by_id=2, amount=D("37"), share=D("37"))


def test_a_payout_is_the_share_verified_by_another_person():
    assert judge(RECORD_PAYOUT, PAYOUT).allowed
    assert refused_by(RECORD_PAYOUT, replace(PAYOUT, verified_by_id=1)) == {
        "C-6E-PAYOUT-VERIFIED": "961 CMR 3.04(6)(e)"
    }
    assert refused_by(RECORD_PAYOUT, replace(PAYOUT, verified_by_id=None)) == {
        "C-6E-PAYOUT-VERIFIED": "961 CMR 3.04(6)(e)"
    }
    assert refused_by(RECORD_PAYOUT, replace(PAYOUT, amount=D("38"))) == {
        "C-6F-PAYOUT-SHARE": "961 CMR 3.04(6)(f)"
    }


def test_every_claims_action_has_a_label_and_its_rules_cite_3_04():
    for action in (RECORD_CLAIM, VERIFY_DRAW, VERIFY_CARD, CARD_RESULT, SHARE_PRIZE, RECORD_PAYOUT):
        assert action in ACTION_LABELS
        assert all(r.citation.startswith("961 CMR 3.04(") for r in rules.rules_for(action))


@pytest.mark.parametrize(
    "share,threshold,needed",
    [("1199.99", "1200", False), ("1200", "1200", True), ("5000", None, False)],
)
def test_a_single_win_at_or_above_the_threshold_needs_form_w2g(share, threshold, needed):
    assert needs_w2g(D(share), None if threshold is None else D(threshold)) is needed


def test_a_paused_verifier_is_told_until_when():
    import datetime as dt
    from zoneinfo import ZoneInfo

    ends = dt.datetime(2026, 12, 4, 21, 42, tzinfo=ZoneInfo("America/New_York"))
    decision = judge(RECORD_PAYOUT, replace(PAYOUT, verifier_paused_until=ends))
    assert [v.code for v in decision.violations] == ["C-6E-PAYOUT-VERIFIED"]
    assert "paused until 9:42 PM" in decision.violations[0].message

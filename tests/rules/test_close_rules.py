"""961 CMR 3.04(6)(f) at the close: the designated prize is awarded, so a night does not close
with a winner owed. Judged as a pure rule: no database, the facts passed in."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from beano import rules
from beano.rules import AuthorizationFact, AuthorizationKind, Limits
from beano.rules.catalog import ACTION_LABELS
from beano.rules.close import CLOSE_PRIZES, OwedPrize, PrizesOwedFacts

ON = dt.date(2026, 12, 4)
LIMITS = Limits(on=ON, values={})
D = Decimal


def judge(facts: PrizesOwedFacts, **kwargs: object) -> rules.Decision:
    return rules.judge(CLOSE_PRIZES, facts, on=ON, limits=LIMITS, **kwargs)


def test_a_night_with_every_winner_paid_closes():
    decision = judge(PrizesOwedFacts(owed=()))
    assert decision.allowed and decision.checked == ["C-6F-PAID-BY-THE-CLOSE"]


def test_an_unpaid_winner_refuses_the_close_with_its_citation():
    owed = OwedPrize(game_number=1, part_order=1, player_name="Pat Doe", share=D("50.00"))
    decision = judge(PrizesOwedFacts(owed=(owed,)))
    [violation] = decision.violations
    assert (violation.code, violation.citation) == ("C-6F-PAID-BY-THE-CLOSE", "961 CMR 3.04(6)(f)")
    assert violation.message == (
        "Pat Doe won $50.00 (prize 1 of game 1) and is not paid: record the payout first."
    )
    assert str(violation).startswith("961 CMR 3.04(6)(f): Pat Doe won $50.00")


def test_a_winner_paid_part_of_the_share_is_still_owed_the_rest():
    owed = OwedPrize(3, 2, "Ann Pires", D("38.00"), paid=D("37.00"))
    [message] = judge(PrizesOwedFacts(owed=(owed,))).messages
    assert message.endswith(
        "Ann Pires won $38.00 (prize 2 of game 3) and is paid $37.00: $1.00 is still owed."
    )


def test_each_winner_owed_is_named_once():
    owed = (
        OwedPrize(1, 1, "Pat Doe", D("25.00")),
        OwedPrize(1, 1, "", D("25.00")),
        OwedPrize(4, 1, "Mary Costa", D("75.00"), paid=D("0.00")),
    )
    messages = [v.message for v in judge(PrizesOwedFacts(owed=owed)).violations]
    assert len(messages) == 3
    assert messages[1].startswith("A winner won $25.00 (prize 1 of game 1) and is not paid")
    assert "Mary Costa won $75.00 (prize 1 of game 4) and is not paid" in messages[2]


def test_no_directors_authorization_waives_a_prize_owed():
    every_kind = [
        AuthorizationFact(i, kind, f"MSLC-{i}", dt.date(2026, 1, 1), None)
        for i, kind in enumerate(AuthorizationKind.values, start=1)
    ]
    owed = OwedPrize(1, 1, "Pat Doe", D("50.00"))
    decision = judge(PrizesOwedFacts(owed=(owed,)), authorizations=every_kind)
    assert not decision.allowed and not decision.waivers
    [rule] = rules.rules_for(CLOSE_PRIZES)
    assert rule.waiver is None and not rule.waivable


def test_the_close_as_far_as_its_prizes_go_is_in_the_catalog():
    assert CLOSE_PRIZES in ACTION_LABELS


def test_a_merchandise_prize_not_handed_over_is_owed_too():
    owed = OwedPrize(2, 1, "Bob Goods", D("30.00"), merchandise=True)
    [message] = judge(PrizesOwedFacts(owed=(owed,))).messages
    assert message == (
        "961 CMR 3.04(6)(f): Bob Goods won $30.00 in merchandise (prize 1 of game 2), not handed "
        "over: record its payout first."
    )

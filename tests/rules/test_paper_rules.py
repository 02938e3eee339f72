"""Paper by serial as pure rules (961 CMR 3.04(4)(e) and (4)(d)2): plain facts in, cited
violations out. No database: the limits are given, not read."""

from __future__ import annotations

import datetime as dt

from beano import rules
from beano.rules import Limits
from beano.rules.catalog import ACTION_LABELS
from beano.rules.paper import (
    DESTROY,
    ISSUE,
    RETURN,
    STOCK_TAKE,
    DestructionFacts,
    IssueFacts,
    PaperReconciliationFacts,
    ReturnFacts,
    StockTakeFacts,
    WitnessedFacts,
)
from beano.rules.reporting import FILE_REPORT

DAY = dt.date(2026, 12, 4)
NO_LIMITS = Limits(on=DAY)
ISSUE_OK = IssueFacts(
    description="Bonus green",
    serial_from=10_001,
    serial_to=10_100,
    purchase_from=10_001,
    purchase_to=10_500,
    on_hand=500,
)
SIGNED = WitnessedFacts(witness_named=True, witness_is_recorder=False, witness_confirmed=True)


def judge(action: str, facts: object) -> rules.Decision:
    return rules.judge(action, facts, on=DAY, limits=NO_LIMITS)


def refused_by(decision: rules.Decision) -> set[str]:
    return {v.citation for v in decision.violations}


def test_every_paper_action_is_in_the_catalog():
    for action in (ISSUE, RETURN, DESTROY, STOCK_TAKE):
        assert action in ACTION_LABELS


def test_an_issue_within_the_purchase_and_on_hand_is_allowed():
    assert judge(ISSUE, ISSUE_OK).allowed


def test_an_issue_outside_the_purchase_overlapping_or_over_on_hand_is_refused():
    cases = [
        IssueFacts(**{**ISSUE_OK.__dict__, "serial_to": 10_600}),
        IssueFacts(**{**ISSUE_OK.__dict__, "overlapping": "serials 10,050–10,150"}),
        IssueFacts(**{**ISSUE_OK.__dict__, "on_hand": 99}),
        IssueFacts(**{**ISSUE_OK.__dict__, "purchase_from": None, "purchase_to": None}),
        IssueFacts(**{**ISSUE_OK.__dict__, "serial_to": 10_000}),
    ]
    for facts in cases:
        decision = judge(ISSUE, facts)
        assert refused_by(decision) == {"961 CMR 3.04(4)(e)"}, facts


def test_an_issue_after_the_close_is_refused():
    decision = judge(ISSUE, IssueFacts(**{**ISSUE_OK.__dict__, "occasion_status": "closed"}))
    assert [v.code for v in decision.violations] == ["I-4E-ISSUE-BEFORE-CLOSE"]
    assert judge(ISSUE, IssueFacts(**{**ISSUE_OK.__dict__, "occasion_status": "open"})).allowed


def test_a_return_within_the_issue_is_allowed_and_beyond_it_refused():
    assert judge(RETURN, ReturnFacts("Bonus green", issued=100, returned=90, voided=10)).allowed
    over = judge(RETURN, ReturnFacts("Bonus green", issued=100, returned=95, voided=10))
    assert refused_by(over) == {"961 CMR 3.04(4)(e)"}
    assert "only 100 were issued" in over.violations[0].message
    early = judge(RETURN, ReturnFacts("Bonus green", 100, 90, 0, occasion_status="scheduled"))
    assert [v.code for v in early.violations] == ["I-4E-RETURN-AFTER-OPENING"]


def test_a_destruction_needs_stock_a_reason_and_a_witness_signing_for_themselves():
    ok = DestructionFacts("Bonus green", quantity=5, on_hand=10, reason="damaged", witness=SIGNED)
    assert judge(DESTROY, ok).allowed
    for changes in (
        {"quantity": 11},
        {"reason": ""},
        {"witness": WitnessedFacts(False, False, False)},
        {"witness": WitnessedFacts(True, True, True)},
        {"witness": WitnessedFacts(True, False, False)},
        {"witness": WitnessedFacts(True, False, True, witness_paused=True)},
    ):
        decision = judge(DESTROY, DestructionFacts(**{**ok.__dict__, **changes}))
        assert refused_by(decision) == {"961 CMR 3.04(4)(e)"}, changes


def test_a_stock_take_difference_needs_its_reason_and_the_witness():
    same = StockTakeFacts("Bonus green", expected=400, counted=400, reason="", witness=SIGNED)
    assert judge(STOCK_TAKE, same).allowed
    short = StockTakeFacts("Bonus green", expected=400, counted=398, reason="", witness=SIGNED)
    refused = judge(STOCK_TAKE, short)
    assert refused_by(refused) == {"961 CMR 3.04(4)(e)"}
    assert "say why they differ" in refused.violations[0].message
    explained = StockTakeFacts(
        "Bonus green", 400, 398, "Two sheets water-damaged under the sink.", SIGNED
    )
    assert judge(STOCK_TAKE, explained).allowed
    unwitnessed = StockTakeFacts(
        **{**explained.__dict__, "witness": WitnessedFacts(True, True, True)}
    )
    assert refused_by(judge(STOCK_TAKE, unwitnessed)) == {"961 CMR 3.04(4)(e)"}


def test_door_counts_and_serials_that_disagree_are_refused_at_filing_until_explained():
    disagree = PaperReconciliationFacts(played=True, disagreements=("Bonus: 7 by the door, 0",))
    refused = judge(FILE_REPORT, disagree)
    assert refused_by(refused) == {"961 CMR 3.04(4)(d)"}
    assert "explain the difference" in refused.violations[0].message
    explained = PaperReconciliationFacts(**{**disagree.__dict__, "explained": True})
    assert judge(FILE_REPORT, explained).allowed
    assert judge(FILE_REPORT, PaperReconciliationFacts(played=True)).allowed
    assert judge(FILE_REPORT, PaperReconciliationFacts(played=False, disagreements=("x",))).allowed


def test_paper_never_counted_back_is_refused_at_filing_even_when_explained():
    facts = PaperReconciliationFacts(
        played=True, not_counted_back=("Bonus green 10001–10100",), explained=True
    )
    refused = judge(FILE_REPORT, facts)
    assert refused_by(refused) == {"961 CMR 3.04(4)(d)"}
    assert "Count back the unsold paper" in refused.violations[0].message

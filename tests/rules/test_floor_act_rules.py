"""961 CMR 3.04(1)(b): every act of a night's floor is done by a worker of the list signed in on
that night's floor at the act's moment, judged as a pure rule (no database)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from beano import rules
from beano.rules import AuthorizationFact, AuthorizationKind, Limits
from beano.rules.base import REGISTRY
from beano.rules.workers import FLOOR_ACT, FloorActFacts

DAY = dt.date(2026, 12, 4)
SELLING = FloorActFacts(
    doing="selling",
    at=dt.datetime(2026, 12, 4, 19, 5),
    doer="Thomas Ferreira (post171-worker)",
    on_floor=True,
)


def judge(facts: FloorActFacts, **kwargs: object) -> rules.Decision:
    return rules.judge(FLOOR_ACT, facts, on=DAY, limits=Limits(on=DAY), **kwargs)


def refused(decision: rules.Decision) -> dict[str, str]:
    return {v.code: v.citation for v in decision.violations}


def test_a_worker_signed_in_on_the_floor_acts():
    assert judge(SELLING).allowed


def test_a_person_not_signed_in_on_the_floor_is_refused_citing_1b():
    decision = judge(replace(SELLING, on_floor=False))
    assert refused(decision) == {"W-1B-WORKER-OF-THE-NIGHT": "961 CMR 3.04(1)(b)"}
    (message,) = decision.messages
    assert message == (
        "961 CMR 3.04(1)(b): Thomas Ferreira (post171-worker) is not signed in on this night's "
        "floor at 7:05 PM; selling is only for a worker on the night's list who is signed in."
    )


def test_with_no_one_named_a_worker_of_the_night_was_on_the_floor():
    """A sheet that names no one for the act (or the system recording a past night): the act
    stands when a worker of the night was on the floor then, and is refused when none was."""
    unnamed = replace(SELLING, doer="", on_floor=False, floor_staffed=True)
    assert judge(unnamed).allowed
    decision = judge(replace(unnamed, floor_staffed=False))
    assert refused(decision) == {"W-1B-WORKER-OF-THE-NIGHT": "961 CMR 3.04(1)(b)"}
    assert "No worker of the night was signed in on the floor at 7:05 PM" in decision.messages[0]


def test_a_named_person_is_judged_even_when_the_floor_is_staffed():
    """Others on the floor do not make the person named a worker of the night."""
    decision = judge(replace(SELLING, on_floor=False, floor_staffed=True))
    assert not decision.allowed


def test_a_worker_signing_themselves_in_or_out_is_judged_by_the_list_rules_instead():
    signing_in = replace(SELLING, doing="signing in", on_floor=False, themselves=True)
    assert judge(signing_in).allowed


def test_no_directors_authorization_waives_it():
    """(1)(b) provides for none: the rule names no waiver, and an authorization of every kind
    valid that day leaves the refusal standing."""
    assert REGISTRY["W-1B-WORKER-OF-THE-NIGHT"].waiver is None
    every_kind = [
        AuthorizationFact(
            pk=n,
            kind=kind,
            valid_from=dt.date(2026, 1, 1),
            valid_to=dt.date(2026, 12, 31),
            reference=f"MSLC-{n}",
        )
        for n, kind in enumerate(AuthorizationKind, 1)
    ]
    decision = judge(replace(SELLING, on_floor=False), authorizations=every_kind)
    assert not decision.allowed
    assert not decision.waivers

"""The opening checklist (961 CMR 3.04(1), (3), (4), (9)), the hours (3.04(7)) and the floor's
sign-in, sign-out and handover rules, judged as pure rules: no database, the figures given."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

import pytest

from beano import rules
from beano.rules import Limits
from beano.rules.charge import HandoverFacts, SignOutFacts
from beano.rules.hours import HoursFacts, time_of_hour, within
from beano.rules.opening import CHECKLIST, OPEN, OpeningFacts
from beano.rules.workers import HAND_OVER, SIGN_IN, SIGN_OUT, SignInFacts

DAY = dt.date(2026, 12, 4)
NO_LIMITS = Limits(on=DAY)
ALL_CONFIRMED = OpeningFacts(
    confirmed=tuple(i.code for i in CHECKLIST),
    member_in_charge_present=True,
    price_list_posted=True,
    equipment_count=2,
)
IN_HOURS = HoursFacts(
    at=dt.time(18, 45), license_start=dt.time(18, 45), license_end=dt.time(22, 30)
)


def judge(action: str, facts: object, limits: Limits = NO_LIMITS) -> rules.Decision:
    return rules.judge(action, facts, on=DAY, limits=limits)


def refused(decision: rules.Decision) -> dict[str, str]:
    return {v.code: v.citation for v in decision.violations}


def test_the_checklist_has_one_rule_per_item_each_with_its_own_citation():
    guarding = {r.code: r for r in rules.rules_for(OPEN)}
    for item in CHECKLIST:
        assert guarding[item.rule_code].citation == item.citation
    assert len({i.citation for i in CHECKLIST}) == len(CHECKLIST)
    assert {i.citation for i in CHECKLIST} == {
        "961 CMR 3.04(1)(a)",
        "961 CMR 3.04(1)(b)",
        "961 CMR 3.04(3)(a)",
        "961 CMR 3.04(3)(b)",
        "961 CMR 3.04(3)(c)",
        "961 CMR 3.04(3)(d)",
        "961 CMR 3.04(4)(c)",
        "961 CMR 3.04(4)(a)",
        "961 CMR 3.04(4)(b)",
        "961 CMR 3.04(9)(b)",
        "961 CMR 3.04(9)(c)",
    }


def test_every_item_confirmed_with_the_records_in_order_is_allowed():
    assert judge(OPEN, ALL_CONFIRMED).allowed


@pytest.mark.parametrize("item", CHECKLIST, ids=lambda i: i.code)
def test_it_refuses_to_open_while_an_item_is_unconfirmed(item):
    confirmed = tuple(i.code for i in CHECKLIST if i is not item)
    decision = judge(OPEN, replace(ALL_CONFIRMED, confirmed=confirmed))
    assert refused(decision) == {item.rule_code: item.citation}
    assert decision.violations[0].message.startswith("Not confirmed:")


def test_it_refuses_to_open_without_a_member_in_charge_signed_in():
    decision = judge(OPEN, replace(ALL_CONFIRMED, member_in_charge_present=False))
    assert refused(decision) == {"O-1A-MIC-PRESENT": "961 CMR 3.04(1)(a)"}


def test_it_refuses_to_open_without_a_price_list_even_when_confirmed():
    decision = judge(OPEN, replace(ALL_CONFIRMED, price_list_posted=False))
    assert refused(decision) == {"O-4C-PRICES-POSTED": "961 CMR 3.04(4)(c)"}


def test_it_refuses_to_open_without_any_equipment_registered():
    decision = judge(OPEN, replace(ALL_CONFIRMED, equipment_count=0))
    assert refused(decision) == {"O-4A-EQUIPMENT-HELD": "961 CMR 3.04(4)(a)"}


def test_it_refuses_to_open_with_equipment_not_held_or_out_of_repair():
    decision = judge(
        OPEN,
        replace(
            ALL_CONFIRMED,
            equipment_not_held=("Flashboard: the lease has no approval",),
            equipment_out_of_repair=("Blower is not in good repair",),
        ),
    )
    assert refused(decision) == {
        "O-4A-EQUIPMENT-HELD": "961 CMR 3.04(4)(a)",
        "O-4B-EQUIPMENT-REPAIR": "961 CMR 3.04(4)(b)",
    }
    assert [v.message for v in decision.violations] == [
        "Flashboard: the lease has no approval",
        "Blower is not in good repair",
    ]


def test_nothing_confirmed_gives_every_item_at_once():
    decision = judge(OPEN, replace(ALL_CONFIRMED, confirmed=()))
    assert set(refused(decision)) == {i.rule_code for i in CHECKLIST}


# 961 CMR 3.04(7): hours


def hours(at: dt.time, **changes: object) -> HoursFacts:
    return replace(IN_HOURS, at=at, **changes)


def test_opening_exactly_at_the_licensed_start_is_allowed():
    assert judge(OPEN, hours(dt.time(18, 45))).allowed


def test_opening_exactly_at_the_licensed_end_is_allowed():
    assert judge(OPEN, hours(dt.time(22, 30))).allowed


def test_it_refuses_to_open_a_minute_before_the_licensed_start():
    decision = judge(OPEN, hours(dt.time(18, 44)))
    assert refused(decision) == {"H-7-LICENSE-HOURS": "961 CMR 3.04(7)"}
    assert "6:44 PM" in decision.violations[0].message
    assert "6:45 PM to 10:30 PM" in decision.violations[0].message


def test_it_refuses_to_open_after_the_licensed_end():
    decision = judge(OPEN, hours(dt.time(22, 31)))
    assert refused(decision) == {"H-7-LICENSE-HOURS": "961 CMR 3.04(7)"}


def test_a_license_that_states_no_hours_sets_no_limit():
    assert judge(OPEN, hours(dt.time(9, 0), license_start=None, license_end=None)).allowed


def test_licensed_hours_that_run_past_midnight_wrap():
    late = {"license_start": dt.time(19, 0), "license_end": dt.time(0, 30)}
    assert judge(OPEN, hours(dt.time(23, 50), **late)).allowed
    assert judge(OPEN, hours(dt.time(0, 15), **late)).allowed
    assert not judge(OPEN, hours(dt.time(18, 59), **late)).allowed


def test_a_law_figure_in_force_applies():
    limits = Limits(on=DAY, values={"hours_start": Decimal("19"), "hours_end": Decimal("23.5")})
    open_all_day = {"license_start": None, "license_end": None}
    decision = judge(OPEN, hours(dt.time(18, 59), **open_all_day), limits)
    assert refused(decision) == {"H-7-LAW-HOURS": "961 CMR 3.04(7)"}
    assert "from 7:00 PM to 11:30 PM" in decision.violations[0].message
    assert judge(OPEN, hours(dt.time(19, 0), **open_all_day), limits).allowed
    assert judge(OPEN, hours(dt.time(23, 30), **open_all_day), limits).allowed
    assert not judge(OPEN, hours(dt.time(23, 31), **open_all_day), limits).allowed


def test_a_law_figure_for_one_end_only_limits_that_end():
    limits = Limits(on=DAY, values={"hours_start": None, "hours_end": Decimal("22")})
    decision = judge(OPEN, hours(dt.time(22, 1), license_start=None, license_end=None), limits)
    assert "until 10:00 PM" in decision.violations[0].message
    assert judge(OPEN, hours(dt.time(6, 0), license_start=None, license_end=None), limits).allowed


def test_no_law_figure_known_sets_no_limit():
    limits = Limits(on=DAY, values={"hours_start": None, "hours_end": None})
    assert judge(OPEN, hours(dt.time(3, 0), license_start=None, license_end=None), limits).allowed


def test_hour_figures_read_as_times_of_day():
    assert time_of_hour(Decimal("18.75")) == dt.time(18, 45)
    assert time_of_hour(Decimal("24")) == dt.time.max
    assert within(dt.time(12, 0), None, None)


# 961 CMR 3.04(1)(a), (b), (d) on the floor

SIGNING_IN = SignInFacts(
    name="Mary Gallagher",
    year=2026,
    on_list=True,
    role="seller",
    listed_roles=("seller", "floor_worker"),
    identification_displayed="P171-06",
    identification_listed="P171-06",
)


def test_a_listed_worker_in_a_listed_role_with_the_listed_id_signs_in():
    assert judge(SIGN_IN, SIGNING_IN).allowed
    assert judge(SIGN_IN, replace(SIGNING_IN, identification_displayed=" p171-06 ")).allowed


def test_it_refuses_a_person_not_on_the_list_that_day():
    decision = judge(SIGN_IN, replace(SIGNING_IN, on_list=False))
    assert refused(decision) == {"W-1B-ON-THE-LIST": "961 CMR 3.04(1)(b)"}


def test_it_refuses_a_role_the_list_does_not_give():
    decision = judge(SIGN_IN, replace(SIGNING_IN, role="caller"))
    assert refused(decision) == {"W-1B-ON-THE-LIST": "961 CMR 3.04(1)(b)"}
    assert "not as caller" in decision.violations[0].message


def test_it_refuses_identification_other_than_the_listed_one():
    decision = judge(SIGN_IN, replace(SIGNING_IN, identification_displayed="X-1"))
    assert refused(decision) == {"W-1D-ID-AS-LISTED": "961 CMR 3.04(1)(d)"}
    decision = judge(SIGN_IN, replace(SIGNING_IN, identification_displayed=""))
    assert "displays no identification" in decision.violations[0].message


LEAVING = SignOutFacts(name="Linda Souza", occasion_open=True, in_charge=True, designees_present=1)


def test_the_worker_in_charge_cannot_leave_an_open_occasion_without_handing_over():
    decision = judge(SIGN_OUT, LEAVING)
    assert refused(decision) == {"W-1A-CONTINUAL-PRESENCE": "961 CMR 3.04(1)(a)"}
    assert "record the handover" in decision.violations[0].message
    decision = judge(SIGN_OUT, replace(LEAVING, designees_present=0))
    assert "no qualified designee is present" in decision.violations[0].message


def test_anyone_not_in_charge_or_anyone_before_opening_may_leave():
    assert judge(SIGN_OUT, replace(LEAVING, in_charge=False)).allowed
    assert judge(SIGN_OUT, replace(LEAVING, occasion_open=False)).allowed


def test_charge_passes_only_to_a_present_member_in_charge():
    designee = HandoverFacts(name="Anne Sullivan", role="member_in_charge", present=True)
    assert judge(HAND_OVER, designee).allowed
    decision = judge(HAND_OVER, replace(designee, role="seller", present=False))
    assert refused(decision) == {"W-1A-QUALIFIED-DESIGNEE": "961 CMR 3.04(1)(a)"}
    assert len(decision.violations) == 2

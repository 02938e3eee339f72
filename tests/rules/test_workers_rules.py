"""961 CMR 3.04(1) and (2), judged as pure rules: no database, the figures passed in."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

import pytest

from beano import rules
from beano.rules import AuthorizationFact, AuthorizationKind, Limits
from beano.rules.bookkeepers import SecondPersonFacts
from beano.rules.charges import VOID_SALE
from beano.rules.claims import RECORD_PAYOUT
from beano.rules.reporting import COUNT_CASH
from beano.rules.workers import (
    ADD,
    RECORD_WINNER,
    REVIEW,
    SIGN_IN,
    BookkeeperPresenceFacts,
    ConvictionFact,
    MembershipFact,
    PlayerFacts,
    SignInFacts,
    WorkerFacts,
    WorkerListFacts,
    years_before,
)

ON = dt.date(2026, 3, 13)
LIMITS = Limits(
    on=ON,
    values={
        "max_orgs_per_worker": Decimal("4"),
        "min_family_worker_age": Decimal("18"),
        "caller_conviction_years": Decimal("5"),
    },
)
MEMBER = MembershipFact(kind="member", since=dt.date(2010, 1, 1), until=None)


def worker(**changes: object) -> WorkerFacts:
    facts = WorkerFacts(
        person_id=7,
        name="Linda Souza",
        date_of_birth=dt.date(1962, 8, 2),
        on=ON,
        roles=("seller",),
        membership=MEMBER,
        organizations_this_year=(1,),
        identification="B-7",
    )
    return replace(facts, **changes)


def judge(facts: object, action: str = ADD, **kwargs: object):
    return rules.judge(action, facts, on=ON, limits=LIMITS, **kwargs)


def refused_by(facts: object, action: str = ADD, **kwargs: object) -> dict[str, str]:
    """The codes that refused, each with its citation."""
    return {v.code: v.citation for v in judge(facts, action, **kwargs).violations}


def authorization(kind: str, **changes: object) -> AuthorizationFact:
    granted = AuthorizationFact(
        pk=99,
        kind=kind,
        reference="DIR-2026-014",
        valid_from=dt.date(2026, 1, 1),
        valid_to=dt.date(2026, 12, 31),
        person_id=7,
    )
    return replace(granted, **changes)


def test_it_allows_a_member_in_good_standing_as_a_seller():
    decision = judge(worker())
    assert decision.allowed and not decision.waivers
    assert "W-1B-ELIGIBLE" in decision.checked


# (1)(a) member in charge


def test_it_allows_a_member_in_good_standing_as_member_in_charge():
    assert judge(worker(roles=("member_in_charge",))).allowed


@pytest.mark.parametrize("kind", ["auxiliary", "family", "lapsed"])
def test_it_refuses_a_member_in_charge_who_is_not_an_active_member(kind):
    membership = replace(MEMBER, kind=kind, family_of_in_good_standing=True)
    refused = refused_by(worker(roles=("member_in_charge",), membership=membership))
    assert refused["W-1A-MIC-MEMBER"] == "961 CMR 3.04(1)(a)"


def test_it_warns_of_a_list_without_member_in_charge_or_gross_receipts_person():
    facts = WorkerListFacts(year=2026, member_in_charge_count=0, gross_receipts_count=0)
    assert refused_by(facts, REVIEW) == {
        "W-1A-DESIGNATED": "961 CMR 3.04(1)(a)",
        "W-1E-DESIGNATED": "961 CMR 3.04(1)(e)",
    }
    assert judge(replace(facts, member_in_charge_count=1, gross_receipts_count=1), REVIEW).allowed


# (1)(b) who may be on the list


def test_it_refuses_someone_without_a_membership():
    assert refused_by(worker(membership=None)) == {"W-1B-ELIGIBLE": "961 CMR 3.04(1)(b)"}


def test_it_refuses_a_membership_that_ended_before_the_day():
    ended = replace(MEMBER, until=ON - dt.timedelta(days=1))
    assert refused_by(worker(membership=ended))["W-1B-ELIGIBLE"] == "961 CMR 3.04(1)(b)"
    assert judge(worker(membership=replace(MEMBER, until=ON))).allowed


def test_it_allows_an_auxiliary_member():
    assert judge(worker(membership=replace(MEMBER, kind="auxiliary"))).allowed


def _family(born: dt.date, member_ok: bool = True) -> WorkerFacts:
    membership = MembershipFact(
        kind="family", since=dt.date(2020, 1, 1), until=None, family_of_in_good_standing=member_ok
    )
    return worker(date_of_birth=born, membership=membership)


def test_it_refuses_a_family_member_of_17_years_and_364_days():
    born = dt.date(2008, 3, 14)  # turns 18 tomorrow
    refused = refused_by(_family(born))
    assert refused == {"W-1B-ELIGIBLE": "961 CMR 3.04(1)(b)"}
    assert "under 18" in judge(_family(born)).violations[0].message


def test_it_allows_a_family_member_on_their_18th_birthday():
    assert judge(_family(dt.date(2008, 3, 13))).allowed


def test_it_refuses_a_family_member_whose_member_is_not_in_good_standing():
    refused = judge(_family(dt.date(1990, 1, 1), member_ok=False))
    assert [v.citation for v in refused.violations] == ["961 CMR 3.04(1)(b)"]
    assert "not a member in good standing" in refused.violations[0].message


# (1)(c) four organizations a calendar year


def test_it_allows_a_fourth_organization():
    assert judge(worker(organizations_this_year=(1, 2, 3, 4))).allowed


def test_it_refuses_a_fifth_organization():
    refused = refused_by(worker(organizations_this_year=(1, 2, 3, 4, 5)))
    assert refused == {"W-1C-FOUR-ORGANIZATIONS": "961 CMR 3.04(1)(c)"}


def test_it_counts_distinct_organizations():
    assert judge(worker(organizations_this_year=(1, 2, 3, 4, 4, 1))).allowed


def test_the_first_four_lists_stay_lawful_when_a_fifth_is_made():
    """The order of the year decides: a fifth list (waived or not) leaves the first four as made."""
    for first_four in (1, 2, 3, 4):
        facts = worker(organizations_this_year=(1, 2, 3, 4, 5), organization_id=first_four)
        assert judge(facts).allowed, first_four
    assert refused_by(worker(organizations_this_year=(1, 2, 3, 4, 5), organization_id=5)) == {
        "W-1C-FOUR-ORGANIZATIONS": "961 CMR 3.04(1)(c)"
    }


def test_a_new_calendar_year_resets_the_count():
    """The facts carry only the lists of the year judged; the next January starts again."""
    january = dt.date(2027, 1, 4)
    facts = worker(on=january, organizations_this_year=(5,))
    assert rules.judge(ADD, facts, on=january, limits=LIMITS).allowed


def test_a_directors_authorization_waives_the_fifth_organization():
    facts = worker(organizations_this_year=(1, 2, 3, 4, 5))
    granted = authorization(AuthorizationKind.MORE_THAN_FOUR_ORGANIZATIONS)
    decision = judge(facts, authorizations=[granted])
    assert decision.allowed
    assert [(w.code, w.citation, w.reference) for w in decision.waivers] == [
        ("W-1C-FOUR-ORGANIZATIONS", "961 CMR 3.04(1)(c)", "DIR-2026-014")
    ]
    assert decision.authorization_pks == [99]


@pytest.mark.parametrize(
    "changes",
    [
        {"valid_to": ON - dt.timedelta(days=1)},  # expired
        {"valid_from": ON + dt.timedelta(days=1)},  # not yet in force
        {"revoked_on": ON},  # revoked
        {"person_id": 8},  # granted to another person
        {"kind": AuthorizationKind.SUPPLIER_PERSON},  # of another kind
    ],
)
def test_an_authorization_that_does_not_cover_the_day_or_person_waives_nothing(changes):
    facts = worker(organizations_this_year=(1, 2, 3, 4, 5))
    granted = authorization(**{"kind": AuthorizationKind.MORE_THAN_FOUR_ORGANIZATIONS, **changes})
    refused = judge(facts, authorizations=[granted])
    assert [v.citation for v in refused.violations] == ["961 CMR 3.04(1)(c)"]
    assert not refused.waivers


# (1)(d) identification


def test_it_refuses_sign_in_without_identification():
    assert refused_by(worker(identification="  "), SIGN_IN) == {
        "W-1D-IDENTIFICATION": "961 CMR 3.04(1)(d)"
    }
    assert judge(worker(identification="B-7"), SIGN_IN).allowed


def test_a_blank_identification_does_not_keep_a_person_off_the_list():
    assert judge(worker(identification="")).allowed


# (1)(e) gross receipts


def test_it_allows_a_member_to_hold_the_gross_receipts():
    assert judge(worker(roles=("gross_receipts",))).allowed


def test_it_refuses_the_gross_receipts_to_an_auxiliary_member():
    facts = worker(roles=("gross_receipts",), membership=replace(MEMBER, kind="auxiliary"))
    assert refused_by(facts) == {"W-1E-GROSS-RECEIPTS": "961 CMR 3.04(1)(e)"}


# (1)(f) and (g) compensation


def test_it_refuses_to_pay_a_seller():
    facts = worker(compensated=True)
    assert refused_by(facts) == {"W-1F-NO-COMPENSATION": "961 CMR 3.04(1)(f)"}


def test_it_allows_a_paid_bookkeeper_or_accountant():
    assert judge(worker(roles=("bookkeeper",), compensated=True)).allowed
    assert judge(worker(roles=("accountant",), compensated=True)).allowed


def test_it_refuses_a_paid_bookkeeper_in_another_capacity():
    facts = worker(roles=("bookkeeper", "seller"), compensated=True)
    decision = judge(facts)
    assert {v.code: v.citation for v in decision.violations} == {
        "W-1G-BOOKKEEPER-ONLY": "961 CMR 3.04(1)(g)"
    }
    assert "cannot also be seller" in decision.violations[0].message


def test_an_unpaid_bookkeeper_may_also_sell():
    assert judge(worker(roles=("bookkeeper", "seller"))).allowed


def test_a_directors_authorization_lets_a_paid_bookkeeper_sell():
    facts = worker(roles=("bookkeeper", "seller"), compensated=True)
    granted = authorization(AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY)
    decision = judge(facts, authorizations=[granted])
    assert decision.allowed
    assert decision.waivers[0].citation == "961 CMR 3.04(1)(g)"


def test_it_refuses_to_close_without_the_paid_bookkeeper_present():
    facts = BookkeeperPresenceFacts(person_id=7, name="Karen", compensated=True, present=False)
    assert refused_by(facts, "occasion.close") == {"W-1G-PRESENT": "961 CMR 3.04(1)(g)"}
    assert judge(replace(facts, present=True), "occasion.close").allowed


# (1)(g) on the floor: a compensated bookkeeper signs in as such, and is no one's second person


def paid_bookkeeper_signing_in(**changes: object) -> SignInFacts:
    facts = SignInFacts(
        name="Karen Pacheco",
        year=2026,
        on_list=True,
        role="bookkeeper",
        listed_roles=("bookkeeper",),
        identification_displayed="B-7",
        identification_listed="B-7",
        compensated=True,
    )
    return replace(facts, **changes)


def test_a_paid_bookkeeper_signs_in_as_bookkeeper():
    assert judge(paid_bookkeeper_signing_in(), SIGN_IN).allowed


@pytest.mark.parametrize("role", ["caller", "seller", "member_in_charge", "floor_worker"])
def test_a_paid_bookkeeper_signed_in_in_another_role_is_refused_citing_1g_not_1b(role):
    """The hole: refused citing (1)(b) ("on the list as bookkeeper, not as caller"), as if
    listing them as caller would do; (1)(g) is the paragraph that keeps them to the books."""
    decision = judge(paid_bookkeeper_signing_in(role=role), SIGN_IN)
    assert {v.code: v.citation for v in decision.violations} == {
        "W-1G-SIGNS-IN-AS-BOOKKEEPER": "961 CMR 3.04(1)(g)"
    }
    message = decision.violations[0].message
    assert "compensated bookkeeper or accountant" in message and "Director" in message


def test_an_unpaid_bookkeeper_in_a_role_not_listed_is_refused_by_1b():
    decision = judge(paid_bookkeeper_signing_in(role="caller", compensated=False), SIGN_IN)
    assert {v.code: v.citation for v in decision.violations} == {
        "W-1B-ON-THE-LIST": "961 CMR 3.04(1)(b)"
    }


def test_a_directors_authorization_lets_a_paid_bookkeeper_listed_as_caller_call():
    """The Director's written authorization of (1)(g) is given through the list: the list names
    them caller too (judged there, and again at the sign-in, with the authorization)."""
    facts = [
        paid_bookkeeper_signing_in(role="caller", listed_roles=("bookkeeper", "caller")),
        worker(
            roles=("bookkeeper", "caller"),
            compensated=True,
            good_moral_character_attested=True,
            identification="B-7",
        ),
    ]
    granted = authorization(AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY)
    decision = judge(facts, SIGN_IN, authorizations=[granted])
    assert decision.allowed
    assert [(w.code, w.citation) for w in decision.waivers] == [
        ("W-1G-BOOKKEEPER-ONLY", "961 CMR 3.04(1)(g)")
    ]
    refused = judge(facts, SIGN_IN)  # without the authorization
    assert {v.code: v.citation for v in refused.violations} == {
        "W-1G-BOOKKEEPER-ONLY": "961 CMR 3.04(1)(g)"
    }
    # An authorization does not sign them in for a role the list does not give them: its
    # rules (the caller's, (1)(i)) judge them in that role on the list first.
    unlisted = judge(
        [paid_bookkeeper_signing_in(role="caller"), facts[1]], SIGN_IN, authorizations=[granted]
    )
    assert {v.code for v in unlisted.violations} == {"W-1G-SIGNS-IN-AS-BOOKKEEPER"}


SECOND_PERSON_ACTS = [
    (VOID_SALE, "witness the void"),
    (RECORD_PAYOUT, "verify the payout"),
    (COUNT_CASH, "verify the cash count"),
]


def second_person(act: str, **changes: object) -> SecondPersonFacts:
    facts = SecondPersonFacts(act=act, person_id=7, name="Karen Pacheco", compensated=True)
    return replace(facts, **changes)


@pytest.mark.parametrize(("action", "act"), SECOND_PERSON_ACTS)
def test_a_paid_bookkeeper_is_no_ones_second_person_citing_1g(action, act):
    decision = judge(second_person(act), action)
    assert {v.code: v.citation for v in decision.violations} == {
        "W-1G-NOT-A-SECOND-PERSON": "961 CMR 3.04(1)(g)"
    }
    assert f"cannot {act}" in decision.violations[0].message
    assert decision.violations[0].waivable


@pytest.mark.parametrize(("action", "act"), SECOND_PERSON_ACTS)
def test_an_unpaid_worker_or_no_one_yet_is_judged_by_the_acts_own_rules(action, act):
    assert judge(second_person(act, compensated=False), action).allowed
    assert judge(SecondPersonFacts(act=act), action).allowed


@pytest.mark.parametrize(("action", "act"), SECOND_PERSON_ACTS)
def test_the_directors_authorization_lets_a_paid_bookkeeper_confirm(action, act):
    granted = authorization(AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY)
    decision = judge(second_person(act), action, authorizations=[granted])
    assert decision.allowed and decision.waivers[0].code == "W-1G-NOT-A-SECOND-PERSON"
    someone_else = authorization(AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY, person_id=8)
    assert not judge(second_person(act), action, authorizations=[someone_else]).allowed


# (1)(h) workers do not play


def test_it_refuses_a_worker_as_a_winner_unless_authorized():
    facts = PlayerFacts(person_id=7, name="Linda Souza", on_worker_list=True)
    assert refused_by(facts, RECORD_WINNER) == {"W-1H-WORKER-PLAYS": "961 CMR 3.04(1)(h)"}
    granted = authorization(AuthorizationKind.WORKER_AS_PLAYER)
    assert judge(facts, RECORD_WINNER, authorizations=[granted]).allowed
    assert judge(replace(facts, on_worker_list=False), RECORD_WINNER).allowed


# (1)(i) callers


def caller(*convictions: ConvictionFact, attested: bool = True) -> WorkerFacts:
    return worker(
        roles=("caller",), good_moral_character_attested=attested, convictions=convictions
    )


def test_it_allows_an_attested_caller_without_convictions():
    assert judge(caller()).allowed


def test_it_refuses_a_caller_whose_character_is_not_attested():
    assert refused_by(caller(attested=False)) == {"W-1I-CALLER": "961 CMR 3.04(1)(i)"}
    assistant = replace(caller(attested=False), roles=("caller_assistant",))
    assert refused_by(assistant) == {"W-1I-CALLER": "961 CMR 3.04(1)(i)"}


def test_it_refuses_a_caller_convicted_five_years_ago_less_a_day():
    convicted = years_before(ON, 5) + dt.timedelta(days=1)
    assert refused_by(caller(ConvictionFact(convicted, False))) == {
        "W-1I-CALLER": "961 CMR 3.04(1)(i)"
    }


def test_it_refuses_a_caller_convicted_exactly_five_years_ago():
    """Documented in the rule: the same calendar day five years before is still within them."""
    convicted = years_before(ON, 5)
    assert refused_by(caller(ConvictionFact(convicted, False))) == {
        "W-1I-CALLER": "961 CMR 3.04(1)(i)"
    }


def test_it_allows_a_caller_convicted_five_years_and_a_day_ago():
    convicted = years_before(ON, 5) - dt.timedelta(days=1)
    assert judge(caller(ConvictionFact(convicted, False))).allowed


def test_a_traffic_violation_does_not_bar_a_caller():
    assert judge(caller(ConvictionFact(ON - dt.timedelta(days=30), True))).allowed


def test_a_conviction_does_not_bar_a_seller():
    facts = worker(convictions=(ConvictionFact(ON - dt.timedelta(days=30), False),))
    assert judge(facts).allowed


# (2) suppliers


def test_it_refuses_a_person_connected_with_a_supplier():
    assert refused_by(worker(supplier_connected=True)) == {"W-2-SUPPLIER": "961 CMR 3.04(2)"}


def test_a_directors_authorization_admits_a_suppliers_person():
    granted = authorization(AuthorizationKind.SUPPLIER_PERSON)
    decision = judge(worker(supplier_connected=True), authorizations=[granted])
    assert decision.allowed and decision.waivers[0].code == "W-2-SUPPLIER"


def test_it_reports_every_violation_at_once():
    facts = worker(
        roles=("member_in_charge", "caller"),
        membership=None,
        compensated=True,
        supplier_connected=True,
    )
    assert set(refused_by(facts)) == {
        "W-1A-MIC-MEMBER",
        "W-1B-ELIGIBLE",
        "W-1F-NO-COMPENSATION",
        "W-1I-CALLER",
        "W-2-SUPPLIER",
    }

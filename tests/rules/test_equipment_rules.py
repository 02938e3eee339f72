"""961 CMR 3.04(4)(a), (b), (e) as pure rules: plain facts in, cited violations out. No database:
the limits are given, not read."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from beano import rules
from beano.rules import AuthorizationFact, AuthorizationKind, Limits
from beano.rules.equipment import (
    CARD_PURCHASE,
    CARD_USE,
    REGISTER,
    UPDATE,
    USE,
    CardPurchaseFacts,
    CardUseFacts,
    EquipmentFacts,
)

DAY = dt.date(2026, 12, 4)
NO_LIMITS = Limits(on=DAY)

OWNED = EquipmentFacts(description="Blower", ownership="owned", proof_of_ownership=True)
LEASED = EquipmentFacts(description="Flashboard", ownership="leased", rental_fee=Decimal("150.00"))


def lease(**changes: object) -> AuthorizationFact:
    values = {
        "pk": 7,
        "kind": AuthorizationKind.EQUIPMENT_LEASE,
        "reference": "MSLC-BN-2026-0412",
        "valid_from": dt.date(2026, 10, 1),
        "valid_to": dt.date(2027, 9, 30),
    }
    return AuthorizationFact(**(values | changes))  # type: ignore[arg-type]


def judge(action: str, facts: object, authorizations: tuple = ()) -> rules.Decision:
    return rules.judge(action, facts, on=DAY, authorizations=authorizations, limits=NO_LIMITS)


def refused(decision: rules.Decision) -> dict[str, str]:
    return {v.code: v.citation for v in decision.violations}


@pytest.mark.parametrize("action", [REGISTER, UPDATE, USE])
def test_it_allows_owned_equipment_with_proof_in_good_repair(action):
    decision = judge(action, OWNED)
    assert decision.allowed
    assert "E-4A-LEASE-APPROVED" in decision.checked


def test_it_refuses_owned_equipment_without_proof_of_ownership():
    decision = judge(REGISTER, EquipmentFacts(description="Blower", ownership="owned"))
    assert refused(decision) == {"E-4E-OWNERSHIP-PROOF": "961 CMR 3.04(4)(e)"}
    assert str(decision.violations[0]).startswith("961 CMR 3.04(4)(e): Blower")


def test_it_refuses_leased_equipment_without_the_directors_approval():
    decision = judge(USE, LEASED)
    assert refused(decision) == {"E-4A-LEASE-APPROVED": "961 CMR 3.04(4)(a)"}
    assert decision.violations[0].waivable


def test_a_valid_equipment_lease_authorization_waives_the_approval():
    decision = judge(USE, LEASED, (lease(),))
    assert decision.allowed
    assert [(w.code, w.reference) for w in decision.waivers] == [
        ("E-4A-LEASE-APPROVED", "MSLC-BN-2026-0412")
    ]


@pytest.mark.parametrize(
    "authorization",
    [
        lease(valid_to=dt.date(2026, 12, 3)),  # expired the day before
        lease(valid_from=dt.date(2026, 12, 5)),  # not yet in force
        lease(revoked_on=dt.date(2026, 11, 1)),  # revoked
        lease(kind=AuthorizationKind.TRANSPORTATION),  # another kind
    ],
    ids=["expired", "not-yet-valid", "revoked", "another-kind"],
)
def test_an_authorization_that_does_not_cover_the_day_or_the_lease_waives_nothing(authorization):
    decision = judge(USE, LEASED, (authorization,))
    assert refused(decision) == {"E-4A-LEASE-APPROVED": "961 CMR 3.04(4)(a)"}
    assert decision.waivers == []


@pytest.mark.parametrize("fee", [None, Decimal("0")])
def test_it_refuses_a_lease_without_a_sum_certain(fee):
    facts = EquipmentFacts(description="Flashboard", ownership="leased", rental_fee=fee)
    decision = judge(REGISTER, facts, (lease(),))
    assert refused(decision) == {"E-4A-SUM-CERTAIN": "961 CMR 3.04(4)(a)"}
    assert not decision.violations[0].waivable


def test_it_refuses_paying_for_equipment_as_a_service_charge_even_under_a_lease():
    facts = EquipmentFacts(
        description="Flashboard",
        ownership="leased",
        rental_fee=Decimal("150.00"),
        pays_service_charge=True,
    )
    assert refused(judge(UPDATE, facts, (lease(),))) == {
        "E-4A-NO-SERVICE-CHARGE": "961 CMR 3.04(4)(a)"
    }


def test_it_refuses_equipment_given_in_return_for_buying_supplies():
    facts = EquipmentFacts(
        description="Card minder", ownership="owned", proof_of_ownership=True, supplies_tie_in=True
    )
    assert refused(judge(REGISTER, facts)) == {"E-4A-NO-SUPPLIES-TIE-IN": "961 CMR 3.04(4)(a)"}


def test_equipment_out_of_repair_is_recorded_but_cannot_be_used():
    facts = EquipmentFacts(
        description="Ball set", ownership="owned", proof_of_ownership=True, in_good_repair=False
    )
    assert judge(UPDATE, facts).allowed
    decision = judge(USE, facts)
    assert refused(decision) == {"E-4B-GOOD-REPAIR": "961 CMR 3.04(4)(b)"}
    assert str(decision.violations[0]) == (
        "961 CMR 3.04(4)(b): Ball set is not in good repair and cannot be used."
    )


def test_every_violation_is_reported_at_once():
    facts = EquipmentFacts(
        description="Blower",
        ownership="leased",
        pays_service_charge=True,
        supplies_tie_in=True,
        in_good_repair=False,
    )
    assert set(refused(judge(USE, facts))) == {
        "E-4A-LEASE-APPROVED",
        "E-4A-SUM-CERTAIN",
        "E-4A-NO-SERVICE-CHARGE",
        "E-4A-NO-SUPPLIES-TIE-IN",
        "E-4B-GOOD-REPAIR",
    }


def purchase(**changes: object) -> CardPurchaseFacts:
    values = {
        "invoice_number": "INV-1",
        "proof_of_ownership": True,
        "quantity": 100,
        "serial_from": 1,
        "serial_to": 100,
    }
    return CardPurchaseFacts(**(values | changes))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "facts",
    [purchase(), purchase(serial_from=None, serial_to=None)],
    ids=["with-serials", "without-serials"],
)
def test_it_allows_a_purchase_with_its_invoice_and_proof(facts):
    assert judge(CARD_PURCHASE, facts).allowed


@pytest.mark.parametrize(
    "facts,message",
    [
        (purchase(invoice_number="  "), "A card purchase needs its invoice number."),
        (purchase(proof_of_ownership=False), "A card purchase needs its proof of ownership"),
    ],
)
def test_it_refuses_a_purchase_without_invoice_or_proof(facts, message):
    decision = judge(CARD_PURCHASE, facts)
    assert refused(decision) == {"I-4E-PURCHASE-PROOF": "961 CMR 3.04(4)(e)"}
    assert str(decision.violations[0]).startswith(f"961 CMR 3.04(4)(e): {message}")


@pytest.mark.parametrize(
    "facts,message",
    [
        (purchase(quantity=0, serial_from=None, serial_to=None), "at least one"),
        (purchase(serial_to=None), "both ends of the serial range"),
        (purchase(serial_from=100, serial_to=1), "ends before it starts"),
        (purchase(serial_to=99), "hold 99 cards, not the 100 recorded"),
        (purchase(overlapping_purchase="INV-0"), "overlap those of invoice INV-0"),
    ],
    ids=["no-cards", "one-end", "backwards", "wrong-count", "overlap"],
)
def test_it_refuses_serials_that_are_not_accurate(facts, message):
    decision = judge(CARD_PURCHASE, facts)
    assert refused(decision) == {"I-4E-SERIALS": "961 CMR 3.04(4)(e)"}
    assert any(message in v.message for v in decision.violations)


def test_it_allows_using_and_voiding_every_card_on_hand():
    facts = CardUseFacts(description="Admission", on_hand=100, used=90, voided=10)
    assert judge(CARD_USE, facts).allowed


@pytest.mark.parametrize(
    "used,voided,message",
    [
        (95, 6, "101 cards used or voided, but only 100 are on hand"),
        (0, 0, "Record at least one card"),
        (-1, 5, "cannot be negative"),
    ],
)
def test_it_refuses_use_beyond_the_cards_on_hand(used, voided, message):
    decision = judge(
        CARD_USE, CardUseFacts(description="Admission", on_hand=100, used=used, voided=voided)
    )
    assert refused(decision) == {"I-4E-ON-HAND": "961 CMR 3.04(4)(e)"}
    assert message in decision.violations[0].message


def test_the_rules_are_registered_with_their_citations_and_waivers():
    by_code = {r.code: r for r in rules.all_rules()}
    assert by_code["E-4A-LEASE-APPROVED"].waiver == AuthorizationKind.EQUIPMENT_LEASE
    assert not by_code["E-4A-SUM-CERTAIN"].waivable
    assert {r.code for r in rules.rules_for(USE)} >= {"E-4B-GOOD-REPAIR", "E-4E-OWNERSHIP-PROOF"}
    assert "E-4B-GOOD-REPAIR" not in {r.code for r in rules.rules_for(REGISTER)}

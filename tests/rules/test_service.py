"""The rules service itself: registry, judging, waivers, refusals that survive a rollback."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal

import pytest
from django.core.management import call_command

from beano import rules
from beano.rules.authorizations import AuthorizationFact, AuthorizationKind
from beano.rules.equipment import CardUseFacts, EquipmentFacts
from beano.rules.limits import LimitName, Limits
from beano.rules.models import LawLimit, RefusedAction
from organizations.models import Organization

DAY = dt.date(2026, 12, 4)
LIMITS = Limits(on=DAY, values={})
CITATION = re.compile(r"^961 CMR 3\.0[3-6]\(\d+\)(\([a-z]\))?$|^M\.G\.L\. c\. 10 § \d+$")


def test_every_rule_has_a_stable_code_a_citation_in_house_form_and_a_title():
    codes = [r.code for r in rules.all_rules()]
    assert len(codes) == len(set(codes))
    for r in rules.all_rules():
        assert CITATION.match(r.citation), r.citation
        assert r.title and r.guards
        assert r.waivable == (r.waiver is not None)
        if r.waiver:
            assert r.waiver in AuthorizationKind.values


def test_the_catalog_command_prints_every_rule_as_json(capsys):
    call_command("rules_catalog", "--json")
    entries = json.loads(capsys.readouterr().out)
    assert {e["code"] for e in entries} == {r.code for r in rules.all_rules()}
    for e in entries:
        assert {"code", "citation", "title", "waivable"} <= set(e)
    cited = {e["citation"] for e in entries}
    for paragraph in [
        "(1)(a)",
        "(1)(b)",
        "(1)(c)",
        "(1)(d)",
        "(1)(e)",
        "(1)(f)",
        "(1)(g)",
        "(1)(h)",
        "(1)(i)",
        "(2)",
        "(4)(a)",
        "(4)(b)",
        "(4)(e)",
    ]:
        assert f"961 CMR 3.04{paragraph}" in cited, paragraph
    for e in entries:
        if e["waivable"]:
            # A rule is waived only by the kind of authorization its own paragraph provides for.
            paragraph = e["citation"].removeprefix("961 CMR ")
            assert f"({paragraph})" in e["waiver_label"], e["code"]
    waivable = {e["citation"] for e in entries if e["waivable"]}
    assert {
        "961 CMR 3.04(1)(c)",
        "961 CMR 3.04(1)(g)",
        "961 CMR 3.04(1)(h)",
        "961 CMR 3.04(2)",
        "961 CMR 3.04(4)(a)",
        "961 CMR 3.04(5)(a)",
    } <= waivable


def test_the_catalog_command_prints_a_readable_table(capsys):
    call_command("rules_catalog")
    out = capsys.readouterr().out
    assert "961 CMR 3.04(1)(c)" in out and "waivable" in out


def test_judge_collects_every_violation_with_its_citation():
    facts = EquipmentFacts(
        description="Blower",
        ownership="owned",
        proof_of_ownership=False,
        pays_service_charge=True,
        supplies_tie_in=True,
        in_good_repair=False,
    )
    decision = rules.judge("equipment.use", facts, on=DAY, limits=LIMITS)
    assert not decision.allowed
    assert {v.code for v in decision.violations} == {
        "E-4A-NO-SERVICE-CHARGE",
        "E-4A-NO-SUPPLIES-TIE-IN",
        "E-4E-OWNERSHIP-PROOF",
        "E-4B-GOOD-REPAIR",
    }
    assert {v.citation for v in decision.violations} == {
        "961 CMR 3.04(4)(a)",
        "961 CMR 3.04(4)(e)",
        "961 CMR 3.04(4)(b)",
    }
    assert all(str(v).startswith(v.citation + ": ") for v in decision.violations)


def test_judge_refuses_an_action_no_rule_guards():
    with pytest.raises(LookupError, match="no rule guards"):
        rules.judge("occasion.dance", object(), on=DAY, limits=LIMITS)


LEASED = EquipmentFacts(description="Flashboard", ownership="leased", rental_fee=None)


def _lease(**kwargs) -> AuthorizationFact:
    base = {
        "pk": 7,
        "kind": AuthorizationKind.EQUIPMENT_LEASE,
        "reference": "MSLC-7",
        "valid_from": dt.date(2026, 1, 1),
        "valid_to": dt.date(2026, 12, 31),
    }
    return AuthorizationFact(**(base | kwargs))


def test_a_valid_authorization_waives_a_waivable_rule_and_is_named():
    decision = rules.judge(
        "equipment.register", LEASED, on=DAY, authorizations=[_lease()], limits=LIMITS
    )
    assert [w.code for w in decision.waivers] == ["E-4A-LEASE-APPROVED"]
    assert decision.authorization_pks == [7]
    # The sum-certain rule is not waivable: the lease still needs its fee.
    assert [v.code for v in decision.violations] == ["E-4A-SUM-CERTAIN"]


@pytest.mark.parametrize(
    "authorization",
    [
        _lease(valid_to=dt.date(2026, 12, 3)),
        _lease(valid_from=dt.date(2026, 12, 5)),
        _lease(revoked_on=dt.date(2026, 12, 1)),
        _lease(kind=AuthorizationKind.PACKAGES),
    ],
    ids=["expired", "not-yet-valid", "revoked", "other-kind"],
)
def test_an_authorization_not_valid_for_the_action_waives_nothing(authorization):
    decision = rules.judge(
        "equipment.register", LEASED, on=DAY, authorizations=[authorization], limits=LIMITS
    )
    assert "E-4A-LEASE-APPROVED" in {v.code for v in decision.violations}
    assert decision.waivers == []


def test_an_authorization_on_its_last_day_still_waives():
    decision = rules.judge(
        "equipment.register",
        LEASED,
        on=dt.date(2026, 12, 31),
        authorizations=[_lease()],
        limits=LIMITS,
    )
    assert [w.code for w in decision.waivers] == ["E-4A-LEASE-APPROVED"]


def test_enforce_raises_one_rule_violation_carrying_every_message(db, tenant):
    facts = CardUseFacts(description="Bonus cards", on_hand=5, used=4, voided=3)
    with pytest.raises(rules.RuleViolation) as refused:
        rules.enforce(
            "inventory.use",
            facts,
            on=DAY,
            actor=tenant.bookkeeper,
            organization=tenant.organization,
        )
    error = refused.value
    assert error.citations == ["961 CMR 3.04(4)(e)"]
    assert error.messages == [
        "961 CMR 3.04(4)(e): Bonus cards: 7 cards used or voided, but only 5 are on hand."
    ]


def test_enforce_returns_the_decision_when_allowed(db, tenant):
    facts = CardUseFacts(description="Bonus cards", on_hand=5, used=4, voided=1)
    decision = rules.enforce(
        "inventory.use", facts, on=DAY, actor=tenant.bookkeeper, organization=tenant.organization
    )
    assert decision.allowed and decision.checked == ["I-4E-ON-HAND"]
    assert not RefusedAction.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_refusal_is_recorded_even_though_the_write_rolled_back(tenant):
    @rules.atomic()
    def a_service_that_writes_then_is_refused() -> None:
        Organization.objects.create(
            name="Half-written",
            kind="veterans",
            founded_on=dt.date(1950, 1, 1),
            street="x",
            town="x",
            zip_code="x",
        )
        rules.enforce(
            "inventory.use",
            CardUseFacts("Paper strips", 0, 1, 0),
            on=DAY,
            actor=tenant.bookkeeper,
            organization=tenant.organization,
        )

    with pytest.raises(rules.RuleViolation):
        a_service_that_writes_then_is_refused()
    assert not Organization.objects.filter(name="Half-written").exists()
    refusal = RefusedAction.objects.get()
    assert refusal.user == tenant.bookkeeper and refusal.username == tenant.bookkeeper.username
    assert refusal.organization_id == tenant.organization.pk
    assert refusal.organization_name == tenant.organization.name
    assert refusal.action == "inventory.use" and refusal.on_date == DAY
    assert refusal.citations == "961 CMR 3.04(4)(e)"
    assert refusal.violations[0]["code"] == "I-4E-ON-HAND"
    assert refusal.facts["facts"] == {
        "description": "Paper strips",
        "on_hand": 0,
        "used": 1,
        "voided": 0,
    }


@pytest.mark.django_db(transaction=True)
def test_a_refusal_inside_nested_services_is_recorded_once_after_the_outer_rollback(tenant):
    @rules.atomic()
    def inner() -> None:
        rules.enforce(
            "inventory.use",
            CardUseFacts("Strips", 0, 2, 0),
            on=DAY,
            actor=None,
            organization=tenant.organization,
        )

    @rules.atomic()
    def outer() -> None:
        Organization.objects.create(
            name="Outer write",
            kind="veterans",
            founded_on=dt.date(1950, 1, 1),
            street="x",
            town="x",
            zip_code="x",
        )
        inner()

    with pytest.raises(rules.RuleViolation):
        outer()
    assert not Organization.objects.filter(name="Outer write").exists()
    assert RefusedAction.objects.count() == 1
    assert RefusedAction.objects.get().username == "system"


def test_limits_are_judged_by_the_date_of_the_action(db):
    assert rules.limits_in_force(dt.date(2000, 10, 4)).get(LimitName.MAX_PRIZE_SINGLE_GAME) == 100
    assert rules.limits_in_force(dt.date(2000, 10, 5)).get(LimitName.MAX_PRIZE_SINGLE_GAME) == 200
    LawLimit.objects.create(
        name=LimitName.MAX_PRIZE_SINGLE_GAME,
        value=250,
        unit="USD",
        effective_from=dt.date(2027, 1, 1),
        source="test",
        status="verified",
    )
    assert rules.limits_in_force(dt.date(2026, 12, 31)).get(LimitName.MAX_PRIZE_SINGLE_GAME) == 200
    assert rules.limits_in_force(dt.date(2027, 1, 1)).get(LimitName.MAX_PRIZE_SINGLE_GAME) == 250


def test_an_unknown_figure_is_none_known(db):
    limits = rules.limits_in_force(DAY)
    assert limits.get(LimitName.MAX_TOTAL_PRIZES_OCCASION) is None
    assert LimitName.MAX_TOTAL_PRIZES_OCCASION in limits.values
    with pytest.raises(LookupError, match="no figure"):
        limits.require(LimitName.MAX_TOTAL_PRIZES_OCCASION)
    assert limits.require(LimitName.BEANO_TAX_RATE) == Decimal("0.05")


def test_the_initial_figures_are_those_of_the_beano_law_page(db):
    def figure(name: str) -> LawLimit:
        return LawLimit.objects.filter(name=name).order_by("-effective_from").first()

    assert figure("max_progressive_jackpot").value == 3000
    assert figure("max_progressive_jackpot").status == "secondary"
    assert figure("beano_tax_rate").status == "verified"
    assert figure("max_door_prizes_occasion").value == 200
    assert figure("max_total_prizes_occasion").status == "unknown"


@pytest.mark.parametrize(
    "value,unit,shown",
    [
        ("1200", "USD", "$1,200"),
        ("1.00", "USD", "$1"),
        ("50", "USD a year", "$50 a year"),
        ("0.05", "rate", "5 %"),
        ("0.12", "rate a year", "12 % a year"),
        ("10", "days", "10 days"),
        (None, "USD", "no figure on record"),
    ],
)
def test_a_figure_reads_as_a_person_would_write_it(value, unit, shown):
    row = LawLimit(name="w2g_threshold", value=Decimal(value) if value else None, unit=unit)
    assert row.display_value == shown


def test_every_rule_names_the_facts_it_reads():
    for r in rules.all_rules():
        assert r.facts_type.__dataclass_params__.frozen, r.code


def test_enforce_refuses_to_judge_with_facts_missing(db, tenant):
    """A service that forgot a kind of facts must not pass an action unchecked."""
    from beano.rules.reporting import ResumptionFacts

    with pytest.raises(LookupError, match="needs WorkerListFacts"):
        rules.enforce(
            "occasion.open",
            ResumptionFacts(False, None, None),
            on=DAY,
            actor=None,
            organization=tenant.organization,
        )


def test_judge_reads_several_kinds_of_facts_for_one_action(db):
    from beano.rules.reporting import ResumptionFacts
    from beano.rules.workers import WorkerListFacts

    decision = rules.judge(
        "occasion.open",
        [ResumptionFacts(False, None, None), WorkerListFacts(2026, 0, 1)],
        on=DAY,
    )
    assert decision.checked == ["W-1A-DESIGNATED", "W-1E-DESIGNATED", "R-305-1B-RESUMPTION-NOTICE"]
    assert [v.code for v in decision.violations] == ["W-1A-DESIGNATED"]

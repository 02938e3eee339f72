"""Writes to equipment and the card inventory (961 CMR 3.04(4)(a), (b), (e)).

Each write runs in ``rules.atomic()``: it locks what it changes, builds the facts, has the rules
judge them before anything is saved, saves, and appends its audit event. A refusal raises
``RuleViolation`` (every message begins with its citation) and is logged after the rollback.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files import File
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules import AuthorizationFact, Decision
from beano.rules.equipment import (
    CARD_PURCHASE,
    REGISTER,
    UPDATE,
    USE,
    CardPurchaseFacts,
    EquipmentFacts,
)
from beano.rules.money import CARD_COST, EXPENSE, money, optional_money
from organizations.audit import acting_user, changed, record_event
from organizations.models import (
    CardPurchase,
    DirectorAuthorization,
    Equipment,
    Organization,
)

EQUIPMENT_FIELDS = (
    "description",
    "kind",
    "serial_number",
    "ownership",
    "proof_of_ownership",
    "proof_reference",
    "lessor",
    "lease_authorization",
    "rental_fee",
    "pays_service_charge",
    "supplies_tie_in",
    "in_good_repair",
    "retired_on",
)
EDITABLE_EQUIPMENT_FIELDS = frozenset(EQUIPMENT_FIELDS) - {"retired_on"}
PURCHASE_FIELDS = (
    "supplier",
    "invoice_number",
    "invoice_date",
    "proof",
    "proof_reference",
    "card_type",
    "series",
    "serial_from",
    "serial_to",
    "quantity",
    "unit_cost",
)


def _values(instance: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    """The fields for an audit event: foreign keys as ids, files as their stored names."""
    out: dict[str, Any] = {}
    for name in fields:
        value = getattr(instance, instance._meta.get_field(name).attname)
        out[name] = value.name if hasattr(value, "storage") else value
    return out


def equipment_facts(equipment: Equipment) -> EquipmentFacts:
    return EquipmentFacts(
        description=equipment.description,
        ownership=equipment.ownership,
        proof_of_ownership=equipment.has_proof,
        rental_fee=equipment.rental_fee,
        pays_service_charge=equipment.pays_service_charge,
        supplies_tie_in=equipment.supplies_tie_in,
        in_good_repair=equipment.in_good_repair,
    )


def lease_authorizations(equipment: Equipment) -> list[AuthorizationFact]:
    """Only the lease the equipment names can waive 3.04(4)(a)'s approval for it."""
    if equipment.lease_authorization_id is None:
        return []
    return [equipment.lease_authorization.as_fact()]


def _locked_authorization(
    authorization: DirectorAuthorization | None,
) -> DirectorAuthorization | None:
    """Re-read the chosen lease authorization under a lock, so it is judged as it stands."""
    if authorization is None:
        return None
    return locking.lock(DirectorAuthorization.objects).get(pk=authorization.pk)


def _judge_and_save(equipment: Equipment, *, action: str, by: Actor) -> None:
    equipment.full_clean(validate_constraints=False)
    rules.enforce(
        action,
        equipment_facts(equipment),
        on=timezone.localdate(),
        actor=by,
        organization=equipment.organization,
        authorizations=lease_authorizations(equipment),
    )
    equipment.validate_constraints()
    equipment.save()


@rules.atomic()
def register_equipment(
    *,
    organization: Organization,
    by: Actor,
    description: str,
    kind: str,
    ownership: str,
    serial_number: str = "",
    proof_of_ownership: File | None = None,
    proof_reference: str = "",
    lessor: str = "",
    lease_authorization: DirectorAuthorization | None = None,
    rental_fee: Decimal | None = None,
    pays_service_charge: bool = False,
    supplies_tie_in: bool = False,
    in_good_repair: bool = True,
) -> Equipment:
    """Record equipment the organization owns (with its proof) or leases (under the Director's
    approval of the lease, at a sum certain): 961 CMR 3.04(4)(a), (e)."""
    equipment = Equipment(
        organization=organization,
        description=description.strip(),
        kind=kind,
        serial_number=serial_number.strip(),
        ownership=ownership,
        proof_reference=proof_reference.strip(),
        lessor=lessor.strip(),
        lease_authorization=_locked_authorization(lease_authorization),
        rental_fee=optional_money(rental_fee, EXPENSE, "rental_fee"),
        pays_service_charge=pays_service_charge,
        supplies_tie_in=supplies_tie_in,
        in_good_repair=in_good_repair,
    )
    if proof_of_ownership is not None:
        equipment.proof_of_ownership = proof_of_ownership
    _judge_and_save(equipment, action=REGISTER, by=by)
    record_event(
        organization=organization,
        actor=by,
        action="organizations.equipment.registered",
        target=equipment,
        new=_values(equipment, EQUIPMENT_FIELDS),
    )
    return equipment


@rules.atomic()
def update_equipment(*, equipment: Equipment, by: Actor, **values: Any) -> Equipment:
    """Change what is recorded about equipment; judged again as it would stand (3.04(4)(a), (e)).
    A ``proof_of_ownership`` of None keeps the proof on file."""
    unknown = set(values) - EDITABLE_EQUIPMENT_FIELDS
    if unknown:
        raise ValueError(f"not editable here: {sorted(unknown)}")
    equipment = locking.lock(Equipment.objects).get(pk=equipment.pk)
    if equipment.retired_on is not None:
        raise ValidationError("Retired equipment is kept as it was retired.")
    before = _values(equipment, EQUIPMENT_FIELDS)
    if values.get("proof_of_ownership") is None:
        values.pop("proof_of_ownership", None)
    if "lease_authorization" in values:
        values["lease_authorization"] = _locked_authorization(values["lease_authorization"])
    if "rental_fee" in values:
        values["rental_fee"] = optional_money(values["rental_fee"], EXPENSE, "rental_fee")
    for name, value in values.items():
        setattr(equipment, name, value.strip() if isinstance(value, str) else value)
    _judge_and_save(equipment, action=UPDATE, by=by)
    old, new = changed(before, _values(equipment, EQUIPMENT_FIELDS))
    if new:
        record_event(
            organization=equipment.organization,
            actor=by,
            action="organizations.equipment.updated",
            target=equipment,
            old=old,
            new=new,
        )
    return equipment


@rules.atomic()
def retire_equipment(
    *, equipment: Equipment, by: Actor, on: dt.date, reason: str = ""
) -> Equipment:
    """Take equipment out of use from ``on``. Nothing in 3.04(4) forbids that, so no rule is
    asked; the record stays, with its proof, for the Commission's inventory (3.04(4)(e))."""
    equipment = locking.lock(Equipment.objects).get(pk=equipment.pk)
    if equipment.retired_on is not None:
        raise ValidationError("This equipment is already retired.")
    equipment.retired_on = on
    equipment.save(update_fields=["retired_on"])
    record_event(
        organization=equipment.organization,
        actor=by,
        action="organizations.equipment.retired",
        target=equipment,
        old={"retired_on": None},
        new={"retired_on": on, "reason": reason.strip()},
    )
    return equipment


def check_equipment_usable(*, equipment: Equipment, on: dt.date) -> Decision:
    """May this equipment be used in an occasion on ``on``? Owned with proof, or leased under an
    approval valid that day, and in good repair (3.04(4)(a), (b), (e)). Reads only."""
    return rules.judge(
        USE, equipment_facts(equipment), on=on, authorizations=lease_authorizations(equipment)
    )


def _overlapping_purchase(
    organization: Organization,
    card_type: str,
    series: str,
    serial_from: int | None,
    serial_to: int | None,
) -> CardPurchase | None:
    if serial_from is None or serial_to is None or serial_to < serial_from:
        return None
    return (
        CardPurchase.objects.filter(
            organization=organization,
            card_type=card_type,
            series=series,
            serial_from__lte=serial_to,
            serial_to__gte=serial_from,
        )
        .order_by("pk")
        .first()
    )


@rules.atomic()
def record_card_purchase(
    *,
    organization: Organization,
    by: Actor,
    supplier: str,
    invoice_number: str,
    invoice_date: dt.date,
    card_type: str,
    quantity: int,
    unit_cost: Decimal,
    series: str = "",
    serial_from: int | None = None,
    serial_to: int | None = None,
    proof: File | None = None,
    proof_reference: str = "",
) -> CardPurchase:
    """Record cards bought, with the invoice as proof of ownership; serial ranges must hold the
    quantity and overlap no other purchase of the same type and series (3.04(4)(e))."""
    # One purchase at a time per organization, so two cannot both pass the overlap check.
    locking.lock(Organization.objects).get(pk=organization.pk)
    purchase = CardPurchase(
        organization=organization,
        supplier=supplier.strip(),
        invoice_number=invoice_number.strip(),
        invoice_date=invoice_date,
        proof_reference=proof_reference.strip(),
        card_type=card_type,
        series=series.strip(),
        serial_from=serial_from,
        serial_to=serial_to,
        quantity=quantity,
        unit_cost=money(unit_cost, CARD_COST, "unit_cost"),
        recorded_by=acting_user(by),
    )
    if proof is not None:
        purchase.proof = proof
    purchase.full_clean(validate_constraints=False)
    overlap = _overlapping_purchase(
        organization, purchase.card_type, purchase.series, serial_from, serial_to
    )
    rules.enforce(
        CARD_PURCHASE,
        CardPurchaseFacts(
            invoice_number=purchase.invoice_number,
            proof_of_ownership=purchase.has_proof,
            quantity=quantity,
            serial_from=serial_from,
            serial_to=serial_to,
            overlapping_purchase=(overlap.invoice_number or str(overlap)) if overlap else "",
        ),
        on=invoice_date,
        actor=by,
        organization=organization,
    )
    purchase.validate_constraints()
    purchase.save()
    record_event(
        organization=organization,
        actor=by,
        action="organizations.card_purchase.recorded",
        target=purchase,
        new=_values(purchase, PURCHASE_FIELDS),
    )
    return purchase

"""961 CMR 3.04(4)(a), (b) and (e): equipment owned or under an approved lease, in good repair,
and an accurate inventory of cards with proof of ownership."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from beano.rules.authorizations import AuthorizationKind
from beano.rules.base import rule
from beano.rules.limits import Limits

REGISTER = "equipment.register"
UPDATE = "equipment.update"
USE = "equipment.use"
HELD = (REGISTER, UPDATE, USE)
CARD_PURCHASE = "inventory.purchase"
CARD_USE = "inventory.use"


@dataclass(frozen=True)
class EquipmentFacts:
    description: str
    ownership: str  # "owned" or "leased"
    proof_of_ownership: bool = False
    rental_fee: Decimal | None = None
    pays_service_charge: bool = False
    supplies_tie_in: bool = False
    in_good_repair: bool = True


@rule(
    code="E-4A-LEASE-APPROVED",
    citation="961 CMR 3.04(4)(a)",
    title="Equipment not owned is used only under a written lease the Director approved",
    guards=HELD,
    waiver=AuthorizationKind.EQUIPMENT_LEASE,
)
def lease_is_approved(f: EquipmentFacts, limits: Limits) -> Iterator[str]:
    """Leased equipment needs the Director's written approval of its lease, valid on the date."""
    if f.ownership != "owned":
        yield f"{f.description}: the lease has no approval of the Director valid on this date."


@rule(
    code="E-4A-SUM-CERTAIN",
    citation="961 CMR 3.04(4)(a)",
    title="A lease's rental fee is a sum certain",
    guards=HELD,
)
def rental_fee_is_a_sum_certain(f: EquipmentFacts, limits: Limits) -> Iterator[str]:
    """The rental fee in the lease is a fixed amount (not a share of receipts or open-ended)."""
    if f.ownership == "leased" and (f.rental_fee is None or f.rental_fee <= 0):
        yield f"{f.description}: the lease must state its rental fee as a sum certain."


@rule(
    code="E-4A-NO-SERVICE-CHARGE",
    citation="961 CMR 3.04(4)(a)",
    title="No payment for equipment under the guise of a service charge",
    guards=HELD,
)
def no_service_charge(f: EquipmentFacts, limits: Limits) -> Iterator[str]:
    """Paying for equipment, directly or as a service charge, only under an approved lease."""
    if f.pays_service_charge:
        yield f"{f.description}: paying for equipment through a service charge is prohibited."


@rule(
    code="E-4A-NO-SUPPLIES-TIE-IN",
    citation="961 CMR 3.04(4)(a)",
    title="No supplies purchase in exchange for free equipment",
    guards=HELD,
)
def no_supplies_tie_in(f: EquipmentFacts, limits: Limits) -> Iterator[str]:
    """An organization may not agree to buy its supplies in return for equipment without charge."""
    if f.supplies_tie_in:
        yield f"{f.description}: equipment given in return for buying supplies is prohibited."


@rule(
    code="E-4E-OWNERSHIP-PROOF",
    citation="961 CMR 3.04(4)(e)",
    title="Proof of ownership is held for owned equipment",
    guards=HELD,
)
def owned_equipment_has_proof(f: EquipmentFacts, limits: Limits) -> Iterator[str]:
    """The organization possesses and furnishes on request proof of ownership of its equipment."""
    if f.ownership == "owned" and not f.proof_of_ownership:
        yield f"{f.description}: no proof of ownership is on file."


@rule(
    code="E-4B-GOOD-REPAIR",
    citation="961 CMR 3.04(4)(b)",
    title="Equipment is in good repair and sound working condition",
    guards=(USE,),
)
def equipment_in_good_repair(f: EquipmentFacts, limits: Limits) -> Iterator[str]:
    """Equipment out of repair cannot be used in an occasion."""
    if not f.in_good_repair:
        yield f"{f.description} is not in good repair and cannot be used."


@dataclass(frozen=True)
class CardPurchaseFacts:
    invoice_number: str
    proof_of_ownership: bool
    quantity: int
    serial_from: int | None
    serial_to: int | None
    overlapping_purchase: str = ""  # the invoice whose serials overlap, if any


@rule(
    code="I-4E-PURCHASE-PROOF",
    citation="961 CMR 3.04(4)(e)",
    title="Cards bought are recorded with their invoice and proof of ownership",
    guards=(CARD_PURCHASE,),
)
def purchase_has_proof(f: CardPurchaseFacts, limits: Limits) -> Iterator[str]:
    """Accurate records of the cards owned, with proof of ownership for all cards."""
    if not f.invoice_number.strip():
        yield "A card purchase needs its invoice number."
    if not f.proof_of_ownership:
        yield "A card purchase needs its proof of ownership (the invoice or receipt)."


@rule(
    code="I-4E-SERIALS",
    citation="961 CMR 3.04(4)(e)",
    title="Serial ranges are consistent with the quantity and unique within a series",
    guards=(CARD_PURCHASE,),
)
def serials_are_accurate(f: CardPurchaseFacts, limits: Limits) -> Iterator[str]:
    """A serial range holds exactly the quantity bought and overlaps no other purchase's range."""
    if f.quantity <= 0:
        yield "The quantity bought must be at least one."
    if (f.serial_from is None) != (f.serial_to is None):
        yield "Give both ends of the serial range, or neither."
    elif f.serial_from is not None and f.serial_to is not None:
        if f.serial_to < f.serial_from:
            yield "The serial range ends before it starts."
        elif f.serial_to - f.serial_from + 1 != f.quantity:
            yield (
                f"Serials {f.serial_from}–{f.serial_to} hold {f.serial_to - f.serial_from + 1} "
                f"cards, not the {f.quantity} recorded."
            )
    if f.overlapping_purchase:
        yield f"These serials overlap those of invoice {f.overlapping_purchase}."


@dataclass(frozen=True)
class CardUseFacts:
    description: str
    on_hand: int
    used: int
    voided: int


@rule(
    code="I-4E-ON-HAND",
    citation="961 CMR 3.04(4)(e)",
    title="Cards used or voided come from cards on hand",
    guards=(CARD_USE,),
)
def use_within_on_hand(f: CardUseFacts, limits: Limits) -> Iterator[str]:
    """On hand = bought − used − voided, never below zero."""
    if f.used < 0 or f.voided < 0:
        yield "Cards used and voided cannot be negative."
    elif f.used + f.voided == 0:
        yield "Record at least one card used or voided."
    elif f.used + f.voided > f.on_hand:
        yield (
            f"{f.description}: {f.used + f.voided} cards used or voided, but only {f.on_hand} "
            "are on hand."
        )

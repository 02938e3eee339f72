"""Demo equipment and card inventory for ``seed_demo`` (961 CMR 3.04(4)): Post 171 owns its
blower and ball set and leases a flashboard under the Director's approval; St. Anne's owns all of
its equipment. Both have card purchases; Post 171 has used some. Idempotent."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from beano.rules import AuthorizationKind
from equipment.inventory_services import record_card_usage
from organizations.equipment_services import record_card_purchase, register_equipment
from organizations.models import CardPurchase, DirectorAuthorization, Equipment, Organization

LEASE_REFERENCE = "MSLC-BN-2026-0412"
LEASED_SINCE = dt.date(2025, 10, 1)
SUPPLIER = "Bay State Bingo Supply, Inc."

OWNED = {
    "post171": [
        ("Blower, Bingo King Gold", "receptacle", "BK-G-20417", "Bill of sale BSB-2019-0311"),
        ("Ball set, 75 ping-pong balls", "ball_set", "BS-75-8812", "Bill of sale BSB-2023-0102"),
    ],
    "stanne": [
        ("Blower, Arrow Classic", "receptacle", "AR-55130", "Parish receipt 2017-044"),
        ("Ball set, 75 balls", "ball_set", "", "Parish receipt 2022-118"),
        ("Flashboard, 75-number", "flashboard", "FB-9021", "Bill of sale BSB-2018-0907"),
    ],
}

# (organization, invoice, card type, series, serial from, quantity, unit cost, used, voided)
PURCHASES = [
    ("post171", "BSB-44120", "admission", "Blue", 100001, 500, "0.10", (180, 4)),
    ("post171", "BSB-44120", "special_game", "Red 6-on", 300001, 1000, "0.04", (420, 12)),
    ("post171", "BSB-44120", "bonus", "Green", 500001, 300, "0.08", (95, 0)),
    ("post171", "BSB-44120", "extra_regular", "White", 200001, 3000, "0.03", (0, 0)),
    ("post171", "BSB-44120", "winner_take_all", "Yellow", 600001, 500, "0.05", (0, 0)),
    ("stanne", "BSB-44377", "admission", "Orange", 710001, 400, "0.10", (0, 0)),
    ("stanne", "BSB-44377", "paper_strips", "Strip 3-on", None, 1500, "0.02", (0, 0)),
]


def seed_equipment(
    organizations: dict[str, Organization], valid_from: dt.date, valid_to: dt.date, today: dt.date
) -> None:
    for key, items in OWNED.items():
        org = organizations[key]
        if Equipment.objects.filter(organization=org).exists():
            continue
        for description, kind, serial, proof in items:
            register_equipment(
                organization=org,
                by=None,
                description=description,
                kind=kind,
                serial_number=serial,
                ownership="owned",
                proof_reference=proof,
            )
        if key == "post171":
            lease, _ = DirectorAuthorization.objects.get_or_create(
                reference_number=LEASE_REFERENCE,
                defaults={
                    "organization": org,
                    "kind": AuthorizationKind.EQUIPMENT_LEASE,
                    "subject": f"Lease of one electronic flashboard from {SUPPLIER} "
                    "at $150.00 an occasion",
                    # Approved since the license year 2025-26: the flashboard was leased
                    # for the night of that year the demo brings in (beano.demo.last_year).
                    "valid_from": min(valid_from, LEASED_SINCE),
                    "valid_to": valid_to,
                    "granted_by": "Director, Charitable Gaming Division",
                },
            )
            register_equipment(
                organization=org,
                by=None,
                description="Flashboard, electronic 75-number",
                kind="flashboard",
                serial_number="EFB-3310",
                ownership="leased",
                lessor=SUPPLIER,
                lease_authorization=lease,
                rental_fee=Decimal("150.00"),
            )
    first_use = max(valid_from, today - dt.timedelta(days=14))
    second_use = max(valid_from, today - dt.timedelta(days=7))
    for key, invoice, card_type, series, serial_from, qty, cost, (used, voided) in PURCHASES:
        org = organizations[key]
        if CardPurchase.objects.filter(
            organization=org, invoice_number=invoice, card_type=card_type
        ).exists():
            continue
        purchase = record_card_purchase(
            organization=org,
            by=None,
            supplier=SUPPLIER,
            invoice_number=invoice,
            invoice_date=valid_from,
            card_type=card_type,
            series=series,
            serial_from=serial_from,
            serial_to=serial_from + qty - 1 if serial_from is not None else None,
            quantity=qty,
            unit_cost=Decimal(cost),
            proof_reference=f"Invoice {invoice}, filed in the Beano binder",
        )
        if used or voided:
            record_card_usage(
                purchase=purchase,
                by=None,
                used_on=first_use,
                quantity_used=used // 2,
                quantity_voided=voided,
                note="misprinted" if voided else "",
            )
            record_card_usage(
                purchase=purchase,
                by=None,
                used_on=second_use,
                quantity_used=used - used // 2,
            )

"""The catalog: the map of what the system enforces, as plain data."""

from __future__ import annotations

from typing import Any

from beano.rules.authorizations import AuthorizationKind
from beano.rules.base import all_rules

ACTION_LABELS = {
    "worker_list.add": "adding a person to the worker list",
    "worker_list.update": "changing a worker list entry",
    "worker_list.review": "reviewing the worker list",
    "occasion.sign_in_worker": "signing a worker in at an occasion",
    "occasion.sign_out_worker": "signing a worker out of an occasion",
    "occasion.hand_over": "handing over charge of an occasion",
    "occasion.open": "opening an occasion",
    "occasion.close": "closing an occasion",
    "game.record_winner": "recording a winner",
    "equipment.register": "registering equipment",
    "equipment.update": "changing equipment",
    "equipment.use": "using equipment in an occasion",
    "inventory.purchase": "recording a card purchase",
    "inventory.use": "recording cards used or voided",
    "prices.set": "setting the posted price list",
}


def catalog() -> list[dict[str, Any]]:
    return [
        {
            "code": r.code,
            "citation": r.citation,
            "title": r.title,
            "description": r.description,
            "guards": list(r.guards),
            "guards_labels": [ACTION_LABELS.get(a, a) for a in r.guards],
            "waivable": r.waivable,
            "waiver": r.waiver,
            "waiver_label": AuthorizationKind(r.waiver).label if r.waiver else None,
        }
        for r in all_rules()
    ]

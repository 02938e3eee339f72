"""The known night of ``tests/reports/conftest.py`` as its paper control sheets give it, in the
night format, and what it needs on record (a crew on the worker list, equipment, arrangements
authorized, a charity serial, the police rate)."""

from __future__ import annotations

import copy
from typing import Any

#: The known night (figures in tests/reports/conftest.py KNOWN) as its sheets would be typed:
#: the door as one tally and one void of 5 admissions, three games, the extras, the close.
KNOWN_NIGHT: dict[str, Any] = {
    "format": "beano-night/1",
    "license": "",  # set by the fixture
    "date": "2026-12-04",
    "sheets": "Control sheets of December 4: sign-in, door tally, game sheets 1-3, payouts",
    "reason": "The laptop was at the repair shop: the night was played on paper",
    "workers": [
        {
            "name": "Linda Souza",
            "role": "member_in_charge",
            "identification": "P-02",
            "in": "18:30",
        },
        {
            "name": "Robert Medeiros",
            "role": "gross_receipts",
            "identification": "P-01",
            "in": "18:30",
        },
        {"name": "Karen Pacheco", "role": "bookkeeper", "identification": "P-03", "in": "18:30"},
        {"name": "Mary Gallagher", "role": "seller", "identification": "P-06", "in": "18:31"},
        {
            "name": "anne  SULLIVAN",
            "role": "member_in_charge",
            "identification": "P-07",
            "in": "18:32",
            "out": "22:00",
        },
    ],
    "opening": {"at": "18:40"},
    "prices": [
        {"category": "admission", "label": "Admission (3-on regular card)", "price": "2.00"},
        {"category": "extra_regular", "label": "Extra regular card (3-on)", "price": "1.00"},
        {"category": "bonus", "label": "Bonus card", "price": "1.00"},
        {"category": "special", "label": "Special game card", "price": "2.00"},
        {"category": "winner_take_all", "label": "Winner-take-all card", "price": "1.00"},
    ],
    "opened_at": "18:45",
    "varying_prizes": {
        "at": "18:46",
        "persons_entitled_to_play": 100,
        "prizes_announced": "Regular games $50 with 100 players or more",
        "refunds_offered": True,
    },
    "door": {
        "tallies": [
            {
                "at": "19:00",
                "lines": [
                    {"category": "admission", "first_serial": 1001, "last_serial": 1100},
                    {"category": "extra_regular", "quantity": 50},
                    {
                        "category": "bonus",
                        "first_serial": 501,
                        "last_serial": 542,
                        "excluded": [510, 511],
                    },
                    {"category": "special", "quantity": 60},
                    {"category": "winner_take_all", "quantity": 30},
                ],
            }
        ],
        "voids": [
            {
                "sold_at": "18:50",
                "at": "18:55",
                "lines": [{"category": "admission", "quantity": 5}],
                "reason": "Rung twice",
                "witness": "Mary Gallagher",
            }
        ],
    },
    "attendance": {"players": 95, "at": "20:00"},
    "second_half_at": "20:05",
    "games": [
        {
            "number": 1,
            "half": 1,
            "kind": "regular",
            "parts": [{"arrangement": "single_line", "amount": "50.00", "announced_at": "19:00"}],
            "balls_confirmed_at": "19:00",
            "started_at": "19:01",
            "finished_at": "19:36",
            "claims": [
                {
                    "part": 1,
                    "at": "19:30",
                    "player": "Ann Cash",
                    "table": "4",
                    "witnesses": [{"name": "Joe Player", "table": "9"}],
                    "payout": {
                        "at": "19:35",
                        "paid_by": "Mary Gallagher",
                        "verified_by": "Anne Sullivan",
                    },
                }
            ],
        },
        {
            "number": 2,
            "half": 1,
            "kind": "regular",
            "parts": [
                {
                    "arrangement": "single_line",
                    "kind": "merchandise",
                    "amount": "30.00",
                    "description": "Toaster",
                    "announced_at": "19:40",
                }
            ],
            "balls_confirmed_at": "19:40",
            "started_at": "19:41",
            "finished_at": "19:55",
            "claims": [
                {
                    "part": 1,
                    "at": "19:50",
                    "player": "Bob Goods",
                    "table": "4",
                    "witnesses": [{"name": "Joe Player", "table": "9"}],
                    # The toaster handed over, as the sheet is signed (3.04(6)(f)).
                    "payout": {
                        "at": "19:54",
                        "paid_by": "Mary Gallagher",
                        "verified_by": "Anne Sullivan",
                    },
                }
            ],
        },
        {
            "number": 3,
            "half": 2,
            "kind": "special",
            "parts": [
                {
                    "arrangement": "single_line",
                    "kind": "merchandise",
                    "amount": "80.00",
                    "description": "Donated quilt",
                    "donated": True,
                    "announced_at": "20:06",
                }
            ],
            "balls_confirmed_at": "20:06",
            "started_at": "20:10",
            "finished_at": "20:35",
            "claims": [
                {
                    "part": 1,
                    "at": "20:30",
                    "player": "Cy Gift",
                    "table": "4",
                    "witnesses": [{"name": "Joe Player", "table": "9"}],
                    "payout": {
                        "at": "20:34",
                        "paid_by": "Mary Gallagher",
                        "verified_by": "Anne Sullivan",
                    },
                }
            ],
        },
    ],
    "door_prizes": [
        {"at": "20:00", "description": "Fruit basket", "value": "25.00"},
        {"at": "20:00", "description": "Quilt", "value": "40.00", "donated": True},
    ],
    "refunds": [{"at": "19:00", "amount": "4.00", "player": "R1"}],
    "charity_tickets": [
        {
            "at": "19:00",
            "game_name": "Lucky 7s",
            "serial_number": "CG-1",
            "quantity": 20,
            "price": "1.00",
        }
    ],
    "charity_redemptions": [{"at": "21:00", "serial_number": "CG-1", "prize_amount": "10.00"}],
    "police_details": [
        {"officer": "Officer Dana", "department": "Fairhaven", "hours": "4.00", "rate": "50.00"}
    ],
    "closed_at": "22:30",
}


def known_night(license_number: str, **changes: Any) -> dict[str, Any]:
    night = copy.deepcopy(KNOWN_NIGHT)
    night["license"] = license_number
    night.update(changes)
    return night

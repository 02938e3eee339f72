"""A night of 2025 at Post 171, brought in from its paper sheets as a hall moving to the
application brings its past nights: Friday, December 19, 2025, under the license of that year,
with that year's worker list. Its coverall jackpot was won at $1,500 within 52 numbers while the
W-2G threshold for bingo was $1,200 (through December 31, 2025), so its payout carries the
winner's W-2G details, the TIN sealed as every TIN is. This year's jackpot of $1,600, under the
$2,000 threshold in force from January 1, 2026, needs none (``beano.demo.jackpot``).

The night is filed like any other: closed out, the cash counted by the bookkeeper and verified
by the member in charge, its paper issued to the door by serial and counted back,
its report filed. It is before the gaming account's book starts and before the reports the
Commission counts as owed (``reports_from``), so it owes no deposit, reconciliation or
obligation. Idempotent: a day that already holds the night is left as it is."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model

from beano.demo import DEMO_PASSWORD
from beano.demo.organizations import seed_worker_list
from beano.demo.paper import LAST_YEARS_INVOICE
from beano.rules import AuthorizationKind
from beano.rules.jackpots import JackpotMode
from equipment import paper_services
from games import jackpot_services
from games.models import Arrangement, ArrangementAuthorization, ProgressiveSeries
from nightfile import engine, reader
from occasions.models import Occasion
from organizations.equipment_services import record_card_purchase
from organizations.models import (
    CardPurchase,
    DirectorAuthorization,
    License,
    Organization,
)
from reports import services

POST = "American Legion Post 171"
NIGHT = dt.date(2025, 12, 19)  # a Friday, Post 171's day
LICENSE = "BN-0171-FH-25"
SERIES = "Coverall jackpot 2025"
JACKPOT = Decimal("1500.00")
#: The jackpot's winner as her W-2G gives her (the TIN is made up, as every demo name is).
W2G = {
    "legal_name": "Margaret A. Oliveira",
    "address": "14 Spring Street, Fairhaven, MA 02719",
    "tin": "031-54-2716",
    "id1_kind": "Massachusetts driver's license",
    "id1_number": "S31542716",
    "id2_kind": "Social Security card",
    "id2_number": "031-54-2716",
}
#: That year's worker list: (name, roles, badge, paid for, attested by).
WORKERS = [
    ("Robert Medeiros", ["gross_receipts"], "P171-01", "", ""),
    ("Linda Souza", ["member_in_charge"], "P171-02", "", ""),
    ("Karen Pacheco", ["bookkeeper"], "P171-03", "$50 an occasion: the report", ""),
    ("Thomas Ferreira", ["caller"], "P171-04", "", "Robert Medeiros, Commander"),
]
#: The winning coverall card, square by square (N3 is free), and the balls called: the card's
#: last number is the 48th ball, within the 52 the series allows.
CARD = {
    **{f"B{i}": n for i, n in enumerate((3, 7, 9, 12, 14), 1)},
    **{f"I{i}": n for i, n in enumerate((17, 20, 22, 26, 29), 1)},
    **{f"N{i}": n for i, n in zip((1, 2, 4, 5), (33, 36, 40, 44), strict=True)},
    **{f"G{i}": n for i, n in enumerate((47, 51, 53, 56, 59), 1)},
    **{f"O{i}": n for i, n in enumerate((62, 66, 68, 71, 74), 1)},
}
OTHERS = (1, 5, 11, 16, 19, 24, 28, 31, 35, 38, 42, 45, 46, 50, 55, 58, 61, 64, 67, 70, 73, 2)
#: Admissions and special game cards sold: $15 and $3.
DOOR = {"admission": 150, "special": 200}
OPENING_BANK = Decimal("1500.00")
ARRANGEMENTS = ("single_line", "four_corners", "coverall")


def _balls() -> list[int]:
    card = sorted(CARD.values(), key=lambda n: (n * 7) % 75)
    last = card.pop(card.index(74))
    balls: list[int] = []
    for i, n in enumerate(card):
        balls.append(n)
        if i < len(OTHERS):
            balls.append(OTHERS[i])
    return [*balls, *OTHERS[len(card) :], last]


def _claim(player: str, at: str, payout_at: str, **extra: Any) -> dict[str, Any]:
    payout: dict[str, Any] = {"at": payout_at, "paid_by": "Robert Medeiros"}
    payout["verified_by"] = "Linda Souza"
    if "w2g" in extra:
        payout["w2g"] = extra.pop("w2g")
    return {
        "part": 1,
        "at": at,
        "player": player,
        "table": extra.pop("table", "4"),
        "witnesses": [{"name": "Helen Cabral", "table": "2"}],
        "payout": payout,
        **extra,
    }


def night_file() -> dict[str, Any]:
    """The night's sheets as a night file (docs/formats/night-file.md)."""
    return {
        "format": "beano-night/1",
        "license": LICENSE,
        "date": NIGHT.isoformat(),
        "sheets": "Sign-in sheet, price list, opening checklist, door tally, game sheets 1-3, "
        "payouts with the W-2G, close-out",
        "reason": "Played before the hall used the application: brought in from its paper",
        "workers": [
            {"name": name, "role": roles[0], "identification": badge, "in": "18:20"}
            for name, roles, badge, _paid, _attested in WORKERS
        ],
        "prices": [
            {"category": "admission", "label": "Admission (6-on package)", "price": "15.00"},
            {"category": "special", "label": "Special game card", "price": "3.00"},
        ],
        "opening": {"at": "18:40"},
        "opened_at": "18:45",
        "door": {
            "tallies": [
                {"at": "18:58", "lines": [{"category": c, "quantity": n} for c, n in DOOR.items()]}
            ]
        },
        "attendance": {"players": 150, "at": "20:10"},
        "second_half_at": "20:25",
        "games": [
            {
                "number": 1,
                "half": 1,
                "kind": "regular",
                "parts": [
                    {"arrangement": "single_line", "amount": "50.00", "announced_at": "18:59"}
                ],
                "balls_confirmed_at": "18:59",
                "started_at": "19:00",
                "finished_at": "19:15",
                "claims": [_claim("Dorothy Amaral", "19:13", "19:14", table="6")],
            },
            {
                "number": 2,
                "half": 1,
                "kind": "regular",
                "parts": [
                    {"arrangement": "four_corners", "amount": "75.00", "announced_at": "19:16"}
                ],
                "balls_confirmed_at": "19:16",
                "started_at": "19:17",
                "finished_at": "19:40",
                "claims": [_claim("Manuel Rego", "19:38", "19:39", table="11")],
            },
            {
                "number": 3,
                "half": 2,
                "kind": "progressive",
                "parts": [
                    {"arrangement": "coverall", "amount": str(JACKPOT), "announced_at": "20:26"}
                ],
                "balls_confirmed_at": "20:26",
                "started_at": "20:27",
                "finished_at": "21:10",
                "balls": _balls(),
                "claims": [
                    _claim("Margaret Oliveira", "21:05", "21:08", table="9", card=CARD, w2g=W2G)
                ],
                "jackpot": {"series": SERIES, "won_within_calls": True},
            },
        ],
        "closed_at": "22:05",
    }


def _license(post: Organization) -> License:
    current = post.licenses.order_by("-valid_from").first()
    assert current is not None
    found = License.objects.filter(number=LICENSE).first()
    if found is not None:
        return found
    fields = ("premises_name", "premises_address", "authorized_weekdays", "start_time")
    fields += ("end_time", "local_licensing_authority")
    return License.objects.create(
        organization=post,
        number=LICENSE,
        valid_from=dt.date(2025, 10, 1),
        valid_to=dt.date(2026, 9, 30),
        **{f: getattr(current, f) for f in fields},
    )


def _letters(post: Organization) -> None:
    """The Director's letter of that license year for the winning arrangements played (the
    flashboard's lease was approved from then, ``beano.demo.equipment``)."""
    letter, _ = DirectorAuthorization.objects.get_or_create(
        reference_number="MSLC-BN-2025-0171-6C",
        defaults={
            "organization": post,
            "kind": AuthorizationKind.WINNING_ARRANGEMENT,
            "subject": "Single line, four corners, coverall",
            "valid_from": dt.date(2025, 10, 1),
            "valid_to": dt.date(2026, 9, 30),
            "granted_by": "Director, Charitable Gaming Division",
        },
    )
    for arrangement in Arrangement.objects.filter(code__in=ARRANGEMENTS):
        ArrangementAuthorization.objects.get_or_create(
            authorization=letter, arrangement=arrangement
        )


def _worker_list(post: Organization) -> None:
    people = {m.person.legal_name: m.person for m in post.memberships.select_related("person")}
    seed_worker_list(post, people, WORKERS, NIGHT.year)


def _series(post: Organization) -> None:
    if ProgressiveSeries.objects.filter(organization=post, name=SERIES).exists():
        return
    jackpot_services.start_series(
        organization=post,
        name=SERIES,
        mode=JackpotMode.GROWING_JACKPOT,
        starting_amount=JACKPOT,
        increment=Decimal("100.00"),
        cap=Decimal("3000.00"),
        arrangement=Arrangement.objects.get(code="coverall"),
        calls_allowed=52,
        calls_increment=0,
        consolation_amount=Decimal("0.00"),
        rules_text="Game 3, coverall within 52 numbers: $1,500, +$100 each week it is not won, "
        "up to $3,000. These rules stand until the jackpot is won.",
        started_on=NIGHT,
        by=None,
    )


def seed() -> Occasion | None:
    post = Organization.objects.filter(name=POST).first()
    books = get_user_model().objects.filter(username="post171-books").first()
    if post is None or books is None:
        return None
    occasion = Occasion.objects.filter(organization=post, date=NIGHT).first()
    if occasion is not None:
        return occasion
    _license(post)
    _letters(post)
    _worker_list(post)
    _series(post)
    occasion = engine.import_night(
        night=reader.read(night_file()), by=books, file_name="post171-2025-12-19.json"
    )
    _close_out_and_file(occasion, books)
    return occasion


def _close_out_and_file(occasion: Occasion, books: Any) -> None:
    """Every count as the door recorded it, the cash as expected, counted by the bookkeeper and
    verified by the member in charge typing her own password; the paper; the report filed."""
    from reports.figures import compute_figures

    figures = compute_figures(occasion)
    services.save_closeout(
        occasion=occasion,
        opening_bank=OPENING_BANK,
        cash_counted=figures["cash"]["expected"] + OPENING_BANK,
        counts={c["category"]: c["recorded"] for c in figures["counts"]},
        explanation="",
        cash_verified_by=get_user_model().objects.get(username="post171-mic"),
        cash_verifier_secret=DEMO_PASSWORD,
        by=books,
    )
    _paper(occasion, books)
    services.file_report(occasion=occasion, by=books)


#: That season's boxes, bought for the night and all sold: (card type, category, series, first).
PAPER = (
    ("admission", "admission", "Blue 2025", 80001),
    ("special_game", "special", "Red 6-on 2025", 380001),
)


def _paper(occasion: Occasion, books: Any) -> None:
    """The night's paper bought, issued to the door by serial before it opened and counted back
    after the close (every card sold)."""
    mic = get_user_model().objects.get(username="post171-mic")
    assert occasion.opened_at is not None and occasion.closed_at is not None
    for card_type, category, series, first in PAPER:
        sold = DOOR[category]
        purchase = CardPurchase.objects.filter(
            organization=occasion.organization, card_type=card_type, series=series
        ).first() or record_card_purchase(
            organization=occasion.organization,
            by=books,
            supplier="Bay State Bingo Supply, Inc.",
            invoice_number=LAST_YEARS_INVOICE,
            invoice_date=dt.date(2025, 11, 14),
            card_type=card_type,
            quantity=sold,
            unit_cost=Decimal("0.05"),
            series=series,
            serial_from=first,
            serial_to=first + sold - 1,
            proof_reference="Bill of sale BSB-41877",
        )
        issue = paper_services.issue_paper(
            occasion=occasion,
            purchase=purchase,
            serial_from=first,
            serial_to=first + sold - 1,
            by=mic,
            at=occasion.opened_at - dt.timedelta(minutes=20),
        )
        paper_services.count_back(
            issue=issue, returned=0, by=mic, at=occasion.closed_at + dt.timedelta(minutes=10)
        )

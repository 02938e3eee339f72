"""What the tests of claims, winners and payouts share: the witness at the winners' table, a claim
recorded and its card verified, a whole card for "any single line" and the balls that cover its
line, the W-2G details of a big win, and the payouts' verifier signed in on the floor (an
autouse fixture: import it into a module to have it)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from beano.rules.claims import Witness
from games import claims_services as services
from games.payout_services import W2GDetails
from tests.fixtures.floor import on_floor
from tests.fixtures.games import WINNING_CORNERS

WITNESS = [Witness("Rose Medeiros", "12")]

#: A whole card for "any single line", row by row (N3 is free): row 2 is the line ``BALLS`` cover.
WHOLE_CARD = {
    "B1": 3, "I1": 17, "N1": 33, "G1": 49, "O1": 62,
    "B2": 7, "I2": 22, "N2": 38, "G2": 52, "O2": 70,
    "B3": 9, "I3": 25, "G3": 55, "O3": 66,
    "B4": 11, "I4": 28, "N4": 41, "G4": 58, "O4": 73,
    "B5": 14, "I5": 30, "N5": 44, "G5": 60, "O5": 75,
}  # fmt: skip
ROW_2 = ("B2", "I2", "N2", "G2", "O2")
#: Called before the claim, O70 last: row 2's five, B3 and I3 of the card, five balls not on it.
BALLS = (1, 3, 20, 7, 22, 25, 35, 38, 47, 52, 65, 70)


def call_the_balls(game):
    """``BALLS`` called in ``game`` from 6:56 PM, four seconds apart: made directly, as the
    draw's own tests make theirs."""
    from games.models import BallCall
    from tests.fixtures.games import at_night

    for i, number in enumerate(BALLS, start=1):
        BallCall.objects.create(
            game=game, sequence=i, number=number, called_at=at_night(game.occasion, 18, 56, 4 * i)
        )
    return game


@pytest.fixture(autouse=True)
def _verifier_on_the_floor(request, tenant):
    """The payouts' verifier (the head) is signed in on the floor of the night, as a second
    person must be; they confirm with their own password."""
    if "game_in_play" in request.fixturenames:
        on_floor(tenant.head, request.getfixturevalue("game_in_play").occasion)


D = Decimal


def new_claim(game, by, **changes):
    values = {
        "game": game,
        "part": game.parts.get(),
        "ball_in_hand": None,
        "calling_begun": False,
        "player_name": "Ann Pires",
        "table": "3",
        "by": by,
    }
    values.update(changes)
    return services.record_claim(**values)


def verified(claim, by, numbers=None):
    return services.verify_card(
        claim=claim, numbers=numbers or WINNING_CORNERS, witnesses=WITNESS, by=by
    )


TIN = "123-45-6789"
DETAILS = W2GDetails(
    legal_name="Mary A. Costa",
    address="12 Oak St, Fairhaven MA 02719",
    tin=TIN,
    id1_kind="Driver's license",
    id1_number="S98765432",
    id2_kind="Passport",
    id2_number="P1122334",
)


def two_claims_on_g47(game_in_play, tenant):
    first = new_claim(game_in_play, tenant.worker, player_name="Mary Costa", table="7")
    second = new_claim(game_in_play, tenant.worker, player_name="Ann Pires", table="3")
    for c in (first, second):
        verified(c, tenant.member_in_charge)
    return first, second

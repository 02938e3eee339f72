"""What the tests of claims, winners and payouts share: the witness at the winners' table, a claim
recorded and its card verified, the W-2G details of a big win, and the payouts' verifier signed
in on the floor (an autouse fixture: import it into a module to have it)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from beano.rules.claims import Witness
from games import claims_services as services
from games.payout_services import W2GDetails
from tests.fixtures.floor import on_floor
from tests.fixtures.games import WINNING_CORNERS

WITNESS = [Witness("Rose Medeiros", "12")]


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

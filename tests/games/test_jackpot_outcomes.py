"""A progressive game's outcome is the game's: a coverall after the calls does not win the jackpot,
one won within the calls is never carried over, and a jackpot is recorded won only with its
winner."""

from __future__ import annotations

from decimal import Decimal

import pytest

from beano import rules
from games import jackpot_settlement
from games.models import (
    JackpotLedgerEntry,
    PrizePart,
    ProgressiveGame,
    Winner,
)
from tests.games.test_jackpots import refused_with

# The outcome is the game's: its draw and its winners


#: A coverall card: B 1–5, I 16–20, N 31 32 (free) 34 35, G 46–50, O 61–65.
COVERALL_CARD = {
    f"{column}{row}": number
    for column, numbers in zip(
        "BINGO",
        ((1, 2, 3, 4, 5), (16, 17, 18, 19, 20), (31, 32, 0, 34, 35), (46, 47, 48, 49, 50),
         (61, 62, 63, 64, 65)),
        strict=True,
    )
    for row, number in enumerate(numbers, start=1)
    if number
}  # fmt: skip


def coverall_claimed(tenant, progressive_game: ProgressiveGame, *, balls_before: int):
    """Game 13 in play, its $1,500 jackpot within 52 calls announced: ``balls_before`` balls off
    the card called, then the card's 24 numbers, Gloria Santos's coverall claimed on the last and
    her card verified."""
    from beano.rules.claims import Witness
    from games import claims_services
    from games.models import BallCall
    from tests.fixtures.games import at_night, start_game_for_tests

    game = progressive_game.game
    occasion = game.occasion
    PrizePart.objects.filter(game=game).update(announced_at=at_night(occasion, 20, 0))
    part = game.parts.get()
    start_game_for_tests(game, at_night(occasion, 20, 1))
    others = [n for n in range(1, 76) if n not in COVERALL_CARD.values()][:balls_before]
    for sequence, number in enumerate([*others, *COVERALL_CARD.values()], start=1):
        BallCall.objects.create(
            game=game,
            sequence=sequence,
            number=number,
            called_at=at_night(occasion, 20, 2 + sequence // 60, sequence % 60),
        )
    claim = claims_services.record_claim(
        game=game,
        part=part,
        ball_in_hand=65,
        calling_begun=True,
        player_name="Gloria Santos",
        table="8",
        by=tenant.member_in_charge,
    )
    card = claims_services.verify_card(
        claim=claim,
        numbers=COVERALL_CARD,
        witnesses=[Witness("Rose Medeiros", "12")],
        by=tenant.member_in_charge,
    )
    assert card.valid
    return claim


def record_winner(tenant, claim):
    from games import claims_services
    from games.claims_services import PlayerEntry

    return claims_services.record_winners(
        claims=[claim], players=[PlayerEntry("Gloria Santos")], by=tenant.member_in_charge
    )


def settle(tenant, pg, outcome: str) -> JackpotLedgerEntry:
    return jackpot_settlement.settle_game(
        progressive_game=pg,
        won_within_calls=outcome == "won",
        consolation_paid=outcome == "consolation",
        by=tenant.member_in_charge,
    )


def test_a_coverall_after_the_calls_does_not_win_the_jackpot(
    tenant, open_occasion, progressive_game
):
    claim = coverall_claimed(tenant, progressive_game, balls_before=29)  # on ball 53
    with pytest.raises(rules.RuleViolation) as refusal:
        record_winner(tenant, claim)
    assert "Gloria Santos won on ball 53: the jackpot is won only within 52 calls." in str(
        refusal.value
    )
    assert not Winner.objects.exists()
    refused_with("J-8A2-WON-WITHIN-CALLS")
    # Not won within the calls: the jackpot carries to the next occasion, whole.
    entry = settle(tenant, progressive_game, "not_won")
    assert (entry.paid, entry.carried_out) == (Decimal("0"), Decimal("1500.00"))


@pytest.mark.parametrize("outcome", ["not_won", "consolation"])
def test_a_jackpot_won_within_the_calls_is_never_carried_over(
    tenant, open_occasion, progressive_game, outcome
):
    claim = coverall_claimed(tenant, progressive_game, balls_before=28)  # on ball 52
    (winner,) = record_winner(tenant, claim)
    assert winner.share == Decimal("1500.00")
    with pytest.raises(rules.RuleViolation) as refusal:
        settle(tenant, progressive_game, outcome)
    assert "Gloria Santos won the jackpot within its 52 calls" in str(refusal.value)
    assert not JackpotLedgerEntry.objects.exists()
    refused_with("J-8A2-AS-PLAYED")
    entry = settle(tenant, progressive_game, "won")
    assert (entry.paid, entry.paid_kind, entry.carried_out) == (
        Decimal("1500.00"),
        "jackpot",
        Decimal("0"),
    )


def test_a_jackpot_is_recorded_won_only_with_its_winner(tenant, open_occasion, progressive_game):
    coverall_claimed(tenant, progressive_game, balls_before=10)  # the card is not yet verified
    with pytest.raises(rules.RuleViolation) as refusal:
        settle(tenant, progressive_game, "won")
    assert "no winner of the jackpot is recorded within its 52 calls" in str(refusal.value)
    refused_with("J-8A2-AS-PLAYED")
    assert settle(tenant, progressive_game, "consolation").carried_out == Decimal("1500.00")

"""961 CMR 3.04(6)(f) at the close of an occasion: the designated prize is awarded, so a night
does not close with a winner owed. The close is also judged as ``occasion.close`` for the people
who must have been present, person by person (3.04(1)(g), ``workers.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from beano.rules.base import rule
from beano.rules.limits import Limits
from beano.rules.money import usd

#: The close of an occasion, as far as its prizes go.
CLOSE_PRIZES = "occasion.close.prizes"


@dataclass(frozen=True)
class OwedPrize:
    """A winner of the night not paid their whole share: ``paid`` is what the payout recorded
    (None: no payout at all)."""

    game_number: int
    part_order: int
    player_name: str
    share: Decimal
    paid: Decimal | None = None
    merchandise: bool = False  # a prize handed over, recorded as its payout


@dataclass(frozen=True)
class PrizesOwedFacts:
    """At the close: the night's winners not paid their whole share, game by game."""

    owed: tuple[OwedPrize, ...] = ()


@rule(
    code="C-6F-PAID-BY-THE-CLOSE",
    citation="961 CMR 3.04(6)(f)",
    title="Every winner is paid the designated prize before the occasion closes",
    guards=(CLOSE_PRIZES,),
)
def winners_paid_by_the_close(f: PrizesOwedFacts, limits: Limits) -> Iterator[str]:
    """The designated prize is awarded to the winner, divided equally among winners on the same
    call (3.04(6)(f)), the prize announced before the game (6)(b): a night closed with a prize
    still owed has not awarded it, and its money is counted as if it had. Each winner is paid
    their whole share before the occasion closes, live or as the night's sheets record it; a
    merchandise prize is handed over and recorded as its payout. No Director's authorization
    waives a prize owed."""
    for o in f.owed:
        who = o.player_name or "A winner"
        where = f"prize {o.part_order} of game {o.game_number}"
        if not o.paid and o.merchandise:
            yield (
                f"{who} won {usd(o.share)} in merchandise ({where}), not handed over: record "
                "its payout first."
            )
        elif not o.paid:
            yield f"{who} won {usd(o.share)} ({where}) and is not paid: record the payout first."
        else:
            yield (
                f"{who} won {usd(o.share)} ({where}) and is paid {usd(o.paid)}: "
                f"{usd(o.share - o.paid)} is still owed."
            )

"""What the writes of claims, winners and payouts share: the game and the claim locked while
the occasion is open, a name on one line, and several acts judged together."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError

from beano import locking, rules
from beano.actors import Actor
from games.models import Claim, Game
from occasions import moments
from occasions.models import Occasion
from occasions.services import enforce_all, moment_of, refuse_if_sealed, status_at

NAME_LENGTH = 200


def locked_game(game: Game, moment: dt.datetime) -> Game:
    """The game, locked, while its occasion was open at ``moment`` (now, for a live act)."""
    game = locking.lock(
        Game.objects.select_related("occasion__organization", "occasion__license"),
        "occasion",
        "occasion__organization",
        "occasion__license",
    ).get(pk=game.pk)
    refuse_if_sealed(game.occasion)
    status = status_at(game.occasion, moment)
    if status != Occasion.Status.OPEN:
        raise ValidationError(
            f"This occasion is {Occasion.Status(status).label.lower()}: claims and "
            "payouts are recorded while it is open."
        )
    return game


def moment_of_game(game: Game, at: moments.At, by: Actor, act: str) -> dt.datetime:
    return moment_of(game.occasion, at, by=by, act=act)


def locked_claim(claim: Claim, moment: dt.datetime) -> Claim:
    locked_game(claim.game, moment)
    return (
        locking.lock(Claim.objects)
        .select_related("game__occasion__organization", "part__arrangement")
        .get(pk=claim.pk)
    )


def enforce_together(
    checks: Sequence[tuple[str, Any]], occasion: Occasion, by: Actor
) -> list[rules.Decision]:
    """Judge several actions (several winners and their split) and refuse once with every
    violation, so the member in charge sees all that is wrong at once."""
    return enforce_all(checks, occasion, by)

"""A ball called from the console's form, as the console and the laptop's queue
(``offline.services``) both record it, and the words that say it was."""

from __future__ import annotations

from typing import Any

from beano.rules.cards import ball_label
from games import draw_services as services
from games.draw_forms import BallForm
from games.models import BallCall, Game
from occasions import moments


def call_ball(
    form: BallForm,
    *,
    organization: Any,
    occasion_id: int,
    game_id: int,
    by: Any,
    at: moments.At = None,
    request_key: Any = None,
) -> BallCall:
    """The ball of a valid ``form`` called in the game (``Game.DoesNotExist`` for a game not
    of this occasion and organization). ``request_key``: the form's own when None."""
    data = form.cleaned_data
    return services.record_ball_call(
        game=Game(pk=game_id, occasion_id=occasion_id),
        organization=organization,
        number=data["ball"],
        by=by,
        at=at,
        request_key=request_key or data["request_key"],
    )


def called_words(call: BallCall) -> str:
    return f"{ball_label(call.number)} called (#{call.sequence})."

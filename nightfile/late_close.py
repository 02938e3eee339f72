"""Closing a forgotten night on a later day (issue 13): the member in charge left the occasion
open, and the close page cannot close it now at the time it is pressed. The night is closed at
the time it ended, with the reason: each game left in play is finished first at the time it
ended (a game in play blocks the close), then the occasion closes through the floor's own
service, which signs everyone still present out at that time. All in one transaction, every
event carrying the provenance of a close recorded after the fact; the report that follows is
filed as late as the dates say.

This lives above the games, which it finishes, and the occasions, which it closes (the layers
run reports → games → occasions)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from beano import rules
from beano.actors import Actor
from beano.rules import limits_in_force
from beano.rules.base import REGISTRY
from beano.rules.hours import HoursFacts, within_license_hours
from games import program_selectors, program_services
from games.models import Game
from occasions import extensions, floor_services
from occasions.confirm import Left
from occasions.extensions import Owed
from occasions.final_acts import extras_left, refused_at_close
from occasions.models import Occasion
from occasions.services import lock_occasion
from organizations.audit import provenance


@dataclass(frozen=True)
class GameInPlay:
    """A game left in play, and the latest moment its records state: it finished no earlier."""

    game: Game
    last_act: dt.datetime | None


def games_in_play(occasion: Occasion) -> list[GameInPlay]:
    games = Game.objects.filter(occasion=occasion, status=Game.Status.IN_PLAY).order_by("number")
    last = program_selectors.last_acts(games)
    return [GameInPlay(game, last.get(game.pk)) for game in games]


@dataclass(frozen=True)
class LeftAtClose:
    """What a close recorded after the night would find: why it would be refused (judged as the
    close judges it, never logged) and what it only lists, each with where it is put right."""

    refused: tuple[Left, ...]
    listed: tuple[Left, ...]


def _kwargs(occasion: Occasion) -> dict[str, int]:
    return {"org_id": occasion.organization_id, "pk": occasion.pk}


def left_at_close(occasion: Occasion, *, finishes_games: bool = True) -> LeftAtClose:
    """What a close recorded after the night would find, judged as the close judges it: a game
    in play (unless the close finishes it first, as the late close does), a winner owed, a
    compensated bookkeeper absent; a winner owed is paid from their game's sheet."""
    left = extensions.night_left(occasion)

    def pay_at(owed: Owed) -> tuple[str, str]:
        number = owed.prize.game_number
        sheet = reverse("paper_game", kwargs={**_kwargs(occasion), "number": number})
        return (f"Enter the payout from game {number}'s sheet", f"{sheet}#owed")

    if not finishes_games and left.finish is not None:
        # From the sheets a game is finished on its own sheet, at the time written there.
        number = games_in_play(occasion)[0].game.number
        sheet = reverse("paper_game", kwargs={**_kwargs(occasion), "number": number})
        left = replace(left, finish=(f"Enter game {number}'s finish from its sheet", sheet))
    refused = refused_at_close(occasion, left, in_play=not finishes_games, pay_at=pay_at)
    return LeftAtClose(refused=tuple(refused), listed=left.lines + extras_left(occasion))


def _clock(moment: dt.datetime) -> str:
    return f"{timezone.localtime(moment):%-I:%M %p}"


@rules.atomic()
def close_forgotten_night(
    *,
    occasion: Occasion,
    ended_at: dt.datetime,
    reason: str,
    finishes: Mapping[int, dt.datetime],
    by: Actor,
) -> Occasion:
    """Close ``occasion``, still open after its night, at ``ended_at`` for ``reason``; each game
    in play first finishes at its time in ``finishes`` (by the game's id), after its last
    recorded act and no later than the night's end."""
    # A sealed occasion is a closed one: the refusal below says so.
    occasion = lock_occasion(occasion, related=(), sealed_ok=True)
    if not floor_services.closed_late(occasion, by):
        raise ValidationError(
            f"The night of {occasion.date:%A, %B %-d} is not over: close it from the close page."
        )
    reason = floor_services.late_close_reason(occasion, ended_at, reason)
    with provenance(floor_services.late_close_provenance(reason, by)):
        for row in games_in_play(occasion):
            number = row.game.number
            finish = finishes.get(row.game.pk)
            if finish is None:
                raise ValidationError(f"Give the time game {number} finished.")
            if row.last_act is not None and finish < row.last_act:
                raise ValidationError(
                    f"Game {number} cannot finish before its last recorded act "
                    f"({_clock(row.last_act)})."
                )
            if finish > ended_at:
                raise ValidationError(f"Game {number} cannot finish after the night ended.")
            program_services.finish_game(game=row.game, by=by, at=finish)
        return floor_services.close_occasion(
            occasion=occasion, by=by, at=ended_at, late_reason=reason
        )


def past_the_license_hours(occasion: Occasion, ended_at: dt.datetime) -> str:
    """The words that flag a night closed after the hours its license states (961 CMR
    3.04(7)), or "": the close records when the night ended, as it happened, and says so."""
    license = occasion.license
    facts = HoursFacts(
        at=timezone.localtime(ended_at).time(),
        license_start=license.start_time,
        license_end=license.end_time,
    )
    found = list(within_license_hours(facts, limits_in_force(occasion.date)))
    if not found:
        return ""
    rule = REGISTRY["H-7-LICENSE-HOURS"]
    ended = timezone.localtime(ended_at).strftime("%-I:%M %p")
    end = license.end_time.strftime("%-I:%M %p") if license.end_time else ""
    return (
        f"{rule.citation}: The night ended at {ended}, after the license's hours (until "
        f"{end}). The close is recorded as it happened."
    )

"""A game's board as the hall's live pages read it, kept in the shared cache with the occasion's
live version (``occasions.live``): the public flashboard, the caller's console and its refresh
all read this one copy. Every service that changes a board moves the version (at once and again
when it commits), so a copy made before a change is never read after it; after a change the
first reader reads the game and its calls (two queries) and keeps them, and every other reader,
every flashboard and console of the night, reads the copy without a query. When the cache
cannot be reached, each read goes to the database.

What is kept is plain data (numbers, times, a username): no model instance, no user row."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from django.core.cache import cache

from games.models import BallCall, Game
from occasions import live

log = logging.getLogger(__name__)

#: How long a board is kept at most (a change of its occasion ends it sooner).
BOARD_TTL = 10 * 60


@dataclass(frozen=True)
class KeptCall:
    """One entry of the draw, voided ones too, as the console's list of calls shows it."""

    pk: int
    sequence: int
    number: int
    called_at: dt.datetime
    voided_at: dt.datetime | None
    voided_by_name: str
    void_reason: str


@dataclass(frozen=True)
class KeptBoard:
    """A game's entries in the order entered, with what says whose game it is."""

    organization_id: int
    occasion_id: int
    game_id: int
    status: str
    version: int | None
    calls: tuple[KeptCall, ...]


def _key(game_id: int) -> str:
    return f"game:{game_id}:board"


def _read(
    organization_id: int, occasion_id: int, game_id: int, version: int | None, known: Game | None
) -> KeptBoard | None:
    """The game and its entries from the database (two queries; one when the game is ``known``,
    read by the caller as this organization's occasion's); None if the game is not one of this
    organization's occasion's."""
    if known is not None:
        status = known.status
    else:
        status = (
            Game.objects.filter(
                pk=game_id, occasion_id=occasion_id, occasion__organization_id=organization_id
            )
            .values_list("status", flat=True)
            .first()
        )
    if status is None:
        return None
    calls = BallCall.objects.filter(game_id=game_id).order_by("sequence")
    rows = calls.values_list(
        "pk", "sequence", "number", "called_at", "voided_at", "voided_by__username", "void_reason"
    )
    return KeptBoard(
        organization_id=organization_id,
        occasion_id=occasion_id,
        game_id=game_id,
        status=status,
        version=version,
        calls=tuple(
            KeptCall(pk, seq, number, called, voided, by or "", reason)
            for pk, seq, number, called, voided, by, reason in rows
        ),
    )


def _cached(game_id: int) -> object:
    try:
        return cache.get(_key(game_id))
    except Exception:
        log.warning("game %s: the kept board could not be read", game_id)
        return None


def kept_board(
    organization_id: int,
    occasion_id: int,
    game_id: int,
    *,
    known: Game | None = None,
    fresh: bool = False,
) -> KeptBoard | None:
    """The board of this organization's occasion's game, from the cache while the occasion's
    live version stands (no query), else read and kept; None if there is no such game (another
    organization's game is none). ``known``: the game itself, already read as that
    organization's occasion's (the console, the flashboard), so not looked up again.
    ``fresh``: read from the database whatever the cache holds, and kept (a whole page opened:
    the polls that follow it read the copy)."""
    current = live.version(occasion_id)  # read before the database, never after
    kept = None if fresh else _cached(game_id)
    if isinstance(kept, KeptBoard) and current is not None and kept.version == current:
        if (kept.organization_id, kept.occasion_id) != (organization_id, occasion_id):
            return None
        return kept
    board = _read(organization_id, occasion_id, game_id, current, known)
    if board is not None and current is not None:
        try:
            cache.set(_key(game_id), board, BOARD_TTL)
        except Exception:
            log.warning("game %s: the board could not be kept", game_id)
    return board

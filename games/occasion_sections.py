"""What games adds to an occasion (registered from ``GamesConfig.ready()`` through
``occasions.extensions``): the cards of the occasion page with the data each shows, and the
check that keeps an occasion with a game in play from closing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Q, Sum
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from games import claims_selectors, jackpot_selectors, program_selectors
from games.draw_selectors import SHOWN_AFTER_CLOSE, current_first, shown_until
from games.models import Flashboard, Game
from occasions.extensions import FloorGame, FloorGames, Section
from occasions.models import Occasion, PaperRecord


def game_in_play(occasion: Occasion) -> str | None:
    """A game still in play must be finished before the close, or its draw would stay open
    after it."""
    number = (
        Game.objects.filter(occasion=occasion, status=Game.Status.IN_PLAY)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    return None if number is None else f"Finish game {number} before closing the occasion."


def floor_games(occasion: Occasion) -> FloorGames:
    """Every game of the program with its status and the prizes it offers (one query), for
    the floor bar and the summary before the close."""
    rows = (
        Game.objects.filter(occasion=occasion)
        .order_by("number")
        .annotate(prizes=Sum("parts__amount"))
        .values("pk", "number", "kind", "status", "prizes")
    )
    kinds = dict(Game.Kind.choices)
    return FloorGames(
        games=tuple(
            FloorGame(
                pk=r["pk"],
                number=r["number"],
                name=str(kinds.get(r["kind"], r["kind"])),
                status=r["status"],
                prizes=r["prizes"] or 0,
            )
            for r in rows
        )
    )


def _program(request: HttpRequest, occasion: Occasion) -> program_selectors.ProgramSummary:
    return program_selectors.program_summary(occasion)


def _jackpot(request: HttpRequest, occasion: Occasion) -> dict[str, list[Game]]:
    return {"games": list(jackpot_selectors.progressive_games(occasion))}


def _claims(request: HttpRequest, occasion: Occasion) -> claims_selectors.ClaimsSummary:
    return claims_selectors.claims_summary(occasion)


def _draw(request: HttpRequest, occasion: Occasion) -> dict[str, Any] | None:
    """The game being played and the flashboard link (two queries), and whether a game with no
    ball entered was played from paper; no card for a day on which Beano was not played, nor for
    a past day never opened with no game recorded yet."""
    if occasion.status == Occasion.Status.NOT_PLAYED:
        return None
    current = (
        current_first(Game.objects.filter(occasion=occasion))
        .annotate(balls=Count("calls", filter=Q(calls__voided_at__isnull=True)))
        .first()
    )
    if current is None and occasion.passed_unopened:
        return None  # a past day with no game recorded: the way in is from its paper
    board = Flashboard.objects.filter(occasion=occasion, revoked_at__isnull=True).first()
    link = ""
    if board is not None:
        link = request.build_absolute_uri(reverse("flashboard", args=[board.token]))
    on_paper = current is not None and current.balls == 0 and _from_paper(occasion, current)
    # A closed night's link shows its final board for a while, then stops.
    until = shown_until(occasion)
    return {
        "current": current,
        "flashboard": board,
        "link": link,
        "on_paper": on_paper,
        "paper_night": _night_on_paper(occasion),
        "shown_until": until if until is not None and timezone.now() < until else None,
        "shown_hours": SHOWN_AFTER_CLOSE // dt.timedelta(hours=1),
    }


def _night_on_paper(occasion: Occasion) -> bool:
    """The whole night entered from its sheets: no flashboard to make (the occasion page has
    its paper records read)."""
    return any(record.scope == PaperRecord.Scope.WHOLE for record in occasion.paper_records.all())


def _from_paper(occasion: Occasion, game: Game) -> bool:
    """Whether the game was played in a part of the night entered from its control sheets, so
    that its balls may be on the sheets only (the occasion page has its paper records read)."""
    return any(record.holds(game.started_at) for record in occasion.paper_records.all())


SECTIONS = (
    Section("games", "program", "games/sections/games.html", _program),
    Section("jackpot", "floor", "games/sections/jackpot.html", _jackpot),
    Section("claims", "floor", "games/sections/claims.html", _claims),
    Section("draw", "floor", "games/sections/draw.html", _draw),
)

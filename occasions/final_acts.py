"""The summaries shown before the night's final acts at the occasion (open, close): what the act
will do and what is still unfinished, read in a fixed number of queries. The act itself is
judged by the rules only when it is confirmed (``occasions.confirm``)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from beano.rules.money import usd
from occasions import extensions
from occasions import floor_selectors as floor
from occasions.confirm import Confirmation
from occasions.models import Occasion
from occasions.sales_selectors import attendance_check


def _url(name: str, occasion: Occasion) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk})


def _now() -> str:
    return date_format(timezone.localtime(timezone.now()), "g:i A")


def _games_left(games: extensions.FloorGames) -> list[str]:
    lines = []
    if games.in_play is not None:
        lines.append(
            f"Game {games.in_play.number} is still in play: finish it first, or the close is "
            "refused."
        )
    for g in games.never_played:
        prizes = f", {usd(g.prizes)} in prizes" if g.prizes else ""
        lines.append(f"Game {g.number} ({g.name}{prizes}) was never played.")
    return lines


def close_summary(occasion: Occasion) -> Confirmation:
    """Before the close: the games in play or never played, the workers still signed in (the
    close signs them out), and a door whose attendance was not announced."""
    games = extensions.floor_games(occasion)
    present = [p.entry.person.legal_name for p in floor.presences(occasion) if p.is_present]
    unfinished = _games_left(games)
    if present:
        unfinished.append(
            f"{len(present)} still signed in ({', '.join(present)}): the close signs them out."
        )
    if not attendance_check(occasion).announced:
        unfinished.append("The door's attendance count has not been announced.")
    return Confirmation(
        title="Close the occasion?",
        button="Yes, close the occasion",
        action=_url("occasion_close", occasion),
        back=_url("occasion_close", occasion),
        does=(
            f"Close the occasion at {_now()}.",
            "Sign out everyone still signed in at that time.",
            "Stop every change on the floor: no sale, ball, claim or sign-in after it.",
        ),
        unfinished=tuple(unfinished),
        corrections=(
            "A close cannot be undone. The money is counted afterwards in the bookkeeper's "
            "close-out; a report filed with a mistake can be amended from the close-out page.",
        ),
    )


def open_summary(occasion: Occasion, by: Any = None) -> Confirmation:
    """Before the opening: who is in charge, the games planned, and what the rules would refuse
    now (the checklist items not confirmed, the records out of order, ``by`` not signed in on
    the floor)."""
    games = extensions.floor_games(occasion)
    in_charge = floor.in_charge(occasion)
    present = [p for p in floor.presences(occasion) if p.is_present]
    unfinished = []
    if not games.games:
        unfinished.append("No game is in the program yet: the games are planned on the Games page.")
    decision = floor.opening_decision(occasion, timezone.now(), by)
    charge = in_charge.entry.person.legal_name if in_charge is not None else "no one yet"
    return Confirmation(
        title="Open the occasion?",
        button="Yes, open the occasion",
        action=_url("occasion_open", occasion),
        back=_url("opening_checklist", occasion),
        target="#opening-checklist",
        does=(
            f"Open the occasion at {_now()}: the door can sell and games can start.",
            f"Record {charge} as the member in charge, with {len(present)} workers signed in.",
        ),
        unfinished=tuple(unfinished),
        refused=decision.messages,
        corrections=(
            "An opening cannot be undone: its time stays on the record. A night cut short is "
            "closed like any other.",
        ),
    )

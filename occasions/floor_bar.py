"""The floor bar: the one navigation of every page of a night (Workers · Door · Games · Console ·
Claims · Flashboard · Close), with where the night stands and the next step.

Its links to the pages of the apps above (the games' program, console and claims; the reports'
close-out and paper sheets) are theirs to give (``extensions.FLOOR_PAGES``), as where the games
stand is (``extensions.FLOOR_GAMES``): occasions names nothing above it. It reads in two
queries: the games of the program with their status and prizes, and whether the whole night was
entered from its paper sheets (one query when the page has its paper records read). A night
entered whole from paper had no console and no flashboard: the bar offers neither, only what
works."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from occasions import extensions
from occasions.models import Occasion, PaperRecord


@dataclass(frozen=True)
class BarLink:
    key: str
    label: str
    url: str  # empty: nothing to go to yet (shown, not a link)
    active: bool


@dataclass(frozen=True)
class FloorBar:
    links: tuple[BarLink, ...]
    now: str  # where the night stands, e.g. "Game 3 in play"
    next_label: str  # the next step, e.g. "Go to the console" or "Next: open the occasion"
    next_url: str
    laptop_url: str = ""  # who is at the hall laptop, and handing it over (occasions.laptop)


def _url(name: str, occasion: Occasion, **extra: int) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk} | extra)


def _above(key: str, occasion: Occasion, game_pk: int | None = None) -> str:
    """A page of an app above (``extensions.floor_page``): "" where none offers it."""
    return extensions.floor_page(key, occasion, game_pk)


def night_on_paper(occasion: Occasion) -> bool:
    """The whole night entered from its paper sheets (read from the paper records the page has
    read, if it has)."""
    cache = getattr(occasion, "_prefetched_objects_cache", {})
    if "paper_records" in cache:
        return any(r.scope == PaperRecord.Scope.WHOLE for r in cache["paper_records"])
    return PaperRecord.objects.filter(occasion=occasion, scope=PaperRecord.Scope.WHOLE).exists()


def _next_step(
    occasion: Occasion, games: extensions.FloorGames, on_paper: bool = False
) -> tuple[str, str, str]:
    """(where the night stands, the next step, its page)."""
    status = occasion.status
    if status == Occasion.Status.NOT_PLAYED:
        return "Not played", "", ""
    if occasion.passed_unopened:  # its night is over: no live opening, only its paper sheets
        return "Not opened on its night", "", ""
    if status == Occasion.Status.SCHEDULED:
        return "Not open yet", "Next: open the occasion", _url("opening_checklist", occasion)
    if status == Occasion.Status.CLOSED:
        closed = occasion.closed_at
        now = (
            f"Closed at {date_format(timezone.localtime(closed), 'g:i A')}" if closed else "Closed"
        )
        if occasion.is_sealed:  # its report is filed: nothing is next on this night
            return f"{now} · report filed", "", ""
        return now, "Next: close-out and report", _above("closeout", occasion)
    if on_paper:  # typed in from its sheets: the next step is the next sheet
        return "Entering from paper", "Go on with the sheets", _above("paper", occasion)
    in_play, coming = games.in_play, games.next_game
    if in_play is not None:
        return (
            f"Game {in_play.number} in play",
            "Go to the console",
            _above("console", occasion, in_play.pk),
        )
    if coming is not None:
        return f"Next: game {coming.number}", "Go to the games", _above("program", occasion)
    now = "All games played" if games.games else "No games in the program"
    return now, "Next: close the occasion", _url("occasion_close", occasion)


def floor_bar(occasion: Occasion, page: str = "", game_pk: int | None = None) -> FloorBar:
    """The bar for ``page`` (one of the links' keys, or "" for a page of the night not in it).
    On a game's console or claims, ``game_pk`` is that game, so that the other of the two is one
    click away for the same game; elsewhere they go to the game in play (or the last played)."""
    games = extensions.floor_games(occasion)
    on_paper = night_on_paper(occasion)
    now, next_label, next_url = _next_step(occasion, games, on_paper)
    if game_pk is None and games.latest is not None:
        game_pk = games.latest.pk
    console = _above("console", occasion, game_pk)
    claims = _above("claims", occasion, game_pk) if game_pk else ""
    after_close = occasion.status == Occasion.Status.CLOSED
    links = (
        ("workers", "Workers", _url("workers_present", occasion)),
        ("door", "Door", _url("door_sales", occasion)),
        ("games", "Games", _above("program", occasion)),
        ("console", "Console", console),
        ("claims", "Claims", claims),
        ("flashboard", "Flashboard", _url("occasion_detail", occasion) + "#flashboard"),
        (
            "close",
            "Close-out" if after_close else "Close",
            _above("closeout", occasion) if after_close else _url("occasion_close", occasion),
        ),
    )
    if on_paper:  # no caller's console nor flashboard on a night kept on paper
        links = tuple(link for link in links if link[0] not in ("console", "flashboard"))
    return FloorBar(
        links=tuple(BarLink(k, label, url, k == page) for k, label, url in links),
        now=now,
        next_label=next_label,
        next_url=next_url,
        laptop_url=_url("hand_laptop", occasion) if not after_close else "",
    )

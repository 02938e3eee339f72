"""What the apps above occasions add to an occasion, without occasions importing them.

Dependencies point one way (inspections → reports → games → occasions → organizations): the
occasion knows nothing of its games or its report. Where the occasion needs them, it offers a
registry here, and the app above fills it from its ``AppConfig.ready()``:

- ``LAST_ACT_READERS``: the latest moment the app records at an occasion, so that a close is
  not put before the night's last act (the games' balls, claims, winners and payouts);
- ``CLOSE_CHECKS``: why the occasion cannot close yet (a game still in play);
- ``NIGHT_LEFT``: what is left unsettled at the occasion: the prizes still owed to its winners,
  which the rules judge at the close (961 CMR 3.04(6)(f)), and what the summary before the close
  lists, each line with where it is put right (prizes with no winner, games never played, paper
  at the door not counted back);
- ``ON_CLOSE``: what is written with the close, in its transaction (the kept figures), and
  again with each later change of the closed occasion's records
  (``occasions.services.kept_again_with_the_write``);
- ``SECTIONS``: the cards the app shows on the occasion page, each with the data its view reads
  for it, so that no template tag runs a query behind the page's view;
- ``FLOOR_GAMES``: where the night's games stand, for the floor bar on every page of the night;
- ``FLOOR_PAGES``: the pages of the apps above that the floor bar links (the program, the
  console, the claims; the close-out, the paper sheets), so that occasions names none of them;
- ``KEPT_PAGE``: a closed occasion's door counts, the totals of its prizes and other sales and
  the prizes awarded to its winners as kept with its figures (``reports.kept``), which its
  pages read instead of totalling its sale lines, extras and winners again."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from typing import Any

from django.http import HttpRequest

from beano.rules.close import OwedPrize
from occasions.confirm import Left
from occasions.models import Occasion

#: The latest moment another app records at an occasion, or None.
LastActReader = Callable[[Occasion], dt.datetime | None]
#: Why the occasion cannot close yet (one plain sentence), or None when it may.
CloseCheck = Callable[[Occasion], str | None]

#: Written with the close, inside its transaction (the figures the inspector's pages read).
CloseHook = Callable[[Occasion], None]

LAST_ACT_READERS: list[LastActReader] = []
CLOSE_CHECKS: list[CloseCheck] = []
ON_CLOSE: list[CloseHook] = []


@dataclass(frozen=True)
class Owed:
    """A winner owed (part of) their prize, and where the payout is recorded: (words, URL)."""

    prize: OwedPrize
    where: tuple[str, str]


@dataclass(frozen=True)
class NightLeft:
    """What an app above leaves unsettled at an occasion, read in a fixed number of queries:
    the winners still owed, whom the rules judge at the close, and the lines the summary before
    the close lists, each with where it is put right. ``finish``: where a game in play is
    finished (words, URL), for the refusal that names it."""

    owed: tuple[Owed, ...] = ()
    lines: tuple[Left, ...] = ()
    finish: tuple[str, str] | None = None

    def __add__(self, other: NightLeft) -> NightLeft:
        return NightLeft(
            owed=self.owed + other.owed,
            lines=self.lines + other.lines,
            finish=self.finish or other.finish,
        )


NightLeftReader = Callable[[Occasion], NightLeft]
NIGHT_LEFT: list[NightLeftReader] = []


def add_night_left(reader: NightLeftReader) -> None:
    if reader not in NIGHT_LEFT:
        NIGHT_LEFT.append(reader)


def night_left(occasion: Occasion) -> NightLeft:
    """What every app above leaves unsettled at the occasion, in the order they registered."""
    left = NightLeft()
    for reader in NIGHT_LEFT:
        left += reader(occasion)
    return left


def prizes_owed(occasion: Occasion) -> tuple[OwedPrize, ...]:
    """The winners not paid their whole share, as the rules judge them at the close."""
    return tuple(o.prize for o in night_left(occasion).owed)


@dataclass(frozen=True)
class FloorGame:
    """One game of the program as the floor bar and the close summary name it."""

    pk: int
    number: int
    name: str
    status: str  # "planned", "in_play" or "finished"
    prizes: Any  # Decimal: the prizes it offers


@dataclass(frozen=True)
class FloorGames:
    """Where the night's games stand: every game of the program in its order."""

    games: tuple[FloorGame, ...]

    @property
    def in_play(self) -> FloorGame | None:
        return next((g for g in self.games if g.status == "in_play"), None)

    @property
    def next_game(self) -> FloorGame | None:
        return next((g for g in self.games if g.status == "planned"), None)

    @property
    def latest(self) -> FloorGame | None:
        """The game being played, or else the last one played (its claims are the ones at
        hand), or else the first of the program."""
        played = [g for g in self.games if g.status != "planned"]
        return self.in_play or (played[-1] if played else None) or self.next_game

    @property
    def never_played(self) -> tuple[FloorGame, ...]:
        return tuple(g for g in self.games if g.status == "planned")


#: Where the night's games stand (one fixed number of queries), or None if the app has none.
FloorGamesReader = Callable[[Occasion], FloorGames]
FLOOR_GAMES: list[FloorGamesReader] = []

#: A page of the night in an app above, for the floor bar: its URL for the occasion (and the
#: game, where the page is one game's), by what the bar calls it.
FloorPage = Callable[[Occasion, "int | None"], str]
FLOOR_PAGE_KEYS = {
    "program": "the games' program (games)",
    "console": "the caller's console of a game, or the console's start without one (games)",
    "claims": "the claims of a game (games)",
    "closeout": "the close-out and report of a closed occasion (reports)",
    "paper": "the night's paper sheets, entering it after the fact (nightfile)",
}
FLOOR_PAGES: dict[str, FloorPage] = {}


@dataclass(frozen=True)
class Section:
    """A card of the occasion page shown by an app above occasions. ``slot`` is where on the
    page it goes (one of ``SLOTS``), in the order the sections were registered; ``read`` gives
    the data its template shows as ``data`` (None: the card is not shown)."""

    name: str
    slot: str
    template: str
    read: Callable[[HttpRequest, Occasion], Any]


#: The places on the occasion page where other apps' cards go: after the sales (the program),
#: after the prizes and other sales (the floor: jackpots, winners, the draw), after the close
#: (the report).
SLOTS = ("program", "floor", "report")
SECTIONS: list[Section] = []


def add_last_act_reader(reader: LastActReader) -> None:
    if reader not in LAST_ACT_READERS:
        LAST_ACT_READERS.append(reader)


def add_close_check(check: CloseCheck) -> None:
    if check not in CLOSE_CHECKS:
        CLOSE_CHECKS.append(check)


def add_close_hook(hook: CloseHook) -> None:
    if hook not in ON_CLOSE:
        ON_CLOSE.append(hook)


def closed(occasion: Occasion) -> None:
    """Run every app's close hook: called by the close, inside its transaction."""
    for hook in ON_CLOSE:
        hook(occasion)


@dataclass(frozen=True)
class KeptPage:
    """What a closed occasion's pages read as kept with its figures, in one read: its door's
    counts (an ``occasions.sales_selectors.DoorCounts``), the totals of its prizes and other
    sales (``occasions.extras_selectors.EXTRAS_TOTALS``, Decimals by name), each None when not
    kept (kept before it was: counted from the records), and the prizes awarded to its
    winners."""

    door: Any
    extras: dict[str, Any] | None
    prizes: Decimal


#: A closed occasion's ``KeptPage``, or None when nothing is kept for it.
KeptPageReader = Callable[[Occasion], KeptPage | None]
KEPT_PAGE: list[KeptPageReader] = []


def add_kept_page(reader: KeptPageReader) -> None:
    if reader not in KEPT_PAGE:
        KEPT_PAGE.append(reader)


def kept_page(occasion: Occasion) -> KeptPage | None:
    """A closed occasion's figures as the app keeping them kept them (one query), or None: for
    an occasion not closed (its figures are counted now), or none kept."""
    if occasion.status != Occasion.Status.CLOSED:
        return None
    for reader in KEPT_PAGE:
        return reader(occasion)
    return None


class _NotRead(Enum):
    NOT_READ = "not read"


#: What a page passes for the ``KeptPage`` it has not read: None is an answer (nothing kept).
NOT_READ = _NotRead.NOT_READ
MaybeRead = KeptPage | None | _NotRead


def kept_page_once(occasion: Occasion, kept: MaybeRead) -> KeptPage | None:
    """``kept`` as the page read it, or read now if it has not been."""
    return kept_page(occasion) if kept is NOT_READ else kept


def add_section(section: Section) -> None:
    if section.slot not in SLOTS:
        raise ValueError(f"{section.slot!r} is not a place on the occasion page: one of {SLOTS}")
    if all(s.name != section.name for s in SECTIONS):
        SECTIONS.append(section)


def add_floor_games(reader: FloorGamesReader) -> None:
    if reader not in FLOOR_GAMES:
        FLOOR_GAMES.append(reader)


def floor_games(occasion: Occasion) -> FloorGames:
    """Where the night's games stand, from the app that keeps them (no games without one)."""
    for reader in FLOOR_GAMES:
        return reader(occasion)
    return FloorGames(games=())


def add_floor_pages(pages: dict[str, FloorPage]) -> None:
    for key, page in pages.items():
        if key not in FLOOR_PAGE_KEYS:
            raise ValueError(f"{key!r} is not a page of the floor bar: {sorted(FLOOR_PAGE_KEYS)}")
        FLOOR_PAGES.setdefault(key, page)


def floor_page(key: str, occasion: Occasion, game_pk: int | None = None) -> str:
    """The URL of the floor bar's page ``key`` (and ``game_pk``), or "" where no app offers it."""
    if key not in FLOOR_PAGE_KEYS:
        raise ValueError(f"{key!r} is not a page of the floor bar: {sorted(FLOOR_PAGE_KEYS)}")
    page = FLOOR_PAGES.get(key)
    return page(occasion, game_pk) if page is not None else ""


def why_not_close(occasion: Occasion) -> str | None:
    """The first reason another app gives for the occasion not to close yet, or None."""
    for check in CLOSE_CHECKS:
        reason = check(occasion)
        if reason:
            return reason
    return None


def sections(request: HttpRequest, occasion: Occasion) -> dict[str, list[dict[str, Any]]]:
    """The other apps' cards of the occasion page, by slot, each with its data read now."""
    out: dict[str, list[dict[str, Any]]] = {slot: [] for slot in SLOTS}
    for section in SECTIONS:
        data = section.read(request, occasion)
        if data is not None:
            out[section.slot].append(
                {"name": section.name, "template": section.template, "data": data}
            )
    return out

"""961 CMR 3.04(6) and the receptacle of (4)(b) as the games are played: only arrangements the
Director authorized, every prize announced before its game, all 75 balls in the receptacle
before each game, games only while the occasion is open and second-half games only once the
second half has begun (3.04(5)(c))."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from beano.rules.base import rule
from beano.rules.limits import Limits

ADD_PART = "prize_part.add"
ANNOUNCE_PART = "prize_part.announce"
CONFIRM_BALLS = "game.confirm_balls"
START_GAME = "game.start"

BALLS = 75


@dataclass(frozen=True)
class ArrangementFacts:
    """The arrangement a prize part requires, and the codes of every arrangement named in an
    authorization of the organization's valid on the occasion's date."""

    code: str
    name: str
    authorized_codes: frozenset[str]


@rule(
    code="G-6C-AUTHORIZED",
    citation="961 CMR 3.04(6)(c)",
    title="Only arrangements the Director authorized in writing are required to win",
    guards=(ADD_PART, ANNOUNCE_PART, "jackpot.series.start", "jackpot.series.change_rules"),
)
def arrangement_authorized(f: ArrangementFacts, limits: Limits) -> Iterator[str]:
    """No arrangement of numbers may be required to win other than those the Director has
    authorized in writing: the arrangement must be named in one of the organization's
    authorizations of permissible winning arrangements valid on the occasion's date (for a
    progressive series, on the day its rules are announced or changed, not only later at a
    game's announcement mid-night). This rule
    is the Director's authorization itself, so nothing waives it."""
    if f.code not in f.authorized_codes:
        yield (
            f"{f.name} is not among the arrangements the Director has authorized in writing "
            "for this organization on the occasion's date."
        )


@dataclass(frozen=True)
class OccasionPlayFacts:
    """Where the occasion stands when a game is announced, prepared or started."""

    occasion_status: str  # scheduled, open, closed, not_played


@rule(
    code="G-7-DURING-OCCASION",
    citation="961 CMR 3.04(7)",
    title="Games are announced and played only while the occasion is open",
    guards=(ANNOUNCE_PART, CONFIRM_BALLS, START_GAME, "ball.call", "ball.correct"),
)
def during_open_occasion(f: OccasionPlayFacts, limits: Limits) -> Iterator[str]:
    """Beano is conducted only during the hours in force: an occasion opens within them (the
    opening is judged by the hours rules) and ends at its close, so a game's prize is announced,
    its balls are checked and it begins only between the opening and the close."""
    if f.occasion_status != "open":
        words = {"scheduled": "has not opened", "closed": "is closed"}
        state = words.get(f.occasion_status, "was not played")
        yield f"The occasion {state}: games are played only while it is open."


@dataclass(frozen=True)
class StartFacts:
    """The prize parts of the game about to begin, as announced so far."""

    game_number: int
    parts: int
    first_part_announced: bool
    bonus_parts_not_announced: tuple[int, ...] = ()  # their orders


@rule(
    code="G-6B-ANNOUNCED",
    citation="961 CMR 3.04(6)(b)",
    title="The prize and the arrangement are announced before the game begins",
    guards=(START_GAME,),
)
def announced_before_start(f: StartFacts, limits: Limits) -> Iterator[str]:
    """Before any game is begun, the amount of the prize and the arrangement required to win
    are announced. A game divided into several prizes has each announced immediately before it
    is played: the game begins once its first part is announced (and every bonus part, which is
    won on the same call as the part it rides on); a later part is announced before it is
    played, which is checked when a claim is made on it."""
    if f.parts == 0:
        yield f"Game {f.game_number} has no prize: add its prize and arrangement first."
        return
    if not f.first_part_announced:
        yield f"Announce game {f.game_number}'s prize and arrangement before it begins."
    for order in f.bonus_parts_not_announced:
        yield f"Announce game {f.game_number}'s bonus prize (part {order}) before it begins."


@dataclass(frozen=True)
class ReceptacleFacts:
    """The receptacle before a game: whether its 75 balls were confirmed present, and when."""

    game_number: int
    balls_confirmed_at: dt.datetime | None
    game_in_play: int | None  # another game of the occasion still being played
    last_game_finished_at: dt.datetime | None  # when the occasion's latest game ended


@rule(
    code="G-4B-ALL-BALLS",
    citation="961 CMR 3.04(4)(b)",
    title="All seventy-five balls are confirmed in the receptacle before each game begins",
    guards=(START_GAME,),
)
def all_balls_present(f: ReceptacleFacts, limits: Limits) -> Iterator[str]:
    """All seventy-five objects or balls must be present in the receptacle before each game is
    begun: the member in charge confirms it for each game, after the game before it has ended
    (its balls go back only after its conclusion, 3.04(6)(a))."""
    if f.balls_confirmed_at is None:
        yield f"Confirm that all {BALLS} balls are in the receptacle before game {f.game_number}."
    elif f.last_game_finished_at is not None and f.balls_confirmed_at < f.last_game_finished_at:
        yield (
            f"The balls were confirmed before the last game ended; confirm all {BALLS} balls "
            f"again before game {f.game_number}."
        )


@rule(
    code="G-4B-RECEPTACLE-FREE",
    citation="961 CMR 3.04(4)(b)",
    title="No game begins, nor are its balls checked, while another game is being played",
    guards=(CONFIRM_BALLS, START_GAME),
)
def receptacle_free(f: ReceptacleFacts, limits: Limits) -> Iterator[str]:
    """A ball drawn is not returned to the receptacle until its game has concluded (3.04(6)(a)),
    so while a game is played the receptacle cannot hold all seventy-five balls for another."""
    if f.game_in_play is not None:
        yield (
            f"Game {f.game_in_play} is still being played: its balls are out of the receptacle "
            "until it is finished."
        )


@dataclass(frozen=True)
class HalfFacts:
    game_number: int
    half: int
    second_half_started: bool


@rule(
    code="G-5C-SECOND-HALF",
    citation="961 CMR 3.04(5)(c)",
    title="A second-half game begins only after the second half has started",
    guards=(START_GAME,),
)
def second_half_started(f: HalfFacts, limits: Limits) -> Iterator[str]:
    """The attendance is announced before the second half starts, and the second half is
    started only after it: a game of the second half cannot begin before then."""
    if f.half == 2 and not f.second_half_started:
        yield (
            f"Game {f.game_number} is a second-half game: announce the attendance and start the "
            "second half first."
        )

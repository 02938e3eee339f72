"""961 CMR 3.04(6)(h) and (8)(a)2: progressive jackpot games carried over from occasion to
occasion under the rules the organization announced at the start, within the Beano Law's
maximum jackpot and number of progressive games per occasion (dated figures, never constants).

The citation house form stops at the lettered paragraph, so paragraph 2 of (8)(a) is cited as
"961 CMR 3.04(8)(a)" and named in each title."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from django.db import models

from beano.rules.base import rule
from beano.rules.claims import WinningClaimFacts
from beano.rules.limits import LimitName, Limits
from beano.rules.money import usd
from beano.rules.workers import RECORD_WINNER

START_SERIES = "jackpot.series.start"
CHANGE_SERIES_RULES = "jackpot.series.change_rules"
ATTACH_GAME = "jackpot.game.attach"
SETTLE_GAME = "jackpot.game.settle"

#: A 75-ball game cannot allow more calls than there are balls.
ALL_BALLS = 75


class JackpotMode(models.TextChoices):
    """The two elements of 961 CMR 3.04(6)(h), one of which a progressive game incorporates."""

    GROWING_JACKPOT = "growing_jackpot", "Growing jackpot (up to a cap)"
    GROWING_CALLS = "growing_calls", "Growing number of calls"


def next_jackpot(
    carried_in: Decimal, increment: Decimal, cap: Decimal | None, maximum: Decimal | None
) -> Decimal:
    """The jackpot of the next occasion: the amount carried in plus the increment, stopped at
    the series' cap and at the maximum in force (3.04(6)(h)1). A carried amount is never cut:
    one already above the maximum stays as it is, for the rule to refuse."""
    ceiling = min((c for c in (cap, maximum) if c is not None), default=None)
    grown = carried_in + increment
    if ceiling is not None:
        grown = min(grown, ceiling)
    return max(carried_in, grown)


def next_calls(calls_allowed: int, increment: int) -> int:
    """The calls allowed at the next occasion (3.04(6)(h)2), never more than the 75 balls."""
    return min(ALL_BALLS, calls_allowed + increment)


@dataclass(frozen=True)
class SeriesRulesFacts:
    """The rules of a progressive series as announced (or as a change would make them)."""

    mode: str
    starting_amount: Decimal
    increment: Decimal
    cap: Decimal | None
    calls_allowed: int
    calls_increment: int
    consolation_amount: Decimal
    arrangement: str
    rules_text: str


@rule(
    code="J-6H-ONE-ELEMENT",
    citation="961 CMR 3.04(6)(h)",
    title="A progressive series grows its jackpot up to a cap, or its number of calls",
    guards=(START_SERIES, CHANGE_SERIES_RULES),
)
def series_has_one_element(f: SeriesRulesFacts, limits: Limits) -> Iterator[str]:
    """A progressive jackpot game incorporates one of two elements: the jackpot increases from
    occasion to occasion until it reaches the maximum the Beano Law permits, or the number of
    calls required to win increases."""
    if f.mode == JackpotMode.GROWING_JACKPOT:
        if f.increment <= 0:
            yield "A growing jackpot increases from occasion to occasion: give the increment."
        if f.cap is None or f.cap <= f.starting_amount:
            yield "A growing jackpot grows up to a cap above its starting amount: give the cap."
    elif f.mode == JackpotMode.GROWING_CALLS:
        if f.calls_increment < 1:
            yield "A growing number of calls increases each occasion: give the calls added."
        if f.calls_allowed >= ALL_BALLS:
            yield f"The calls allowed must start below {ALL_BALLS} to be able to grow."
    else:
        yield "Choose a growing jackpot or a growing number of calls."


@rule(
    code="J-6H-RULES-ANNOUNCED",
    citation="961 CMR 3.04(6)(h)",
    title="The rules of a progressive series are announced in full at its start",
    guards=(START_SERIES, CHANGE_SERIES_RULES),
)
def series_rules_announced(f: SeriesRulesFacts, limits: Limits) -> Iterator[str]:
    """The organization announces the rules of each progressive jackpot game before it begins:
    the arrangement, the calls allowed and the rules as read to the players."""
    if not f.rules_text.strip():
        yield "Give the rules as they are announced to the players."
    if not f.arrangement.strip():
        yield "Name the arrangement that wins the jackpot."
    if not 1 <= f.calls_allowed <= ALL_BALLS:
        yield f"The calls allowed are between 1 and {ALL_BALLS}."


@rule(
    code="J-8A2-SERIES-WITHIN-MAX",
    citation="961 CMR 3.04(8)(a)",
    title="(8)(a)2: a series' starting jackpot and cap stay within the maximum in force",
    guards=(START_SERIES, CHANGE_SERIES_RULES),
)
def series_within_maximum(f: SeriesRulesFacts, limits: Limits) -> Iterator[str]:
    """The prize of a progressive jackpot game does not exceed the maximum the Beano Law
    permits for a single progressive jackpot game ($3,000 since 2000-10-05), so neither the
    starting jackpot nor its cap may."""
    maximum = limits.get(LimitName.MAX_PROGRESSIVE_JACKPOT)
    if maximum is None:
        return
    if f.starting_amount > maximum:
        yield (
            f"The starting jackpot {usd(f.starting_amount)} is over the maximum progressive "
            f"jackpot in force, {usd(maximum)}."
        )
    if f.cap is not None and f.cap > maximum:
        yield (
            f"The cap {usd(f.cap)} is over the maximum progressive jackpot in force, "
            f"{usd(maximum)}."
        )


def _and(words: tuple[str, ...]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True)
class SeriesChangeFacts:
    """A change to a series' announced rules, and how far the series has gone."""

    series_name: str
    first_game_begun: bool
    jackpot_won: bool
    changed: tuple[str, ...]


@rule(
    code="J-6H-RULES-FIXED",
    citation="961 CMR 3.04(6)(h)",
    title="A series' rules do not change after its first game and before its jackpot is won",
    guards=(CHANGE_SERIES_RULES,),
)
def series_rules_fixed(f: SeriesChangeFacts, limits: Limits) -> Iterator[str]:
    """The organization may not change the rules after the beginning of the jackpot game and
    before the jackpot is won; it may change them after the win, before the next series."""
    if f.changed and f.first_game_begun and not f.jackpot_won:
        yield (
            f"{f.series_name} has begun and its jackpot is not won, so the rules announced "
            f"for it stand: {_and(f.changed)} cannot change until the jackpot is won."
        )


@dataclass(frozen=True)
class ProgressiveGameFacts:
    """A game of an occasion about to carry the series' jackpot."""

    series_name: str
    series_started_on: dt.date
    series_won: bool
    occasion_date: dt.date
    game_number: int
    game_begun: bool
    carried_in: Decimal
    jackpot: Decimal
    progressive_games_at_occasion: int  # including this one


@rule(
    code="J-6H-ANNOUNCED-BEFORE-GAME",
    citation="961 CMR 3.04(6)(h)",
    title="A game carries a series' jackpot only under rules announced before it begins",
    guards=(ATTACH_GAME,),
)
def announced_before_the_game(f: ProgressiveGameFacts, limits: Limits) -> Iterator[str]:
    """The rules of the progressive jackpot game are announced before the game begins; a series
    whose jackpot was won is over (its successor is a new series with its own rules)."""
    if f.series_won:
        yield f"The jackpot of {f.series_name} was won: start a new series for this game."
    if f.series_started_on > f.occasion_date:
        yield (
            f"The rules of {f.series_name} were announced on {f.series_started_on:%B %-d, %Y}, "
            f"after this occasion of {f.occasion_date:%B %-d, %Y}."
        )
    if f.game_begun:
        yield f"Game {f.game_number} has begun: its jackpot is set before the game starts."


@rule(
    code="J-8A2-JACKPOT-WITHIN-MAX",
    citation="961 CMR 3.04(8)(a)",
    title="(8)(a)2: the jackpot of an occasion never exceeds the maximum in force that day",
    guards=(ATTACH_GAME,),
)
def jackpot_within_maximum(f: ProgressiveGameFacts, limits: Limits) -> Iterator[str]:
    """The prize of a progressive jackpot game does not exceed the maximum the Beano Law
    permits on the occasion's date; the increment stops at that maximum, so only a jackpot
    carried in above a lowered maximum can reach this."""
    maximum = limits.get(LimitName.MAX_PROGRESSIVE_JACKPOT)
    if maximum is not None and f.jackpot > maximum:
        yield (
            f"The jackpot of game {f.game_number}, {usd(f.jackpot)} ({usd(f.carried_in)} "
            f"carried in), is over the maximum progressive jackpot in force on "
            f"{f.occasion_date:%B %-d, %Y}, {usd(maximum)}."
        )


@rule(
    code="J-8A2-GAMES-PER-OCCASION",
    citation="961 CMR 3.04(8)(a)",
    title="(8)(a)2: progressive games per occasion stay within the number in force, if any",
    guards=(ATTACH_GAME,),
)
def progressive_games_per_occasion(f: ProgressiveGameFacts, limits: Limits) -> Iterator[str]:
    """Progressive jackpot games may be conducted at each occasion as long as their number does
    not exceed the maximum the Beano Law permits; no figure is known, so none is applied until
    the Commission enters one."""
    most = limits.get(LimitName.MAX_PROGRESSIVE_GAMES)
    if most is not None and f.progressive_games_at_occasion > most:
        yield (
            f"Game {f.game_number} would be progressive game {f.progressive_games_at_occasion} "
            f"of this occasion; at most {most:,.0f} are permitted."
        )


@dataclass(frozen=True)
class SettleFacts:
    """The outcome of a progressive game as recorded against the series' announced rules."""

    game_number: int
    won_within_calls: bool
    consolation_paid: bool
    consolation_announced: Decimal
    calls_allowed: int = 0
    #: Balls were called in the game: its draw is on record.
    draw_recorded: bool = False
    #: The winners of the jackpot prize recorded in the game within the calls.
    jackpot_winners: tuple[str, ...] = ()


@rule(
    code="J-8A2-AS-ANNOUNCED",
    citation="961 CMR 3.04(8)(a)",
    title="(8)(a)2: the jackpot is paid or carried over as the announced rules say",
    guards=(SETTLE_GAME,),
)
def settled_as_announced(f: SettleFacts, limits: Limits) -> Iterator[str]:
    """The prize is carried over from occasion to occasion in accordance with the rules the
    organization announced: a consolation is paid only where those rules announce one, and only
    when the jackpot was not won within the calls."""
    if f.won_within_calls and f.consolation_paid:
        yield f"Game {f.game_number}: a jackpot won within the calls pays no consolation."
    if f.consolation_paid and f.consolation_announced <= 0:
        yield f"Game {f.game_number}: the announced rules of this series have no consolation."


@rule(
    code="J-8A2-AS-PLAYED",
    citation="961 CMR 3.04(8)(a)",
    title="(8)(a)2: the outcome recorded is the game's, as its draw and winners are recorded",
    guards=(SETTLE_GAME,),
)
def settled_as_played(f: SettleFacts, limits: Limits) -> Iterator[str]:
    """The jackpot is carried over only when it was not won: a jackpot whose winner is recorded
    within the calls is recorded as won (carried over as well, it would be paid twice), and one
    is recorded as won only when its winner is, once the game's draw is on record."""
    if f.won_within_calls and f.draw_recorded and not f.jackpot_winners:
        yield (
            f"Game {f.game_number}: no winner of the jackpot is recorded within its "
            f"{f.calls_allowed} calls. Record the winner first, or the jackpot as not won."
        )
    if not f.won_within_calls and f.jackpot_winners:
        yield (
            f"Game {f.game_number}: {' and '.join(f.jackpot_winners)} won the jackpot within "
            f"its {f.calls_allowed} calls: it is not carried over. Record it as won."
        )


@rule(
    code="J-8A2-WON-WITHIN-CALLS",
    citation="961 CMR 3.04(8)(a)",
    title="(8)(a)2: a progressive game's jackpot is won only within the calls announced",
    guards=(RECORD_WINNER,),
)
def jackpot_won_within_the_calls(f: WinningClaimFacts, limits: Limits) -> Iterator[str]:
    """The jackpot goes to a winner within the number of calls the series' announced rules
    allow that night; a claim on a later call does not win it (the first after the calls wins
    the consolation, where the rules announce one)."""
    allowed = f.jackpot_calls_allowed
    if allowed is not None and f.balls_counted > allowed:
        yield (
            f"{f.player} won on ball {f.balls_counted}: the jackpot is won only within "
            f"{allowed} calls."
        )

"""961 CMR 3.04(6)(a): the drawing of numbers. The caller calls the letter and the number of each
ball removed from the receptacle, accurately; once removed, a ball is not returned to the
receptacle until the game is over. The software records the physical draw (it never draws a
number itself), so these rules judge each ball as the caller enters it, and each correction of a
mis-keyed entry, which voids the entry with its reason and never deletes it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from beano.rules.base import rule
from beano.rules.limits import Limits

CALL = "ball.call"
CORRECT = "ball.correct"
DRAW = (CALL, CORRECT)

COLUMNS = "BINGO"
BALLS = range(1, 76)


def _label(number: int) -> str:
    return f"{COLUMNS[(number - 1) // 15]}{number}" if number in BALLS else str(number)


@dataclass(frozen=True)
class DrawGameFacts:
    """The game a ball is called in (or a call corrected in)."""

    game_number: int
    started: bool  # the game has begun (in play)
    finished: bool  # a winner is recorded, or the game is otherwise over


@dataclass(frozen=True)
class BallCallFacts:
    """One ball as the caller entered it."""

    number: int
    letter: str  # the letter entered with it ("" when only the number was typed)
    already_called_as: int | None  # the sequence of this number's live call in the game, if any


@dataclass(frozen=True)
class CorrectionFacts:
    """A correction of one call: it is voided, with its reason."""

    sequence: int
    number: int
    already_voided: bool
    reason: str


@rule(
    code="D-6A-GAME-IN-PLAY",
    citation="961 CMR 3.04(6)(a)",
    title="Balls are called, and calls corrected, only in a game that has begun",
    guards=DRAW,
)
def game_has_begun(f: DrawGameFacts, limits: Limits) -> Iterator[str]:
    """A ball is drawn for a game once the game has begun: its prize and arrangement announced
    and the 75 balls confirmed in the receptacle (3.04(6)(b), (4)(b)), which starting it records."""
    if not f.started:
        yield f"Game {f.game_number} has not begun: no ball is called in it yet."


@rule(
    code="D-6A-GAME-CONCLUDED",
    citation="961 CMR 3.04(6)(a)",
    title="No ball is called or corrected after a game's conclusion",
    guards=DRAW,
)
def game_not_concluded(f: DrawGameFacts, limits: Limits) -> Iterator[str]:
    """Once a winner is recorded the game is concluded: its balls go back to the receptacle, and
    the calls its winner was verified against stand as they are."""
    if f.finished:
        yield (
            f"Game {f.game_number} is over: no more balls are called in it and its calls "
            "cannot be corrected."
        )


@rule(
    code="D-6A-ONE-OF-75",
    citation="961 CMR 3.04(6)(a)",
    title="A ball called is one of the 75: B1–B15, I16–I30, N31–N45, G46–G60, O61–O75",
    guards=(CALL,),
)
def ball_is_one_of_75(f: BallCallFacts, limits: Limits) -> Iterator[str]:
    """The caller calls the letter and the number of a ball of the 75-ball game; a number outside
    1–75 is no ball at all."""
    if f.number not in BALLS:
        yield f"{f.letter}{f.number} is not a ball: the balls are B1–B15 … O61–O75."


@rule(
    code="D-6A-LETTER-MATCHES",
    citation="961 CMR 3.04(6)(a)",
    title="The letter called is the letter of the number",
    guards=(CALL,),
)
def letter_matches_number(f: BallCallFacts, limits: Limits) -> Iterator[str]:
    """Numbers are called accurately: a letter entered with the number must be its column's
    (B for 1–15 … O for 61–75), or the entry is a slip to be checked before it is recorded."""
    if f.letter and f.number in BALLS and _label(f.number)[0] != f.letter.upper():
        yield f"{f.letter.upper()}{f.number} is no ball: {f.number} is {_label(f.number)}."


@rule(
    code="D-6A-NOT-RETURNED",
    citation="961 CMR 3.04(6)(a)",
    title="A ball is called once in a game: once removed, it is not returned until the game ends",
    guards=(CALL,),
)
def ball_called_once(f: BallCallFacts, limits: Limits) -> Iterator[str]:
    """Once removed, no ball may be returned to the receptacle until after the conclusion of the
    game, so the same number cannot be called twice in one game (a voided, mis-keyed entry was
    never called and does not count)."""
    if f.already_called_as is not None:
        yield (
            f"{_label(f.number)} was already called in this game (call #{f.already_called_as}); "
            "once removed, a ball is not returned to the receptacle until the game ends."
        )


@rule(
    code="D-6A-CORRECTION-REASON",
    citation="961 CMR 3.04(6)(a)",
    title="A mis-keyed call is voided with its reason, never deleted",
    guards=(CORRECT,),
)
def correction_has_reason(f: CorrectionFacts, limits: Limits) -> Iterator[str]:
    """The numbers must be recorded as accurately as they are called: an entry that was not the
    ball called is voided, kept on record with the reason, so the draw can be reviewed."""
    if not f.reason.strip():
        yield f"Say why call #{f.sequence} ({_label(f.number)}) is corrected."


@rule(
    code="D-6A-CORRECTION-ONCE",
    citation="961 CMR 3.04(6)(a)",
    title="A call is voided once",
    guards=(CORRECT,),
)
def correction_of_a_live_call(f: CorrectionFacts, limits: Limits) -> Iterator[str]:
    """A voided call is already out of the draw; voiding it again would overwrite its record."""
    if f.already_voided:
        yield f"Call #{f.sequence} ({_label(f.number)}) is already voided."

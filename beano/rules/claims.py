"""961 CMR 3.04(6)(a), (b), (d), (e), (f), (i): a claim of Beano, which balls count for it, the
verification of the draw and of the winning card, and the division of the prize among winners
on the same call. (1)(h), a worker on the list playing, is judged by W-1H-WORKER-PLAYS in
``workers.py`` on the same action, recording a winner."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal

from beano.rules import names
from beano.rules.base import rule
from beano.rules.cards import (
    ALL_SQUARES,
    FREE,
    NUMBERED_SQUARES,
    ball_label,
    column_range,
    covers,
    is_whole_card,
)
from beano.rules.confirmations import not_confirmed, paused_words
from beano.rules.limits import Limits
from beano.rules.money import ZERO, split_to_the_dollar, usd
from beano.rules.workers import RECORD_WINNER
from beano.text import same_words

RECORD_CLAIM = "game.record_claim"
RECORD_PAYOUT = "game.record_payout"
VERIFY_DRAW = "game.verify_draw"
VERIFY_CARD = "game.verify_card"
CARD_RESULT = "game.card_result"
SHARE_PRIZE = "game.share_prize"


def balls_that_count(
    called: Sequence[int], ball_in_hand: int | None, calling_begun: bool
) -> tuple[int, ...]:
    """The balls that decide the winners of a claim (3.04(6)(a)): the balls called before Beano
    was claimed, and the ball in the caller's hand only if its calling had begun (the caller then
    finishes calling it). A ball removed but not yet begun does not count, even if it was later
    keyed in."""
    counted = [n for n in called if n != ball_in_hand]
    if ball_in_hand is not None and calling_begun:
        counted.append(ball_in_hand)
    return tuple(counted)


@dataclass(frozen=True)
class ClaimFacts:
    """A claim of Beano: the balls called before it (in order), the ball in the caller's hand,
    whether its calling had begun, whether the prize part claimed was announced, and who
    claimed it (the player's name, their table)."""

    called_before: tuple[int, ...]
    ball_in_hand: int | None
    calling_begun: bool
    part_announced: bool
    part_label: str
    player: str
    table: str


@rule(
    code="C-6A-BALL-IN-HAND",
    citation="961 CMR 3.04(6)(a)",
    title="The ball in the caller's hand at a claim is one not yet called",
    guards=(RECORD_CLAIM,),
)
def ball_in_hand_is_not_yet_called(f: ClaimFacts, limits: Limits) -> Iterator[str]:
    """Once removed, no ball is returned to the receptacle and each is called once: the ball in
    hand when Beano is claimed cannot be one called before. It may be the last ball keyed in only
    if its calling had begun (the console records a ball as its calling starts)."""
    if f.ball_in_hand is None:
        if f.calling_begun:
            yield "Calling had begun, but no ball in the caller's hand is given."
        return
    if not 1 <= f.ball_in_hand <= 75:
        yield f"{f.ball_in_hand} is not a ball of the 75-ball game."
        return
    label = ball_label(f.ball_in_hand)
    earlier = f.called_before[:-1] if f.called_before else ()
    if f.ball_in_hand in earlier:
        yield f"{label} was called earlier in this game; it cannot be in the caller's hand."
    elif f.called_before and f.ball_in_hand == f.called_before[-1] and not f.calling_begun:
        yield (
            f"{label} is recorded as called: if its calling had not begun when Beano was "
            "claimed, void that call first."
        )


@rule(
    code="C-6B-PART-ANNOUNCED",
    citation="961 CMR 3.04(6)(b)",
    title="A claim is for a prize whose amount and arrangement were announced",
    guards=(RECORD_CLAIM,),
)
def claimed_prize_was_announced(f: ClaimFacts, limits: Limits) -> Iterator[str]:
    """The amount of the prize and the arrangement to win are announced before the game is
    begun; a prize that was not announced cannot be claimed."""
    if not f.part_announced:
        yield f"{f.part_label} was not announced; it cannot be claimed."


@rule(
    code="C-6E-CLAIMANT",
    citation="961 CMR 3.04(6)(e)",
    title="A claim says who made it: the player's name or their table",
    guards=(RECORD_CLAIM,),
)
def claim_says_who_claimed(f: ClaimFacts, limits: Limits) -> Iterator[str]:
    """The winning card is verified before players at a table or location other than the
    winner's, and the prize is paid to the winner: a claim names the player, or the table where
    they sit, or both. A claim of no one cannot be verified before another table, nor paid."""
    if not (f.player.strip() or f.table.strip()):
        yield (
            "Give the player's name or their table: the card is verified before players at "
            "another table, and the prize is paid to the player who claimed it."
        )


@dataclass(frozen=True)
class DrawVerificationFacts:
    """A verification of the numbers drawn and the balls remaining, requested by a player."""

    member_in_charge: str
    witnesses: tuple[str, ...]
    winners: tuple[str, ...]


@rule(
    code="C-6D-WITNESSES",
    citation="961 CMR 3.04(6)(d)",
    title="The draw is verified before the member in charge and a player other than the winner",
    guards=(VERIFY_DRAW,),
)
def draw_verified_before_witnesses(f: DrawVerificationFacts, limits: Limits) -> Iterator[str]:
    """Verification of the numbers drawn and the balls remaining takes place in the immediate
    presence of the member in charge and one or more players other than the winner."""
    if not f.member_in_charge.strip():
        yield "Name the member in charge in whose presence the draw is verified."
    others = [
        w for w in f.witnesses if w.strip() and not any(names.same_person(w, x) for x in f.winners)
    ]
    if not others:
        yield "Name at least one player, other than the winner, who witnessed the verification."


@dataclass(frozen=True)
class Witness:
    name: str
    table: str


@dataclass(frozen=True)
class CardWitnessFacts:
    """Who saw a winning card verified, and where the winner sits."""

    witnesses: tuple[Witness, ...]
    winner: str
    winner_table: str


@rule(
    code="C-6E-WITNESSES",
    citation="961 CMR 3.04(6)(e)",
    title="A winning card is verified before a player at another table",
    guards=(VERIFY_CARD,),
)
def card_verified_before_another_table(f: CardWitnessFacts, limits: Limits) -> Iterator[str]:
    """The numbers on the winning card are verified in the immediate presence of one or more
    players at a table or location other than the winner's: a witness is named with their
    table, which is not the winner's."""
    good = [
        w
        for w in f.witnesses
        if w.name.strip()
        and w.table.strip()
        and not (f.winner.strip() and names.same_person(w.name, f.winner))
        and not (f.winner_table.strip() and same_words(w.table, f.winner_table))
    ]
    if not good:
        where = f" (the winner is at {f.winner_table})" if f.winner_table.strip() else ""
        yield (
            "Name at least one player, with their table, at a table other than the winner's"
            f"{where}, who witnessed the verification."
        )


@dataclass(frozen=True)
class CardFacts:
    """The numbers read from the winning card, square by square: the squares of the announced
    arrangement, or every numbered square (the whole card); the balls that count for the claim;
    the ball in hand whose calling had not begun (it does not count), and the arrangement."""

    numbers: tuple[tuple[str, int], ...]
    counted: tuple[int, ...]
    not_counted_in_hand: int | None
    arrangement: str
    variants: tuple[tuple[str, ...], ...]

    @property
    def whole_card(self) -> bool:
        """Read as the whole card: every numbered square was read. What was read decides, never
        what the reader said it was: 24 numbers for "any single line" are a card, not a line."""
        return is_whole_card(square for square, _ in self.numbers)

    def covered(self) -> set[str]:
        drawn = set(self.counted)
        return {square for square, number in self.numbers if number in drawn}


@rule(
    code="C-6E-CARD-COLUMNS",
    citation="961 CMR 3.04(6)(e)",
    title="The card's numbers are valid for their squares",
    guards=(CARD_RESULT,),
)
def card_numbers_fit_their_columns(f: CardFacts, limits: Limits) -> Iterator[str]:
    """Every square named is a numbered square of the card (the free centre has no number), every
    number belongs to its column (B 1–15, I 16–30, N 31–45, G 46–60, O 61–75), and no number
    appears twice: otherwise the numbers were misread or the card is not genuine."""
    seen: dict[int, str] = {}
    if not f.numbers:
        yield "No numbers were read from the card."
    for square, number in f.numbers:
        if square == FREE:
            yield "The free centre (N3) has no number."
            continue
        if square not in ALL_SQUARES:
            yield f"{square} is not a square of the card."
            continue
        column = square[0]
        if number not in column_range(column):
            yield f"{number} cannot be in column {column} ({square})."
        if number in seen:
            yield f"{number} appears twice on the card ({seen[number]} and {square})."
        seen.setdefault(number, square)


@rule(
    code="C-6A-BALL-NOT-COUNTED",
    citation="961 CMR 3.04(6)(a)",
    title="A ball removed but not yet called when Beano was claimed does not count",
    guards=(CARD_RESULT,),
)
def uncalled_ball_in_hand_does_not_count(f: CardFacts, limits: Limits) -> Iterator[str]:
    """If Beano is claimed after a ball is removed but before its calling began, that ball does
    not count toward the winners. Reported when the card relies on it: among the squares read
    for the arrangement, or the square that would have completed it on a whole card."""
    ball = f.not_counted_in_hand
    if ball is None:
        return
    squares = [square for square, number in f.numbers if number == ball]
    if not squares:
        return
    covered = f.covered()
    if f.whole_card and (
        covers(f.variants, covered) or not covers(f.variants, covered | set(squares))
    ):
        return
    yield (
        f"{ball_label(ball)} ({squares[0]}) was in the caller's hand, not yet called, when "
        "Beano was claimed: it does not count."
    )


@rule(
    code="C-6E-NUMBERS-DRAWN",
    citation="961 CMR 3.04(6)(e)",
    title="Each covered number on the winning card was drawn",
    guards=(CARD_RESULT,),
)
def covered_numbers_were_drawn(f: CardFacts, limits: Limits) -> Iterator[str]:
    """The numbers appearing on the winning card must in fact have been drawn from the receptacle
    (among the balls that count for the claim). On a whole card the numbers not drawn are simply
    not covered; the squares read for the arrangement must all have been drawn."""
    if f.whole_card:
        return
    drawn = set(f.counted)
    missing = [
        (square, number)
        for square, number in f.numbers
        if number not in drawn and number != f.not_counted_in_hand and square != FREE
    ]
    if not missing:
        return
    needed = max((len(set(v) - {FREE}) for v in f.variants), default=0)
    if len(f.numbers) <= needed:
        for square, number in missing:
            yield f"{number} ({square}) was not drawn."
        return
    # More than the arrangement and less than the card: a card read with a square left blank,
    # said once rather than one line for each number off the arrangement.
    shown = ", ".join(f"{number} ({square})" for square, number in missing[:MISSING_SHOWN])
    more = len(missing) - MISSING_SHOWN
    yield (
        f"{len(f.numbers)} squares were read: more than the arrangement's {needed}, fewer than "
        f"the whole card's {len(NUMBERED_SQUARES)}. Read only the arrangement's squares, each of "
        f"which must have been drawn, or all {len(NUMBERED_SQUARES)} of the card. Not drawn: "
        + shown
        + (f" and {more} more." if more > 0 else ".")
    )


#: The numbers not drawn named in the one message for a card read with a square left blank.
MISSING_SHOWN = 5


@rule(
    code="C-6E-ARRANGEMENT",
    citation="961 CMR 3.04(6)(e)",
    title="The covered squares complete the announced arrangement",
    guards=(CARD_RESULT,),
)
def covered_squares_complete_the_arrangement(f: CardFacts, limits: Limits) -> Iterator[str]:
    """The squares covered by balls that count (and the free centre) complete one variant of the
    arrangement announced for the prize. 3.04(6)(i): it need not be completed on the last number
    called, so the last number need not be on the card."""
    if not covers(f.variants, f.covered()):
        yield f"The covered squares do not complete the announced arrangement ({f.arrangement})."


@dataclass(frozen=True)
class WinningClaimFacts:
    """One claim to be recorded as a winner: its card's latest verification, and its call."""

    player: str
    card_verified_valid: bool
    #: The balls that counted for the claim (3.04(6)(a)).
    balls_counted: int = 0
    #: For the jackpot prize of a progressive game, the calls its series allows; else None.
    jackpot_calls_allowed: int | None = None


@rule(
    code="C-6E-CARD-VERIFIED",
    citation="961 CMR 3.04(6)(e)",
    title="A winner is recorded only on a card verified as winning",
    guards=(RECORD_WINNER,),
)
def winner_card_was_verified(f: WinningClaimFacts, limits: Limits) -> Iterator[str]:
    """The numbers on the winning card must be verified at the time the winner is determined:
    the claim's latest card verification found it winning."""
    if not f.card_verified_valid:
        yield f"{f.player}'s card has not been verified as winning."


@dataclass(frozen=True)
class SplitFacts:
    """The winners of one prize: the calls they won on, the prize and the shares proposed."""

    prize_kind: str  # cash or merchandise
    prize_amount: Decimal
    calls: tuple[str, ...]  # the call each claim won on, e.g. "G52 (#23)"
    shares: tuple[Decimal, ...]
    substitutes: tuple[str, ...]  # merchandise divided: each winner's substitute prize
    already_awarded: bool


@rule(
    code="C-6F-SAME-CALL",
    citation="961 CMR 3.04(6)(f)",
    title="Winners who share a prize won on the call of the same number",
    guards=(SHARE_PRIZE,),
)
def sharers_won_on_the_same_call(f: SplitFacts, limits: Limits) -> Iterator[str]:
    """Winners are recorded together, once per prize: those determined on the call of the same
    number share it; a claim on a later call does not."""
    if f.already_awarded:
        yield "This prize's winners are already recorded; those on one call are recorded together."
    if len(set(f.calls)) > 1:
        yield "The claims were not on the same call (" + ", ".join(sorted(set(f.calls))) + ")."


@rule(
    code="C-6F-EQUAL-DIVISION",
    citation="961 CMR 3.04(6)(f)",
    title="Several winners divide the prize equally to the nearest dollar",
    guards=(SHARE_PRIZE,),
)
def prize_divided_equally(f: SplitFacts, limits: Limits) -> Iterator[str]:
    """Cash: the shares are the division of ``split_to_the_dollar`` (within $1 of each other,
    adding up to the prize, never more). Merchandise for one winner is the prize itself; for
    several, substitute prizes of equal value, each described, whose total does not exceed the
    designated prize."""
    n = len(f.shares)
    if n == 0:
        yield "No winner is given."
        return
    if f.prize_kind == "cash" or n == 1:
        expected = split_to_the_dollar(f.prize_amount, n)
        if list(f.shares) != expected:
            shown = " + ".join(f"{usd(s)}" for s in expected)
            yield f"{usd(f.prize_amount, bare_dollars=True)} among {n} is divided {shown}."
        return
    if len(set(f.shares)) > 1:
        yield "The substitute prizes must be of equal value."
    total = sum(f.shares, ZERO)
    if total > f.prize_amount:
        yield (
            f"The substitute prizes total {usd(total)}, more than the "
            f"{usd(f.prize_amount, bare_dollars=True)} prize."
        )
    if len(f.substitutes) != n or any(not s.strip() for s in f.substitutes):
        yield "Describe the substitute prize of each winner."


@dataclass(frozen=True)
class PayoutFacts:
    """A payout: who pays, who verifies it, the amount and the winner's share."""

    paid_by_id: int | None
    verified_by_id: int | None
    amount: Decimal
    share: Decimal
    #: Both people were signed in on the floor at the moment of the payout (live, the
    #: verifier; entered from paper, the one who paid too).
    both_on_floor: bool = True
    #: The verifier confirmed with their own password or PIN on the laptop (live), or signed
    #: the sheet (from paper); ``verifier_paused_until``: too many wrong tries, and until when
    #: (the hall's time).
    verifier_confirmed: bool = True
    verifier_paused_until: dt.datetime | None = None


#: Form W-2G's citation: a single win at or above the threshold in force collects the winner's
#: details (the threshold is a dated limit, ``LimitName.W2G_THRESHOLD``: $1,200 through 2025,
#: $2,000 from January 1, 2026, under 26 U.S.C. § 6041 as amended).
W2G_CITATION = "26 U.S.C. § 6041; IRS Form W-2G instructions"


def needs_w2g(share: Decimal, threshold: Decimal | None) -> bool:
    """Whether a single win of ``share`` needs Form W-2G (26 U.S.C. § 6041): at or above the
    threshold in force on the occasion's date; never while no threshold is known. What one
    winner takes is the single win, so a prize divided among several is judged share by share."""
    return threshold is not None and share >= threshold


@rule(
    code="C-6E-PAYOUT-VERIFIED",
    citation="961 CMR 3.04(6)(e)",
    title="A second person verifies each payout",
    guards=(RECORD_PAYOUT,),
)
def payout_verified_by_another(f: PayoutFacts, limits: Limits) -> Iterator[str]:
    """The winner is paid once the winning card is verified; the payout is counted out by one
    worker and verified by another, so the person who pays never verifies their own payout. The
    verifier confirms with their own password or PIN (a name picked from a list is not a second
    person), and is signed in on the floor then. A compensated bookkeeper or accountant
    verifies nothing: W-1G-NOT-A-SECOND-PERSON refuses them, citing (1)(g)."""
    if f.verified_by_id is None:
        yield "Name the person who verifies the payout."
    elif f.paid_by_id == f.verified_by_id:
        yield "The person who pays cannot also verify the payout."
    if f.verifier_paused_until is not None:
        yield paused_words("verifier", f.verifier_paused_until)
    elif f.verified_by_id is not None and not f.verifier_confirmed:
        yield not_confirmed("verifier")
    if not f.both_on_floor:
        yield "The verifier (and, on paper, the one who paid) was not on the floor then."


@rule(
    code="C-6F-PAYOUT-SHARE",
    citation="961 CMR 3.04(6)(f)",
    title="The payout is the winner's share of the designated prize",
    guards=(RECORD_PAYOUT,),
)
def payout_is_the_share(f: PayoutFacts, limits: Limits) -> Iterator[str]:
    """The winner is paid exactly the share recorded for them: the prize, or their equal part."""
    if f.amount != f.share:
        yield f"The payout of {usd(f.amount)} is not the winner's share of {usd(f.share)}."

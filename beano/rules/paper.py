"""Paper by serial: 961 CMR 3.04(4)(e), an accurate record of the cards owned (issued to the
door by serial range, counted back, destroyed, counted on the shelf), and 3.04(4)(d)2, an
accurate count of the cards sold in separate categories, available at the close: the paper
issued less the paper counted back must agree with the door's count of its category, or the
difference is explained before the report is filed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from beano.rules.base import rule
from beano.rules.limits import Limits
from beano.rules.reporting import FILE_REPORT

ISSUE = "inventory.issue"
RETURN = "inventory.return"
DESTROY = "inventory.destroy"
STOCK_TAKE = "inventory.stock_take"
MIN_REASON = 10


@dataclass(frozen=True)
class IssueFacts:
    """Cards of one purchase issued to the door for an occasion, by serial range."""

    description: str
    serial_from: int
    serial_to: int
    purchase_from: int | None  # the purchase's serial range (None: bought without serials)
    purchase_to: int | None
    on_hand: int
    overlapping: str = ""  # an issue of these serials still at the door
    occasion_status: str = "scheduled"  # where the occasion stood at the moment of the issue


@rule(
    code="I-4E-ISSUE-SERIALS",
    citation="961 CMR 3.04(4)(e)",
    title="Paper is issued to the door by serial range, from cards on hand",
    guards=(ISSUE,),
)
def issued_from_stock_by_serial(f: IssueFacts, limits: Limits) -> Iterator[str]:
    """An accurate record of the cards owned: each issue names its serials, within the
    purchase's range, none already at the door, and never more cards than are on hand."""
    if f.purchase_from is None or f.purchase_to is None:
        yield f"{f.description} was bought without serials: record its serial range first."
        return
    if f.serial_to < f.serial_from:
        yield "The serial range ends before it starts."
        return
    if f.serial_from < f.purchase_from or f.serial_to > f.purchase_to:
        yield (
            f"Serials {f.serial_from}–{f.serial_to} are not all of this purchase "
            f"({f.purchase_from}–{f.purchase_to})."
        )
    if f.overlapping:
        yield f"Serials {f.serial_from}–{f.serial_to} overlap {f.overlapping}, still at the door."
    quantity = f.serial_to - f.serial_from + 1
    if quantity > f.on_hand:
        yield f"{f.description}: {quantity} cards issued, but only {f.on_hand} are on hand."


@rule(
    code="I-4E-ISSUE-BEFORE-CLOSE",
    citation="961 CMR 3.04(4)(e)",
    title="Paper is issued to the door before the occasion closes",
    guards=(ISSUE,),
)
def issued_before_the_close(f: IssueFacts, limits: Limits) -> Iterator[str]:
    """Paper goes to the door for the night's sales: before the occasion opens or while it is
    open, as of the moment the issue happened."""
    if f.occasion_status not in ("scheduled", "open"):
        yield f"The occasion was {f.occasion_status.replace('_', ' ')} then: no paper is issued."


@dataclass(frozen=True)
class ReturnFacts:
    """The unsold cards of an issue counted back, and the spoiled ones voided."""

    description: str
    issued: int
    returned: int
    voided: int
    occasion_status: str = "closed"


@rule(
    code="I-4E-RETURN-WITHIN-ISSUE",
    citation="961 CMR 3.04(4)(e)",
    title="The cards counted back and voided are within the cards issued",
    guards=(RETURN,),
)
def returned_within_issue(f: ReturnFacts, limits: Limits) -> Iterator[str]:
    """Issued = sold + returned + voided: no issue gives back more than it took."""
    if f.returned < 0 or f.voided < 0:
        yield "Cards returned and voided cannot be negative."
    elif f.returned + f.voided > f.issued:
        yield (
            f"{f.description}: {f.returned} returned and {f.voided} voided, but only {f.issued} "
            "were issued."
        )


@rule(
    code="I-4E-RETURN-AFTER-OPENING",
    citation="961 CMR 3.04(4)(e)",
    title="The unsold paper is counted back once the door has sold",
    guards=(RETURN,),
)
def returned_after_opening(f: ReturnFacts, limits: Limits) -> Iterator[str]:
    """The count back is of the paper left when the door stops selling: during the occasion
    or at its close, not before it opens."""
    if f.occasion_status not in ("open", "closed", "not_played"):
        yield "The occasion had not opened then: the paper is counted back at its close."


@dataclass(frozen=True)
class WitnessedFacts:
    """A second person signing for themselves (a destruction, a stock-take)."""

    witness_named: bool
    witness_is_recorder: bool
    witness_confirmed: bool
    witness_paused: bool = False


@dataclass(frozen=True)
class DestructionFacts:
    description: str
    quantity: int
    on_hand: int
    reason: str
    witness: WitnessedFacts


def _witness_problems(w: WitnessedFacts, act: str) -> Iterator[str]:
    if not w.witness_named:
        yield f"{act} is witnessed by a second person."
    elif w.witness_is_recorder:
        yield f"{act} is witnessed by someone other than the person recording it."
    elif w.witness_paused:
        yield "The witness's confirmations are paused after too many wrong tries."
    elif not w.witness_confirmed:
        yield "The witness has not confirmed with their own password or PIN."


@rule(
    code="I-4E-DESTRUCTION",
    citation="961 CMR 3.04(4)(e)",
    title="Damaged or expired paper is destroyed from cards on hand, with a witness",
    guards=(DESTROY,),
)
def destroyed_with_a_witness(f: DestructionFacts, limits: Limits) -> Iterator[str]:
    """An accurate record of the cards owned: cards destroyed leave the inventory with their
    reason, never more than are on hand, and a second person who confirmed it themselves."""
    if f.quantity <= 0:
        yield "Record at least one card destroyed."
    elif f.quantity > f.on_hand:
        yield f"{f.description}: {f.quantity} cards destroyed, but only {f.on_hand} are on hand."
    if not f.reason:
        yield "Say why the cards are destroyed (damaged, expired, misprinted)."
    yield from _witness_problems(f.witness, "A destruction")


@dataclass(frozen=True)
class StockTakeFacts:
    description: str
    expected: int
    counted: int
    reason: str
    witness: WitnessedFacts


@rule(
    code="I-4E-STOCK-TAKE",
    citation="961 CMR 3.04(4)(e)",
    title="A stock-take records each difference with its reason and a witness",
    guards=(STOCK_TAKE,),
)
def stock_take_explained_and_witnessed(f: StockTakeFacts, limits: Limits) -> Iterator[str]:
    """The cards counted on the shelf stand as the record from then on; a difference from the
    records says why, and a second person witnesses the count, confirming it themselves."""
    if f.counted < 0:
        yield "The count cannot be negative."
    elif f.counted != f.expected and len(f.reason.strip()) < MIN_REASON:
        yield (
            f"{f.description}: {f.counted} counted, {f.expected} by the records: say why they "
            "differ (at least a sentence)."
        )
    yield from _witness_problems(f.witness, "A stock-take")


@dataclass(frozen=True)
class PaperReconciliationFacts:
    """An occasion's paper by serial against its door counts, as its report is about to be
    filed: each disagreement described, and whether it is explained."""

    played: bool
    not_counted_back: tuple[str, ...] = ()  # issues whose unsold cards were never counted back
    disagreements: tuple[str, ...] = ()  # "Bonus: 7 sold by the door, 0 by serial"
    explained: bool = False


@rule(
    code="I-4D-PAPER-RECONCILED",
    citation="961 CMR 3.04(4)(d)",
    title="The door's counts by category agree with the paper issued and counted back",
    guards=(FILE_REPORT,),
)
def paper_reconciled(f: PaperReconciliationFacts, limits: Limits) -> Iterator[str]:
    """An accurate count in separate categories of the cards sold, available at the close: the
    paper issued to the door less the paper counted back and voided is what the door sold, in
    each category; where they disagree, the difference is explained before filing."""
    if not f.played:
        return
    if f.not_counted_back:
        yield "Count back the unsold paper of " + "; ".join(f.not_counted_back) + "."
    if f.disagreements and not f.explained:
        yield (
            "The door's counts and the paper by serial disagree ("
            + "; ".join(f.disagreements)
            + "): explain the difference."
        )

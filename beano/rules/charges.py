"""961 CMR 3.04(4)(c), (4)(d) and (5): prices, sales and the admission charge."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from beano.rules.authorizations import AuthorizationKind
from beano.rules.base import rule
from beano.rules.confirmations import not_confirmed, paused_words
from beano.rules.limits import LimitName, Limits
from beano.rules.money import usd

SET_PRICES = "prices.set"


@dataclass(frozen=True)
class PriceItemFact:
    category: str
    label: str
    price: Decimal


@dataclass(frozen=True)
class PriceListFacts:
    """The price list as it would stand after the change, and whether the occasion has opened."""

    occasion_open_or_closed: bool
    items: tuple[PriceItemFact, ...]


@rule(
    code="C-4C-PRICES-FIXED",
    citation="961 CMR 3.04(4)(c)",
    title="Prices are set before the occasion and never varied during it",
    guards=(SET_PRICES,),
)
def prices_are_fixed_once_open(f: PriceListFacts, limits: Limits) -> Iterator[str]:
    """The set price may not be varied during a Beano occasion: once it opens, the list is fixed."""
    if f.occasion_open_or_closed:
        yield "The occasion has opened: its posted prices cannot be changed."


@rule(
    code="C-4C-ADMISSION-PRICED",
    citation="961 CMR 3.04(4)(c)",
    title="Every opportunity to play has a specific price, admission among them",
    guards=(SET_PRICES,),
)
def every_item_has_a_price(f: PriceListFacts, limits: Limits) -> Iterator[str]:
    """Admission, extra regular, bonus and special game cards are sold only at a specified price;
    the list must price admission, and each label once."""
    if not any(i.category == "admission" for i in f.items):
        yield "The price list must include the admission."
    labels = [i.label.casefold() for i in f.items]
    if len(labels) != len(set(labels)):
        yield "Each item appears once on the price list."
    for i in f.items:
        if i.price <= 0:
            yield f"{i.label}: a price must be more than $0.00 (no free play)."


@rule(
    code="C-5A-MIN-ADMISSION",
    citation="961 CMR 3.04(5)(a)",
    title="Admission costs at least the minimum in force ($1.00)",
    guards=(SET_PRICES,),
)
def admission_at_least_minimum(f: PriceListFacts, limits: Limits) -> Iterator[str]:
    """No less than one dollar is charged for admission (the figure in force on the date)."""
    minimum = limits.get(LimitName.MIN_ADMISSION)
    if minimum is None:
        return
    for i in f.items:
        if i.category == "admission" and i.price < minimum:
            yield f"{i.label} is {usd(i.price)}; admission must be at least {usd(minimum)}."


@dataclass(frozen=True)
class PackageFacts:
    """Packages on the list; a package needs the Director's written permission."""

    package_labels: tuple[str, ...]


@rule(
    code="C-5A-PACKAGES",
    citation="961 CMR 3.04(5)(a)",
    title="Packages of cards only with the Director's written permission",
    guards=(SET_PRICES,),
    waiver=AuthorizationKind.PACKAGES,
)
def packages_need_permission(f: PackageFacts, limits: Limits) -> Iterator[str]:
    """The Director may in writing permit packages of regular, extra regular and special cards."""
    for label in f.package_labels:
        yield f"{label}: packages need the Director's written permission."


# The door: sales, voids, the attendance and the second half.

RECORD_SALE = "sale.record"
VOID_SALE = "sale.void"
#: A void without its reason (a form puts the refusal on the reason's box).
NO_REASON = "Say why the sale is voided."
ANNOUNCE_ATTENDANCE = "attendance.announce"
START_SECOND_HALF = "occasion.start_second_half"

ADMISSION = "admission"


@dataclass(frozen=True)
class SaleLineFact:
    """One line as the seller rang it up. ``posted_price`` is the price on this occasion's
    posted list, or None when the item is not on it (another occasion's, or no such item)."""

    label: str
    category: str
    quantity: int
    unit_price: Decimal
    posted_price: Decimal | None


@dataclass(frozen=True)
class SaleFacts:
    """A door transaction about to be recorded. ``admission_receipt`` is the receipt number the
    extras are sold against, if any, and the three flags describe that receipt as found."""

    occasion_open: bool
    lines: tuple[SaleLineFact, ...]
    admission_receipt: int | None = None
    receipt_is_admission: bool = False
    receipt_voided: bool = False
    chosen_card_numbers: tuple[str, ...] = ()
    #: Entered from paper: the door's count of many paper receipts by category, not one
    #: player's transaction; ``admissions_before`` are the admissions the door had counted.
    tally: bool = False
    admissions_before: int = 0

    @property
    def admissions(self) -> int:
        return sum(line.quantity for line in self.lines if line.category == ADMISSION)


@rule(
    code="C-4C-SOLD-DURING-OCCASION",
    citation="961 CMR 3.04(4)(c)",
    title="Cards are sold only on the premises, during the occasion",
    guards=(RECORD_SALE,),
)
def sold_only_during_the_occasion(f: SaleFacts, limits: Limits) -> Iterator[str]:
    """No cards may be sold other than within the premises where Beano is held: the door sells
    while the occasion is open, never before it opens or after it closes."""
    if not f.occasion_open:
        yield "The occasion is not open: nothing can be sold."


@rule(
    code="C-4C-ON-POSTED-LIST",
    citation="961 CMR 3.04(4)(c)",
    title="Only items on this occasion's posted price list are sold",
    guards=(RECORD_SALE,),
)
def sold_from_the_posted_list(f: SaleFacts, limits: Limits) -> Iterator[str]:
    """Every opportunity to play is assigned a specific price on the list posted where admissions
    are sold; an item not on this occasion's list has no price that may be charged."""
    for line in f.lines:
        if line.posted_price is None:
            yield f"{line.label} is not on this occasion's posted price list."


@rule(
    code="C-4C-AT-POSTED-PRICE",
    citation="961 CMR 3.04(4)(c)",
    title="Every sale at the posted price: no reduced or other price",
    guards=(RECORD_SALE,),
)
def sold_at_the_posted_price(f: SaleFacts, limits: Limits) -> Iterator[str]:
    """The sale of any opportunity or combination of opportunities at a reduced price or a price
    other than the posted price is prohibited: no discount, no rounding, no deal."""
    for line in f.lines:
        if line.posted_price is not None and line.unit_price != line.posted_price:
            yield (
                f"{line.label} at {usd(line.unit_price)}: the posted price is "
                f"{usd(line.posted_price)}, and no other price may be charged."
            )


@rule(
    code="C-4D1-NO-CHOSEN-CARD",
    citation="961 CMR 3.04(4)(d)",
    title="No buyer chooses a card by its numbers (item 1)",
    guards=(RECORD_SALE,),
)
def no_card_chosen_by_its_numbers(f: SaleFacts, limits: Limits) -> Iterator[str]:
    """No player may be given any opportunity to select a card or strip on the basis of its
    numbers. The door screen has no field for card numbers at all; this rule stands so that any
    other way of recording a sale (an import, an API, a kiosk) that carries chosen numbers is
    refused, and so that the catalog shows the paragraph is kept."""
    if f.chosen_card_numbers:
        yield "A buyer may not choose a card by its numbers; cards are handed out unseen."


@rule(
    code="C-5B-ADMISSION-PAID",
    citation="961 CMR 3.04(5)(b)",
    title="Cards and raffle tickets only with a paid admission",
    guards=(RECORD_SALE,),
)
def extras_need_a_paid_admission(f: SaleFacts, limits: Limits) -> Iterator[str]:
    """No person who has not paid the admission charge may play: a transaction either includes
    the admission, or is sold against the player's admission receipt of this occasion, which must
    not have been voided. A paper tally of the door (many receipts counted by category) sells
    extras only where the door's count holds admissions."""
    if f.tally:
        if f.admissions + f.admissions_before == 0 and f.lines:
            yield (
                "Extras are sold only with a paid admission: the door's count has no admission "
                "sold yet."
            )
        return
    if f.admission_receipt is None:
        if f.admissions == 0 and f.lines:
            yield (
                "Extras are sold only with a paid admission: include the admission, or sell "
                "them against the player's admission receipt."
            )
        return
    if not f.receipt_is_admission:
        yield f"Receipt {f.admission_receipt} is not an admission sold at this occasion."
    elif f.receipt_voided:
        yield f"Receipt {f.admission_receipt} was voided: it is not a paid admission."


@rule(
    code="C-5B-ONE-ADMISSION",
    citation="961 CMR 3.04(5)(b)",
    title="Never more than one admission for a person",
    guards=(RECORD_SALE,),
)
def one_admission_a_person(f: SaleFacts, limits: Limits) -> Iterator[str]:
    """Under no circumstances shall a person play more than one admission: a transaction sells
    one admission at most, and none when sold against an admission already paid. A paper tally
    counts the paper receipts of many players, each of which sold one admission: it is judged
    by its receipts on paper, not here."""
    if f.tally:
        return
    if f.admissions > 1:
        yield f"{f.admissions} admissions in one sale: each person pays one admission."
    if f.admission_receipt is not None and f.admissions:
        yield (
            f"An admission sold against receipt {f.admission_receipt}, which is already an "
            "admission: a person plays one admission."
        )


@dataclass(frozen=True)
class VoidFacts:
    """A sale about to be voided: who voids it, before whom, why, and what hangs on it."""

    occasion_open: bool
    receipt: int
    already_voided: bool
    reason: str
    has_witness: bool
    witness_in_organization: bool
    witness_is_seller: bool
    witness_is_voider: bool
    live_extras_receipts: tuple[int, ...] = ()
    #: The witness was signed in on the floor at the moment of the void (always known on paper,
    #: where the witness is a worker of the night whose signature is on the sheet).
    witness_on_floor: bool = True
    #: The witness confirmed with their own password or PIN on the laptop (live), or signed
    #: the sheet (from paper); ``witness_paused_until``: too many wrong tries, and until when
    #: (the hall's time).
    witness_confirmed: bool = True
    witness_paused_until: dt.datetime | None = None


@rule(
    code="C-4D2-VOID-WHILE-OPEN",
    citation="961 CMR 3.04(4)(d)",
    title="Counts change only while open; at close they are final (item 2)",
    guards=(VOID_SALE,),
)
def void_while_open(f: VoidFacts, limits: Limits) -> Iterator[str]:
    """The count in categories must be available at the close of the occasion: once it closes,
    the count is what it is; a correction afterwards is an amendment of the report."""
    if not f.occasion_open:
        yield "The occasion is not open: its count can no longer be changed by a void."
    if f.already_voided:
        yield f"Receipt {f.receipt} is already voided."


@rule(
    code="C-4D2-VOID-WITNESSED",
    citation="961 CMR 3.04(4)(d)",
    title="A void keeps the count accurate: a reason and a witness (item 2)",
    guards=(VOID_SALE,),
)
def void_is_witnessed(f: VoidFacts, limits: Limits) -> Iterator[str]:
    """The organization keeps an accurate count of what was sold: a sale leaves the count only
    with its reason written and a second person of the organization, neither the seller nor the
    one voiding, as witness: signed in on the floor at that moment, confirming with their own
    password or PIN (a name picked from a list is not a witness). A compensated bookkeeper or
    accountant witnesses nothing: W-1G-NOT-A-SECOND-PERSON refuses them, citing (1)(g)."""
    if not f.reason.strip():
        yield NO_REASON
    if not f.has_witness:
        yield "A second person must witness the void."
        return
    if not f.witness_in_organization:
        yield "The witness must be a person of this organization."
    if f.witness_is_seller or f.witness_is_voider:
        yield "The witness must be someone other than the seller and the person voiding."
    if f.witness_paused_until is not None:
        yield paused_words("witness", f.witness_paused_until)
    elif not f.witness_confirmed:
        yield not_confirmed("witness")
    if not f.witness_on_floor:
        yield "The witness was not signed in on the floor at the time of the void."


@rule(
    code="C-5B-VOID-ADMISSION-LAST",
    citation="961 CMR 3.04(5)(b)",
    title="An admission is voided only after the extras sold against it",
    guards=(VOID_SALE,),
)
def admission_voided_after_its_extras(f: VoidFacts, limits: Limits) -> Iterator[str]:
    """Cards are sold only with a paid admission: voiding an admission while extras sold against
    it stand would leave cards sold without one."""
    if f.live_extras_receipts:
        numbers = ", ".join(str(n) for n in f.live_extras_receipts)
        yield f"Extras were sold against receipt {f.receipt} (receipt {numbers}): void them first."


@dataclass(frozen=True)
class AttendanceFacts:
    occasion_open: bool
    already_announced: bool
    players: int
    admissions_sold: int


@rule(
    code="C-5C-ANNOUNCED-ONCE",
    citation="961 CMR 3.04(5)(c)",
    title="The attendance is announced once, during the occasion",
    guards=(ANNOUNCE_ATTENDANCE,),
)
def attendance_announced_once(f: AttendanceFacts, limits: Limits) -> Iterator[str]:
    """The number of players in attendance is announced before the second half, in the hall:
    while the occasion is open, and once; the record is what the players heard."""
    if not f.occasion_open:
        yield "The occasion is not open: the attendance is announced during it."
    if f.already_announced:
        yield "The attendance has already been announced for this occasion."


@rule(
    code="C-5C-ANNOUNCED-ACCURATELY",
    citation="961 CMR 3.04(5)(c)",
    title="The attendance announced is accurate: never more players than admissions sold",
    guards=(ANNOUNCE_ATTENDANCE,),
)
def attendance_is_accurate(f: AttendanceFacts, limits: Limits) -> Iterator[str]:
    """Every player has paid one admission (961 CMR 3.04(5)(b)), so more players than admissions
    sold cannot be accurate. Fewer can (a player who paid may have left)."""
    if f.players > f.admissions_sold:
        yield (
            f"{f.players} players announced, but only {f.admissions_sold} admissions were "
            "sold: the number announced must be accurate."
        )


@dataclass(frozen=True)
class SecondHalfFacts:
    attendance_announced: bool


@rule(
    code="C-5C-BEFORE-SECOND-HALF",
    citation="961 CMR 3.04(5)(c)",
    title="The attendance is announced before the second half starts",
    guards=(START_SECOND_HALF,),
)
def attendance_before_second_half(f: SecondHalfFacts, limits: Limits) -> Iterator[str]:
    """Prior to the start of the second half, the licensee announces accurately the number of
    players in attendance."""
    if not f.attendance_announced:
        yield "Announce the number of players in attendance before the second half starts."

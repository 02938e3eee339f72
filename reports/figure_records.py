"""The typed records of an occasion's financial report, one per section. Each field is a key of
the figures stored on a filed report, in the order it is stored: ``dataclasses.asdict`` of a
``Figures`` is the dict that is filed, hashed and printed (see ``reports.figures``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reports.cash_figures import DepositFigure, DrawerFigure, VoidFigure


@dataclass(frozen=True)
class OrganizationPart:
    name: str
    street: str
    town: str
    zip: str
    telephone: str
    federal_id: str
    license_number: str
    premises: str
    local_licensing_authority: str


@dataclass(frozen=True)
class OccasionPart:
    id: int
    date: str
    played: bool
    status: str
    not_played_reason: str
    members_in_charge: list[str]
    opened_at: str | None
    closed_at: str | None


@dataclass(frozen=True)
class SaleLineFigure:
    """Door sales of one posted item: number sold × its price, voided sales left out."""

    category: str
    category_label: str
    label: str
    unit_price: Decimal
    quantity: int
    amount: Decimal


@dataclass(frozen=True)
class CharityTickets:
    quantity: int
    amount: Decimal


@dataclass(frozen=True)
class Receipts:
    lines: list[SaleLineFigure]
    door_total: Decimal
    charity_game_tickets: CharityTickets
    refunds: Decimal
    gross_receipts: Decimal


@dataclass(frozen=True)
class Tax:
    rate: Decimal
    gross_receipts: Decimal
    tax: Decimal
    days_late: int
    interest_rate: Decimal | None
    interest: Decimal
    total_due: Decimal


@dataclass(frozen=True)
class ShareFigure:
    """One person of a group's Form 5754: a Form W-2G is made out to each."""

    name: str
    share: Decimal


@dataclass(frozen=True)
class WinnerFigure:
    name: str
    share: Decimal
    kind: str
    substitute: str
    paid: bool
    w2g: bool
    #: The group's Form 5754 (each person's share), when the prize paid was shared by a group;
    #: None otherwise (as on reports filed before it was kept).
    form5754: list[ShareFigure] | None = None


@dataclass(frozen=True)
class PartFigure:
    order: int
    arrangement: str
    kind: str
    bonus: bool
    donated: bool
    description: str
    amount: Decimal | None
    winners: list[WinnerFigure]


@dataclass(frozen=True)
class GameFigure:
    number: int
    half: int
    kind: str
    kind_label: str
    status: str
    calls: int
    parts: list[PartFigure]


@dataclass(frozen=True)
class Prizes:
    """Prizes by kind; ``expensed`` is what the organization paid for (cash and merchandise at
    cost), donated merchandise counting toward the totals only (3.04(8)(c))."""

    cash: Decimal
    merchandise_at_cost: Decimal
    donated_fair_value: Decimal
    total: Decimal
    expensed: Decimal


@dataclass(frozen=True)
class DoorPrizeFigure:
    description: str
    winner: str
    value: Decimal
    donated: bool
    kind: str


@dataclass(frozen=True)
class DoorPrizes:
    items: list[DoorPrizeFigure]
    total: Decimal
    expensed: Decimal


@dataclass(frozen=True)
class JackpotFigure:
    series: str
    game: int
    carried_in: Decimal
    added: Decimal
    paid: Decimal
    paid_kind: str
    carried_out: Decimal


@dataclass(frozen=True)
class CharityGame:
    sold: int
    receipts: Decimal
    prizes_redeemed: Decimal


@dataclass(frozen=True)
class ExpenseLine:
    kind: str
    kind_label: str
    payee: str
    description: str
    reference: str
    amount: Decimal
    source: str


@dataclass(frozen=True)
class Expenses:
    lines: list[ExpenseLine]
    total: Decimal


@dataclass(frozen=True)
class Net:
    gross_receipts: Decimal
    prizes: Decimal
    door_prizes: Decimal
    charity_prizes: Decimal
    expenses: Decimal
    tax: Decimal
    net_proceeds: Decimal


@dataclass(frozen=True)
class CountFigure:
    """A category's cards or tickets: sold by the records, counted at the close-out, and the
    difference in cards and in money."""

    category: str
    label: str
    recorded: int
    counted: int | None
    difference: int | None
    value_difference: Decimal | None


@dataclass(frozen=True)
class StockFigure:
    card_type: str
    category: str
    stock: str
    used: int
    voided: int


@dataclass(frozen=True)
class Cash:
    opening_bank: Decimal
    door_sales: Decimal
    charity_tickets: Decimal
    refunds: Decimal
    cash_prizes_paid: Decimal
    charity_prizes_redeemed: Decimal
    expected: Decimal
    counted: Decimal | None
    variance: Decimal | None


@dataclass(frozen=True)
class VarianceFigure:
    label: str
    value: Decimal


@dataclass(frozen=True)
class Variance:
    threshold: Decimal
    above_threshold: list[VarianceFigure]
    explanation: str


@dataclass(frozen=True)
class Attendance:
    announced: int | None
    admissions_sold: int
    difference: int | None


@dataclass(frozen=True)
class WorkerFigure:
    name: str
    worker_id: str
    role: str
    role_code: str
    identification: str
    signed_in: str | None
    signed_out: str | None


@dataclass(frozen=True)
class Memo:
    raffle_tickets: Decimal
    other_sales: Decimal


@dataclass(frozen=True)
class PaperFigure:
    scope: str
    period: str
    starts_at: str | None
    ends_at: str | None
    sheets: str
    reason: str
    source: str
    file_name: str
    entered_by: str
    entered_at: str | None


@dataclass(frozen=True)
class ClosedLate:
    closed_at: str | None
    recorded_at: str | None
    recorded_by: str
    reason: str


@dataclass(frozen=True)
class Provenance:
    from_paper: list[PaperFigure]
    closed_late: ClosedLate | None


@dataclass(frozen=True)
class Figures:
    """The whole report, section by section, in the order the figures are stored."""

    schema: str
    organization: OrganizationPart
    occasion: OccasionPart
    receipts: Receipts
    tax: Tax
    games: list[GameFigure]
    prizes: Prizes
    door_prizes: DoorPrizes
    jackpots: list[JackpotFigure]
    charity_game_tickets: CharityGame
    expenses: Expenses
    net: Net
    counts: list[CountFigure]
    stock: list[StockFigure]
    cash: Cash
    variance: Variance
    attendance: Attendance
    workers: list[WorkerFigure]
    memo: Memo
    provenance: Provenance
    # The door's voids, the drawer and the deposit (``reports.cash_figures``); a report filed
    # before they were kept has none of these keys.
    voids: list[VoidFigure] = field(default_factory=list)
    drawer: DrawerFigure | None = None
    deposit: DepositFigure | None = None

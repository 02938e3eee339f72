"""The night format ``beano-night/1``: a whole night as its control sheets give it, every time
written relative to the night's date ("19:05", "19:05:30", "+1 00:20" for the morning after), so
that changing ``date`` alone moves the night to another day. The same dataclasses carry what the
entry pages take, one section at a time. The JSON Schema is docs/formats/beano-night-1.schema.json.

Parsing never raises anything but ``NightFormatError``, with one line that says where."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from beano.rules import money
from beano.rules.money import CENT, MAX_TYPED, AmountKind
from beano.text import one_line

FORMAT = "beano-night/1"
#: The file's strict form of an amount (and of hours): a string of ASCII digits, no "$", no
#: commas, no exponent. What it may be then is the shared parser's (``beano.rules.money``).
DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?", re.ASCII)
TIME = re.compile(r"^(\+1 )?([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$", re.ASCII)
SERIAL_MAX = 999_999_999
#: The most rows of one list of a night (workers, tallies, a game's claims, door prizes, …):
#: far more than a night's sheet has room for, so a file's work stays bounded (each row is an
#: act judged by the services). A night's balls and claims are bounded in ``reader``.
MOST_ROWS = 200


class NightFormatError(ValueError):
    """What is wrong with a night file, in one line, with where it is."""


# The parts of a night -------------------------------------------------------------------------


@dataclass(frozen=True)
class WorkerRow:
    name: str
    role: str
    identification: str
    signed_in: dt.datetime
    signed_out: dt.datetime | None = None


@dataclass(frozen=True)
class PriceRow:
    category: str
    label: str
    price: Decimal
    package_contents: str = ""


@dataclass(frozen=True)
class CountLine:
    """One category of the door: a quantity, or serials (first, last, less those excluded)."""

    category: str
    quantity: int | None = None
    first_serial: int | None = None
    last_serial: int | None = None
    excluded: tuple[int, ...] = ()


@dataclass(frozen=True)
class DoorTally:
    at: dt.datetime
    lines: tuple[CountLine, ...]


@dataclass(frozen=True)
class DoorVoid:
    at: dt.datetime
    lines: tuple[CountLine, ...]
    reason: str
    witness: str
    sold_at: dt.datetime | None = None


@dataclass(frozen=True)
class Part:
    arrangement: str
    kind: str
    amount: Decimal
    description: str = ""
    donated: bool = False
    bonus: bool = False
    announced_at: dt.datetime | None = None
    winners_at: dt.datetime | None = None
    substitute_value: Decimal | None = None
    #: The amount is as a night file writes it, the whole record of the prize: recorded as
    #: written or refused. A winner-take-all prize announced on its sheet is judged at its
    #: announcement (its share of the cards sold by then), any other at the program.
    written: bool = False


@dataclass(frozen=True)
class Ball:
    number: int
    letter: str
    at: dt.datetime | None = None


@dataclass(frozen=True)
class Payment:
    at: dt.datetime
    paid_by: str
    verified_by: str
    w2g: dict[str, Any] | None = None


@dataclass(frozen=True)
class ClaimRow:
    part: int
    at: dt.datetime
    player: str
    table: str = ""
    ball_in_hand: int | None = None
    calling_begun: bool = False
    won: bool = True
    person: str = ""
    substitute: str = ""
    card: dict[str, int] | None = None
    whole_card: bool = False
    witnesses: tuple[tuple[str, str], ...] = ()
    payout: Payment | None = None


@dataclass(frozen=True)
class Jackpot:
    series: str
    won_within_calls: bool
    consolation_paid: bool = False


@dataclass(frozen=True)
class GameSheet:
    number: int
    half: int
    kind: str
    parts: tuple[Part, ...]
    balls_confirmed_at: dt.datetime | None = None
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None
    balls: tuple[Ball, ...] = ()
    claims: tuple[ClaimRow, ...] = ()
    jackpot: Jackpot | None = None

    @property
    def played(self) -> bool:
        return self.started_at is not None


@dataclass(frozen=True)
class VaryingPrizes:
    at: dt.datetime
    persons_entitled_to_play: int
    prizes_announced: str
    refunds_offered: bool = True


@dataclass(frozen=True)
class DoorPrizeRow:
    at: dt.datetime
    description: str
    value: Decimal
    donated: bool = False
    winner: str = ""


@dataclass(frozen=True)
class RefundRow:
    at: dt.datetime
    amount: Decimal
    player_reference: str


@dataclass(frozen=True)
class CharitySaleRow:
    at: dt.datetime
    game_name: str
    serial_number: str
    quantity: int
    price: Decimal
    on_premises: bool = True


@dataclass(frozen=True)
class RedemptionRow:
    at: dt.datetime
    serial_number: str
    prize_amount: Decimal


@dataclass(frozen=True)
class OtherSaleRow:
    at: dt.datetime
    kind: str
    description: str
    amount: Decimal
    on_beano_portion: bool = False


@dataclass(frozen=True)
class PoliceRow:
    officer: str
    department: str
    hours: Decimal
    rate: Decimal


@dataclass(frozen=True)
class RaffleTickets:
    at: dt.datetime
    quantity: int
    admission_receipt: int | None = None


@dataclass(frozen=True)
class RaffleRow:
    permit: str
    prize_description: str
    prize_kind: str
    ticket_price: Decimal
    sales: tuple[RaffleTickets, ...] = ()


@dataclass(frozen=True)
class ExpenseRow:
    kind: str  # an ExpenseKind's code
    payee: str
    amount: Decimal
    description: str = ""
    invoice: str = ""
    equipment: str = ""  # the leased equipment's serial number, for its rent
    worker: str = ""  # the bookkeeper or accountant paid, for their compensation


@dataclass(frozen=True)
class CloseOutSheet:
    """The bookkeeper's close-out: the counts by category, the opening bank, the cash counted
    and the explanation of any difference, and the expenses entered."""

    opening_bank: Decimal
    cash_counted: Decimal | None
    counts: dict[str, int]
    explanation: str = ""
    expenses: tuple[ExpenseRow, ...] = ()
    cash_verified_by: str = ""  # the worker of the night whose signature verifies the count


@dataclass(frozen=True)
class Night:
    """A whole night from its control sheets, in the order the sheets are kept."""

    license: str
    date: dt.date
    sheets: str = "Night file"
    reason: str = "Entered from the night file"
    workers: tuple[WorkerRow, ...] = ()
    checklist_at: dt.datetime | None = None
    checklist: tuple[str, ...] | None = None  # None: every item of the checklist
    prices: tuple[PriceRow, ...] = ()
    opened_at: dt.datetime | None = None
    varying_prizes: VaryingPrizes | None = None
    door: tuple[DoorTally, ...] = ()
    voids: tuple[DoorVoid, ...] = ()
    attendance: int | None = None
    attendance_at: dt.datetime | None = None
    second_half_at: dt.datetime | None = None
    games: tuple[GameSheet, ...] = ()
    door_prizes: tuple[DoorPrizeRow, ...] = ()
    refunds: tuple[RefundRow, ...] = ()
    charity_sales: tuple[CharitySaleRow, ...] = ()
    redemptions: tuple[RedemptionRow, ...] = ()
    other_sales: tuple[OtherSaleRow, ...] = ()
    police: tuple[PoliceRow, ...] = ()
    raffles: tuple[RaffleRow, ...] = ()
    closed_at: dt.datetime | None = None
    closeout: CloseOutSheet | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# Reading values --------------------------------------------------------------------------------


class Reader:
    """Reads one JSON object's values, naming the path in every error."""

    def __init__(self, data: Any, where: str, day: dt.date) -> None:
        if not isinstance(data, dict):
            raise NightFormatError(f"{where}: expected an object.")
        self.data, self.where, self.day = data, where, day

    def _err(self, key: str, what: str) -> NightFormatError:
        return NightFormatError(f"{self.where}.{key}: {what}")

    def only(self, *keys: str) -> Reader:
        """Refuse a key the format does not know: a misspelt key would be silently lost."""
        unknown = sorted(set(self.data) - set(keys))
        if unknown:
            raise NightFormatError(
                f"{self.where}: unknown key {unknown[0]!r} (known: {', '.join(keys)})."
            )
        return self

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def raw(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def text(self, key: str, *, required: bool = True, limit: int = 200) -> str:
        value = self.data.get(key)
        if value is None or value == "":
            if required:
                raise self._err(key, "required text is missing.")
            return ""
        if not isinstance(value, str):
            raise self._err(key, "expected text.")
        value = one_line(value)
        if len(value) > limit:
            raise self._err(key, f"at most {limit} characters.")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self._err(key, "expected true or false.")
        return value

    def whole(self, key: str, *, low: int = 0, high: int = SERIAL_MAX, required: bool = True):
        value = self.data.get(key)
        if value is None:
            if required:
                raise self._err(key, "a whole number is missing.")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._err(key, "expected a whole number.")
        if not low <= value <= high:
            raise self._err(key, f"expected a whole number from {low} to {high}.")
        return value

    def money(self, key: str, kind: AmountKind, *, required: bool = True) -> Decimal | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise self._err(key, 'an amount is missing (a dollar string such as "12.50").')
            return None
        return parse_money(value, kind, f"{self.where}.{key}")

    def hours(self, key: str) -> Decimal:
        """Hours worked, written as an amount is ("4.00"), at most two decimals."""
        value = self.data.get(key)
        if not isinstance(value, str) or not DECIMAL.fullmatch(value) or len(value) > MAX_TYPED:
            raise self._err(key, f'{value!r} is not a number of hours; write e.g. "4.00".')
        hours = Decimal(value)
        if hours != hours.quantize(CENT):
            raise self._err(key, f"{value!r}: give the hours with at most two decimals.")
        return hours

    def time(self, key: str, *, required: bool = True) -> dt.datetime | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise self._err(key, 'a time is missing ("19:05", or "+1 00:20" after midnight).')
            return None
        return parse_time(value, self.day, f"{self.where}.{key}")

    def objects(self, key: str, *, most: int = MOST_ROWS) -> list[Reader]:
        value = self.data.get(key) or []
        if not isinstance(value, list):
            raise self._err(key, "expected a list.")
        if len(value) > most:
            raise self._err(key, f"{len(value):,} rows; a night's sheet holds at most {most:,}.")
        return [Reader(v, f"{self.where}.{key}[{i}]", self.day) for i, v in enumerate(value)]


def parse_money(value: Any, kind: AmountKind, where: str) -> Decimal:
    """A dollar amount: the file's strict string of ASCII digits, then what the shared parser
    allows an amount of ``kind`` (at most two decimals, within its ceiling)."""
    if not isinstance(value, str) or not DECIMAL.fullmatch(value) or len(value) > MAX_TYPED:
        raise NightFormatError(
            f'{where}: {value!r} is not an amount; write dollars as a string, e.g. "12.50".'
        )
    try:
        return money.parse_money(value, kind)
    except ValidationError as error:
        raise NightFormatError(f"{where}: {value!r}: {error.messages[0]}") from None


def parse_time(value: Any, day: dt.date, where: str) -> dt.datetime:
    """A time of the night relative to its date, as an aware local datetime."""
    match = TIME.match(value) if isinstance(value, str) else None
    if match is None:
        raise NightFormatError(
            f'{where}: {value!r} is not a time; write "19:05" or "19:05:30", or "+1 00:20" for '
            "the morning after."
        )
    next_day, hour, minute, second = match.groups()
    on = day + dt.timedelta(days=1 if next_day else 0)
    naive = dt.datetime.combine(on, dt.time(int(hour), int(minute), int(second or 0)))
    return timezone.make_aware(naive)


def write_time(moment: dt.datetime | None, day: dt.date) -> str | None:
    """The inverse of ``parse_time``."""
    if moment is None:
        return None
    local = timezone.localtime(moment)
    prefix = "+1 " if local.date() > day else ""
    text = f"{local:%H:%M}" if local.second == 0 else f"{local:%H:%M:%S}"
    return prefix + text


def write_money(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"

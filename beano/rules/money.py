"""Money and the numbers typed beside it, in one place: the column every amount is stored in;
one parser for every amount in the project, with a ceiling for each kind of amount and one
message for each kind of mistake, and the form field that uses it; the quantity field for counts;
the rounding to the cent and the division "to the nearest dollar" of 961 CMR 3.04(6)(f); and the
one way an amount is written for people to read.

Why one parser: Python's ``Decimal`` and Django's number fields read "1e9" as a billion, "1_000"
as a thousand and full-width or Arabic-Indic digits as digits, so a typo or a pasted string
became a $1,000,000,000.00 price, bank or expense (issue 14). An amount here is written with the
ASCII digits 0–9 only, at most two decimals, optionally after a "$" and with thousands commas in
their places ("$1,250.00", "1250", "0.75"); nothing else is an amount. Forms use ``MoneyField``;
services call ``money`` for amounts that arrive without a form (the night file, a test, a
script), so the ceiling holds whoever calls.

The ceilings are sanity bounds on what one entry of its kind can be, not the Beano Law's limits:
those are dated rows (``limits.py``) that the rules judge with their citation. Each ceiling sits
well above any limit in force, so an amount the law refuses still reaches the rule that refuses
it (and the log of refused actions), while one no hall could mean is refused as it is typed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

DOLLAR = Decimal("1")
CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def money_column(**kwargs: Any) -> models.DecimalField:
    """The database column of an amount: dollars and cents, never a float, up to ten digits of
    dollars. ``kwargs`` are the field's own (null, default, help_text, validators)."""
    return models.DecimalField(max_digits=12, decimal_places=2, **kwargs)


# Rounding -----------------------------------------------------------------------------------


def cents(value: Decimal | int | str) -> Decimal:
    """The rounding to the cent (a police detail's hours × rate, a sale's line, the report's
    figures, a winner-take-all prize): half a cent rounds up."""
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def split_to_the_dollar(amount: Decimal, winners: int) -> list[Decimal]:
    """961 CMR 3.04(6)(f), "divided equally to the nearest dollar", resolved so the shares never
    pay more than the designated prize: each share is the equal share rounded DOWN to the whole
    dollar; the dollars left over (always fewer than the winners) go one each to the first
    winners in claim order; any cents of the prize go to the first winner without an extra
    dollar. So the shares differ by at most $1, each is the equal share rounded down or up to a
    whole dollar, and they add up to the prize exactly. $75 among 2: $38 + $37; $100 among 3:
    $34 + $33 + $33; $200 among 7: four of $29 and three of $28."""
    if winners < 1:
        raise ValueError("A prize is divided among one winner or more.")
    amount = amount.quantize(CENT)
    if amount < 0:
        raise ValueError("A prize cannot be negative.")
    base = (amount / winners).quantize(DOLLAR, rounding=ROUND_DOWN)
    whole = amount.quantize(DOLLAR, rounding=ROUND_DOWN)
    extra_dollars = int(whole - base * winners)
    odd_cents = amount - whole
    shares = [base + (DOLLAR if i < extra_dollars else 0) for i in range(winners)]
    if odd_cents:
        shares[extra_dollars] += odd_cents
    return [s.quantize(CENT) for s in shares]


def equal_substitute_value(amount: Decimal, winners: int) -> Decimal:
    """The value of each substitute prize when a merchandise prize cannot be divided: the equal
    share rounded down to the cent, so that together they never exceed the prize (3.04(6)(f))."""
    return (amount / winners).quantize(CENT, rounding=ROUND_DOWN)


# Writing an amount for people ------------------------------------------------------------------


def usd(
    amount: Decimal, *, bare_dollars: bool = False, signed: bool = False, whole: bool = False
) -> str:
    """An amount as people read it: $1,234.56, a negative one in parentheses as accountants
    write it, ($12.00). The one way the project writes an amount, in code and (by the ``usd``
    filter) in templates; the door's running total in the browser writes the same
    (``usd`` in static/js/door.js).

    ``bare_dollars``: a whole amount without its cents ($75, but $37.50), as a prize is announced
    on the floor or a limit is quoted. ``signed``: a difference, +$1.00, −$1.00 or $0.00.
    ``whole``: rounded to the dollar, $1,235, as a chart's axis is labelled."""
    if whole:
        amount = Decimal(amount).quantize(DOLLAR, rounding=ROUND_HALF_UP)
    text = f"{abs(amount):,.0f}" if whole else f"{abs(amount):,.2f}"
    if bare_dollars and text.endswith(".00"):
        text = text[:-3]
    if signed:
        return f"${text}" if amount == 0 else f"{'+' if amount > 0 else '−'}${text}"
    return f"(${text})" if amount < 0 else f"${text}"


# Reading an amount -----------------------------------------------------------------------------


@dataclass(frozen=True)
class AmountKind:
    """A kind of amount: what the messages call it and the most one entry of it can be."""

    noun: str
    ceiling: Decimal

    @property
    def ceiling_text(self) -> str:
        return usd(self.ceiling)


#: A price on the posted price list (admission, extra cards, a package). Halls charge a few
#: dollars a card and tens for a package; $1,000 leaves room for any package.
PRICE = AmountKind("a price", Decimal("1000.00"))
#: What a charity game or raffle ticket sells for: charity tickets resell for a quarter to a few
#: dollars, raffle tickets at an occasion for a few dollars more.
TICKET_PRICE = AmountKind("a ticket price", Decimal("100.00"))
#: A prize (a prize part, a share, a substitute prize, a payout, a charity game prize redeemed).
#: A progressive jackpot won is paid as a prize, so this matches ``JACKPOT``; the single-game
#: limit in force (the Beano Law's $200 when last amended) is the rules' to apply.
PRIZE = AmountKind("a prize", Decimal("10000.00"))
#: A progressive series' starting jackpot, its increment, cap and consolation. The Beano Law's
#: maximum jackpot was $3,000 when last amended; a ceiling over three times that lets the rules
#: judge a raised or mistaken limit with their citation.
JACKPOT = AmountKind("a jackpot amount", Decimal("10000.00"))
#: A door prize or a gift, at cost or fair market value: merchandise such as a television or a
#: hamper, never near this.
DOOR_PRIZE = AmountKind("a door prize or gift", Decimal("5000.00"))
#: The cash in the box: the opening bank before the doors open and the cash counted after the
#: close. A full hall of several hundred players takes in tens of thousands of dollars.
CASH = AmountKind("the cash in the box", Decimal("100000.00"))
#: One expense of one occasion (rent, supplies, a bookkeeper's pay, a lease's rent), or the sum
#: certain of an equipment lease, which is entered as that expense. A night's gross rarely
#: reaches this.
EXPENSE = AmountKind("an expense", Decimal("25000.00"))
#: One payment for a lawful purpose, from a year's net proceeds (a building fund, scholarships):
#: the largest kind of amount an organization enters.
DISBURSEMENT = AmountKind("a disbursement", Decimal("1000000.00"))
#: A police detail's hourly rate: details are paid tens of dollars an hour.
HOURLY_RATE = AmountKind("an hourly rate", Decimal("500.00"))
#: One other sale of the night (food, drink, supplies sold on the premises).
SALE = AmountKind("an other sale", Decimal("10000.00"))
#: A refund to a patron: at most what one player paid at the door.
REFUND = AmountKind("a refund", Decimal("1000.00"))
#: What one card costs the organization from its supplier: cents, a few dollars at most.
CARD_COST = AmountKind("a card's cost", Decimal("100.00"))

# One message for each kind of mistake, whichever amount it is.
NOT_AN_AMOUNT = "Write the amount with the digits 0 to 9, e.g. 25.00 or $1,250.00."
TOO_MANY_DECIMALS = "Give the amount in dollars and cents, with at most two decimals."
NEGATIVE = "An amount cannot be negative."
NOT_MORE_THAN_ZERO = "Give an amount of more than $0.00."
TOO_LARGE = "That amount is too large: {noun} is at most {ceiling}."

#: An optional "-" (to say "negative" rather than "not an amount"), an optional "$", the whole
#: dollars (plain, or with a comma before each group of three), then the cents. ASCII only.
TYPED = re.compile(
    r"^(?P<minus>-)?\$?(?P<whole>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]*)(?:\.(?P<frac>[0-9]*))?$",
    re.ASCII,
)
#: The longest text worth reading: a billion with commas and cents is 16 characters.
MAX_TYPED = 32


def _refuse(message: str, code: str) -> ValidationError:
    return ValidationError(message, code=code)


def parse_money(value: Any, kind: AmountKind, *, positive: bool = False) -> Decimal:
    """The amount ``value`` stands for, to the cent; a ``ValidationError`` with the message of
    the mistake otherwise. ``value`` is text as typed, or a ``Decimal`` or ``int`` given by a
    program (never a float: money is never binary). ``positive``: zero is refused too."""
    if isinstance(value, str):
        amount = _parse_text(value)
    elif isinstance(value, Decimal) and value.is_finite():
        amount = value
    elif isinstance(value, int) and not isinstance(value, bool):
        amount = Decimal(value)
    else:
        raise _refuse(NOT_AN_AMOUNT, "invalid")
    if amount < 0:
        raise _refuse(NEGATIVE, "negative")
    if amount > kind.ceiling:
        raise _refuse(TOO_LARGE.format(noun=kind.noun, ceiling=kind.ceiling_text), "too_large")
    if amount != amount.quantize(CENT):
        raise _refuse(TOO_MANY_DECIMALS, "decimals")
    if positive and amount == 0:
        raise _refuse(NOT_MORE_THAN_ZERO, "not_positive")
    return abs(amount.quantize(CENT))  # abs: "-0" is $0.00, never "-0.00" on a report


def _parse_text(text: str) -> Decimal:
    text = text.strip()
    match = TYPED.match(text) if len(text) <= MAX_TYPED else None
    if match is None:
        # Too long to be an amount, but made only of digits: say it is too large, not wrong.
        if len(text) > MAX_TYPED and re.fullmatch(r"[0-9]+(\.[0-9]*)?", text, re.ASCII):
            return Decimal(text)
        raise _refuse(NOT_AN_AMOUNT, "invalid")
    whole = match["whole"].replace(",", "")
    frac = match["frac"] or ""
    if not whole and not frac:
        raise _refuse(NOT_AN_AMOUNT, "invalid")
    amount = Decimal(f"{whole or 0}.{frac or 0}")
    return -amount if match["minus"] else amount


def amount_so_far(value: Any, kind: AmountKind) -> Decimal | None:
    """The amount typed so far, for a page that shows what it would come to as it is typed
    (a substitute prize's value): None while it is not yet an amount."""
    try:
        return parse_money(value, kind) if value else None
    except ValidationError:
        return None


def money(value: Any, kind: AmountKind, field: str, *, positive: bool = False) -> Decimal:
    """``parse_money`` for a service: the refusal names the field, as a form's would."""
    try:
        return parse_money(value, kind, positive=positive)
    except ValidationError as error:
        raise ValidationError({field: error.messages}) from None


def optional_money(
    value: Any, kind: AmountKind, field: str, *, positive: bool = False
) -> Decimal | None:
    """``money`` for an amount that may be left out (None)."""
    return None if value is None else money(value, kind, field, positive=positive)


class MoneyField(forms.Field):
    """An amount typed in a form, read by ``parse_money`` with the ceiling of its ``kind``.
    A text box, not a number box: a browser's number box refuses "$1,250.00" without a word
    and accepts "1e9"."""

    widget = forms.TextInput

    def __init__(self, *, kind: AmountKind, positive: bool = False, **kwargs: Any) -> None:
        self.kind = kind
        self.positive = positive
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})

    def to_python(self, value: Any) -> Decimal | None:
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        return parse_money(
            value if isinstance(value, Decimal) else str(value), self.kind, positive=self.positive
        )

    def prepare_value(self, value: Any) -> Any:
        return f"{value:.2f}" if isinstance(value, Decimal) and value.is_finite() else value


# Quantities --------------------------------------------------------------------------------

#: A whole number as typed: ASCII digits, an optional "-" so that "cannot be negative" is said.
WHOLE = re.compile(r"^-?[0-9]+$", re.ASCII)
#: A number of hours as typed: ASCII digits, at most two decimals (checked by the field).
HOURS = re.compile(r"^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$", re.ASCII)


class QuantityField(forms.IntegerField):
    """A count (cards, players, tickets, a receipt or game number) as typed: the digits 0–9
    only. Django's ``IntegerField`` also reads "1_000", full-width and Arabic-Indic digits and
    "5.0"; none of them is what a hall's laptop means to send."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.widget.attrs.setdefault("inputmode", "numeric")

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        if len(text) > MAX_TYPED or not WHOLE.match(text):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(text)


class HoursField(forms.DecimalField):
    """Hours worked (a police detail), to the quarter or the minute: the digits 0–9 and at most
    two decimals, for the reason ``QuantityField`` reads digits only."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("widget", forms.TextInput)
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal):
            return value
        text = str(value).strip()
        if len(text) > MAX_TYPED or not HOURS.match(text):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return Decimal(text)

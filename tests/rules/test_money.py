"""The one money parser (issue 14, item 4): ASCII digits, at most two decimals, an optional "$"
and thousands commas, a ceiling for each kind of amount and one message for each kind of
mistake; the quantity and hours fields read ASCII digits only. No database."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from beano.rules import money
from beano.rules.money import (
    NEGATIVE,
    NOT_AN_AMOUNT,
    NOT_MORE_THAN_ZERO,
    TOO_LARGE,
    TOO_MANY_DECIMALS,
    HoursField,
    MoneyField,
    QuantityField,
    parse_money,
    usd,
)

#: Every kind of amount the module names.
KINDS = [v for v in vars(money).values() if isinstance(v, money.AmountKind)]

#: What the issue found accepted: an exponent, Python's digit separator, full-width and
#: Arabic-Indic digits; and their kin.
NOT_AMOUNTS = [
    "1e9",
    "1E9",
    "1_000",
    "１２",  # full-width
    "١٢",  # Arabic-Indic
    "۱۲",  # extended Arabic-Indic (Persian)
    "१२",  # Devanagari
    "NaN",
    "Infinity",
    "ten",
    "1,00",
    "12.5.0",
    "0x10",
    "$",
    ".",
    "+5",
    "5 00",
    "5\x00",
]


def refusal(value: object, kind: money.AmountKind, **kwargs: object) -> str:
    with pytest.raises(ValidationError) as error:
        parse_money(value, kind, **kwargs)
    [message] = error.value.messages
    return message


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.noun)
@pytest.mark.parametrize("value", NOT_AMOUNTS)
def test_it_refuses_what_is_not_an_amount_of_any_kind_with_one_message(kind, value):
    assert refusal(value, kind) == NOT_AN_AMOUNT


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.noun)
def test_it_refuses_more_than_two_decimals_and_negatives_of_any_kind(kind):
    assert refusal("1.005", kind) == TOO_MANY_DECIMALS
    assert refusal(Decimal("0.001"), kind) == TOO_MANY_DECIMALS
    assert refusal("-0.01", kind) == NEGATIVE
    assert refusal("-$5", kind) == NEGATIVE
    assert refusal(Decimal("-1"), kind) == NEGATIVE


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.noun)
def test_each_kind_takes_its_ceiling_and_refuses_a_cent_more(kind):
    assert parse_money(str(kind.ceiling), kind) == kind.ceiling
    assert parse_money(kind.ceiling, kind) == kind.ceiling
    message = TOO_LARGE.format(noun=kind.noun, ceiling=kind.ceiling_text)
    assert refusal(str(kind.ceiling + Decimal("0.01")), kind) == message
    assert refusal("9" * 100, kind) == message
    assert refusal(Decimal("1E+9"), kind) == message


def test_the_ceilings_are_sensible_figures():
    """Above every legal limit the rules judge (so those refusals keep their citation), within
    what the database holds (12 digits, 2 decimals)."""
    assert money.PRIZE.ceiling >= Decimal("3000") and money.JACKPOT.ceiling >= Decimal("3000")
    assert money.PRIZE.ceiling >= money.JACKPOT.ceiling  # a jackpot won is paid as a prize
    assert money.DOOR_PRIZE.ceiling >= Decimal("200")
    assert money.PRICE.ceiling < money.CASH.ceiling < money.DISBURSEMENT.ceiling
    assert all(k.ceiling < Decimal("9999999999.99") for k in KINDS)
    assert money.PRICE.ceiling_text == "$1,000.00"
    assert refusal("1000000000", money.PRICE) == (
        "That amount is too large: a price is at most $1,000.00."
    )


@pytest.mark.parametrize(
    "typed,amount",
    [
        ("25", "25.00"),
        ("25.5", "25.50"),
        ("0.75", "0.75"),
        (".75", "0.75"),
        ("$1,250.00", "1250.00"),
        ("1,250", "1250.00"),
        ("$12,345.6", "12345.60"),
        ("  40.00 ", "40.00"),
        ("0", "0.00"),
        ("-0.00", "0.00"),
        ("007", "7.00"),
    ],
)
def test_it_reads_dollars_and_cents_with_a_dollar_sign_and_thousands_commas(typed, amount):
    assert str(parse_money(typed, money.CASH)) == amount


def test_programs_give_decimals_or_whole_dollars_never_floats():
    assert parse_money(Decimal("12.5"), money.PRICE) == Decimal("12.50")
    assert parse_money(12, money.PRICE) == Decimal("12.00")
    for value in (12.5, True, None, Decimal("NaN"), Decimal("Infinity"), [1], b"12"):
        assert refusal(value, money.PRICE) == NOT_AN_AMOUNT


def test_an_amount_that_must_be_more_than_zero_refuses_zero():
    assert refusal("0.00", money.EXPENSE, positive=True) == NOT_MORE_THAN_ZERO
    assert parse_money("0.01", money.EXPENSE, positive=True) == Decimal("0.01")


def test_a_service_refusal_names_its_field():
    with pytest.raises(ValidationError) as error:
        money.money("1e9", money.CASH, "opening_bank")
    assert error.value.message_dict == {"opening_bank": [NOT_AN_AMOUNT]}
    assert money.optional_money(None, money.CASH, "cash_counted") is None


def test_the_form_field_reads_the_same_and_shows_cents():
    field = MoneyField(kind=money.PRICE, required=False)
    assert field.clean("$2.5") == Decimal("2.50")
    assert field.clean("") is None and field.clean("   ") is None
    assert field.prepare_value(Decimal("2")) == "2.00"
    assert field.widget.input_type == "text"  # a number box would refuse "$1,250.00" silently
    with pytest.raises(ValidationError) as error:
        field.clean("١٢")
    assert error.value.messages == [NOT_AN_AMOUNT]
    required = MoneyField(kind=money.PRICE)
    with pytest.raises(ValidationError, match="required"):
        required.clean("")


def test_the_rounding_to_the_cent_is_half_up():
    assert money.cents(Decimal("0.005")) == Decimal("0.01")
    assert money.cents(Decimal("2.675")) == Decimal("2.68")
    assert money.cents(Decimal("-0.005")) == Decimal("-0.01")


# Quantities and hours --------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["１２", "١٢", "۱۲", "१२", "1_000", "1e3", "5.0", "+5", "0x1"])
def test_a_quantity_is_the_digits_0_to_9_only(typed):
    field = QuantityField(min_value=0, error_messages={"invalid": "A count is a whole number."})
    with pytest.raises(ValidationError) as error:
        field.clean(typed)
    assert error.value.messages == ["A count is a whole number."]


def test_a_quantity_reads_ascii_digits_and_says_when_it_is_negative():
    field = QuantityField(min_value=0, max_value=100, required=False)
    assert field.clean(" 12 ") == 12
    assert field.clean("") is None
    with pytest.raises(ValidationError, match="greater than or equal to 0"):
        field.clean("-1")
    with pytest.raises(ValidationError, match="less than or equal to 100"):
        field.clean("9" * 30)


@pytest.mark.parametrize("typed", ["٤", "４", "4_0", "4e0", "NaN"])
def test_hours_are_the_digits_0_to_9_only(typed):
    field = HoursField(max_digits=5)
    with pytest.raises(ValidationError):
        field.clean(typed)


def test_hours_read_two_decimals_at_most():
    field = HoursField(max_digits=5)
    assert field.clean("4.25") == Decimal("4.25")
    with pytest.raises(ValidationError, match="2 decimal places"):
        field.clean("4.125")


@pytest.mark.parametrize(
    "amount,written",
    [
        ("1234.5", "$1,234.50"),
        ("0", "$0.00"),
        ("-12", "($12.00)"),  # a shortfall, as accountants write it
    ],
)
def test_it_writes_an_amount_one_way(amount, written):
    assert usd(Decimal(amount)) == written


@pytest.mark.parametrize("amount,written", [("75", "$75"), ("37.5", "$37.50"), ("1250", "$1,250")])
def test_it_writes_a_prize_in_whole_dollars_when_it_has_no_cents(amount, written):
    assert usd(Decimal(amount), bare_dollars=True) == written

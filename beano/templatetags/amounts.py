"""The ``usd`` filter, a builtin of every template (settings.TEMPLATES): an amount written the
one way people read it (``beano.rules.money.usd``), $1,234.56 and a negative one in parentheses,
($12.00). Templates write ``{{ amount|usd }}``, never "$" before a number of their own making:
``floatformat`` writes a negative "$-12.00" (tests/test_money_one_way.py walks the templates)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import template

from beano.rules import money

register = template.Library()

DASH = "—"


def as_decimal(value: Any) -> Decimal | None:
    """A figure as the pages hold it (a ``Decimal``, an ``int`` or the text a report's stored
    figures keep it as), or None for nothing or what is not a number."""
    if value is None or value == "":
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


@register.filter
def usd(value: Any) -> str:
    """$1,234.56; negative amounts in parentheses, as accountants write them; a dash for none."""
    number = as_decimal(value)
    return DASH if number is None else money.usd(number)

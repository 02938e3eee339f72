"""Formatting of report figures (stored as JSON strings) for pages and the PDF. ``usd`` is a
builtin of every template (beano.templatetags.amounts)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.utils.safestring import mark_safe

from beano.rules.money import usd
from beano.templatetags.amounts import DASH, as_decimal

register = template.Library()


@register.filter
def signed_usd(value: Any) -> str:
    """+$1.00 / −$1.00 / $0.00 for differences."""
    number = as_decimal(value)
    return DASH if number is None else usd(number, signed=True)


@register.filter
def signed(value: Any) -> str:
    if value is None or value == "":
        return DASH
    number = int(value)
    return f"+{number}" if number > 0 else ("0" if number == 0 else f"−{abs(number)}")


@register.filter
def percent(value: Any) -> str:
    number = as_decimal(value)
    if number is None:
        return DASH
    return f"{(number * 100).normalize():f} %"


@register.filter
def isodate(value: Any) -> dt.date | None:
    if not value:
        return None
    return dt.date.fromisoformat(str(value)[:10])


@register.filter
def isotime(value: Any) -> dt.datetime | None:
    if not value:
        return None
    return dt.datetime.fromisoformat(str(value))


@register.filter
def css_string(value: Any) -> str:
    """Text safe inside a CSS double-quoted string (page headers and footers)."""
    text = str(value or "")
    out = []
    for ch in text:
        if ch in '"\\' or ord(ch) < 32 or ch in "<>":
            out.append(f"\\{ord(ch):x} ")
        else:
            out.append(ch)
    # Safe as it is: inside <style> nothing is decoded, so an HTML-escaped apostrophe would print
    # as "&#x27;"; the characters that could end the string or the style element are escaped.
    return mark_safe("".join(out))


@register.filter
def negative(value: Any) -> bool:
    number = as_decimal(value)
    return number is not None and number < 0


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    return mapping.get(key) if hasattr(mapping, "get") else None


FIGURE_LABELS = {
    "receipts.gross_receipts": "Gross receipts",
    "receipts.door_total": "Door sales",
    "receipts.refunds": "Refunds",
    "tax.tax": "Beano tax",
    "tax.gross_receipts": "Tax base (gross receipts)",
    "tax.total_due": "Total tax due",
    "tax.interest": "Interest for late filing",
    "prizes.total": "Total prizes",
    "prizes.expensed": "Prizes paid for",
    "expenses.lines": "Expense",
    "expenses.total": "Total expenses",
    "net.expenses": "Expenses (net proceeds)",
    "net.tax": "Tax (net proceeds)",
    "net.net_proceeds": "Net proceeds",
    "cash.counted": "Cash counted",
    "cash.variance": "Cash over / short",
    "cash.opening_bank": "Opening bank",
    "cash.expected": "Cash expected",
    "variance.explanation": "Explanation of differences",
    "variance.above_threshold": "Difference above the threshold",
    "disbursements": "Disbursement",
    "total": "Total spent for Lawful Purposes",
    "balance": "Net proceeds not yet spent",
}


@register.filter
def figure_label(path: str) -> str:
    """A change's path as people say it: 'net.net_proceeds' → 'Net proceeds'."""
    if path in FIGURE_LABELS:
        return FIGURE_LABELS[path]
    if path.startswith("counts[") and "]." in path:
        label, field = path[7:].split("].", 1)
        return f"{label}: {field.replace('_', ' ')}"
    return path.replace("_", " ").replace(".", " › ")


@register.filter
def integrity_problems(document: Any) -> list[str]:
    """What does not check about a filed version (reports.integrity): shown with it, never
    passed over. Two queries a version."""
    from reports.integrity import document_problems

    return document_problems(document)


@register.simple_tag(takes_context=True)
def day_way_in(context: template.Context, day: dt.date, occasion: Any) -> Any:
    """``{% day_way_in ob.day occasion as way %}``: a past authorized day with nothing
    recorded, and what the viewer may do (``reports.extensions.DAY_WAY_IN``, filled by the night
    file). The viewer's roles are the page's ``access`` (an organization's pages) or the landing
    page's card's (``c.roles``)."""
    from reports.extensions import day_way_in as way_in

    access = context.get("access")
    if access is not None:
        roles = access.roles if not access.is_commission else frozenset()
    else:
        card = context.get("c") or {}
        roles = frozenset(card.get("roles", ()))
    return way_in(context["org"], roles, day, occasion)

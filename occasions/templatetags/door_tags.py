"""``void_form|refused_for:number``: whether the void form sent back refused is receipt
``number``'s, so that its row shows the form again, open, as it was filled."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def refused_for(form: Any, number: int) -> bool:
    return bool(form) and getattr(form, "receipt_number", None) == number

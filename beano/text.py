"""Text as people type it, cleaned one way: on one line, the spaces around it dropped and each run
of spaces, tabs and line breaks inside made one space. A name, a reason or a town typed twice
with a stray space or a pasted line break is the same text, stored the same and compared the
same. Services call ``text`` for what arrives without a form (its refusal names the field, as a
form's would); the rest call ``one_line``. tests/test_text_one_way.py keeps every cleaning here."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

REQUIRED = "This is required."


def one_line(value: Any) -> str:
    """``value`` on one line: spaces around it dropped, each run of white space inside made one
    space; nothing (None) is the empty text."""
    return " ".join(("" if value is None else str(value)).split())


def folded(value: Any) -> str:
    """``one_line`` without case: the key two spellings of a name share ("Ann  Lee", "ann lee")."""
    return one_line(value).casefold()


def same_words(a: Any, b: Any) -> bool:
    """Whether two texts say the same words, whatever their case and spacing."""
    return folded(a) == folded(b)


def text(
    value: Any,
    field: str,
    *,
    required: bool = True,
    limit: int = 200,
    missing: str = REQUIRED,
) -> str:
    """``one_line`` for a service: refused with a ``ValidationError`` naming ``field`` when it is
    required and empty (``missing`` says what to give) or longer than ``limit``."""
    value = one_line(value)
    if required and not value:
        raise ValidationError({field: missing})
    if len(value) > limit:
        raise ValidationError({field: f"At most {limit} characters."})
    return value

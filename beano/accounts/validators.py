"""A password must not contain its own username or the person's names."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

#: Shorter names ("Al", "Li") would refuse too many good passwords by accident.
SHORTEST_NAME = 3


class NoPersonalNamesValidator:
    """Django's similarity check compares the whole password with each attribute, so
    ``post171-mic-Friday!`` passes it; this one refuses any password that contains the username,
    the first or the last name (ignoring case), which is the first thing a guesser tries."""

    def validate(self, password: str, user: Any = None) -> None:
        if user is None:
            return
        lowered = password.casefold()
        for attribute, label in (
            ("username", "your username"),
            ("first_name", "your first name"),
            ("last_name", "your last name"),
        ):
            value = (getattr(user, attribute, "") or "").strip().casefold()
            if len(value) >= SHORTEST_NAME and value in lowered:
                raise ValidationError(
                    f"The password contains {label}; choose one that does not.",
                    code="password_contains_name",
                )

    def get_help_text(self) -> str:
        return "Your password can’t contain your username or your name."

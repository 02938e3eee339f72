"""How the rules word a second person's confirmation: not given (the password or PIN typed is
not theirs), or paused after too many wrong ones (``beano.accounts.pins``) until the moment it
ends, as the hall's clock shows it, so that the refusal says exactly how long the pause lasts.
One wording, so that a form can tell which of its fields a refusal is about."""

from __future__ import annotations

import datetime as dt


def paused_words(who: str, until: dt.datetime) -> str:
    """``until`` in the hall's time zone (the service passes it so)."""
    return (
        f"Too many wrong passwords or PINs for the {who}: their confirmations are paused until "
        f"{until:%-I:%M %p}. Ask another person, or wait."
    )


def not_confirmed(who: str, what: str = "") -> str:
    """The second person did not prove themselves: the password or PIN typed is not theirs."""
    return f"The {who} has not confirmed{what} with their own password or PIN."


def about_the_secret(message: str) -> bool:
    """Whether a refusal is about the password or PIN typed (a form puts it on that field)."""
    return "has not confirmed" in message

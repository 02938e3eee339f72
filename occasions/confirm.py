"""The confirmation before a final act of the night (open, finish a game, close …): the page the
act's button posts to answers an unconfirmed POST with a summary of what the act will do and
what is still unfinished, and acts only on the POST that carries ``confirmed=yes``. Nothing is
judged or saved until then; the rules still judge the confirmed act before it is saved. A
summary that knows the act would be refused says why and offers no "Yes": only the way back."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import HttpRequest

#: The field the summary's button adds to the act's POST.
CONFIRMED = "confirmed"


def confirmed(request: HttpRequest) -> bool:
    """Whether this POST is the one confirmed from the act's summary."""
    return request.POST.get(CONFIRMED) == "yes"


@dataclass(frozen=True)
class Left:
    """A line of a summary with where it is put right: ``links`` as (words, URL)."""

    text: str
    links: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return self.text


#: A line of a summary: plain words, or words with where they are put right.
Line = str | Left


@dataclass(frozen=True)
class Confirmation:
    """What a final act will do, what is unfinished, and how a mistake can be put right.

    ``action`` is the URL the confirmed POST goes to; ``target`` the htmx target the page's own
    button swapped (empty: a plain POST); ``back`` where "Go back" leads."""

    title: str
    button: str
    action: str
    back: str
    does: tuple[str, ...]
    unfinished: tuple[Line, ...] = ()
    refused: tuple[Line, ...] = ()  # why the act would be refused now, if it were confirmed
    corrections: tuple[str, ...] = ()
    target: str = ""
    fields: tuple[tuple[str, str], ...] = field(default=())  # other fields to post again

    @property
    def can_confirm(self) -> bool:
        """Whether "Yes" is offered: not while the act would be refused."""
        return not self.refused

"""Showing an audit event's old and new values, and where it came from; the link to a record's
history."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from django import template
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from beano.rules.money import usd
from organizations import extensions

register = template.Library()


@register.filter
def value_pairs(values: dict[str, Any]) -> list[tuple[str, Any]]:
    """The (field, value) pairs of an event's values. ``values.items`` in a template would look
    up a field named "items" first (a price list's event has one) instead of the pairs."""
    return list(values.items()) if isinstance(values, dict) else []


def _when(value: Any) -> str:
    moment = parse_datetime(str(value or ""))
    if moment is None:
        return ""
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, dt.UTC)
    return f" on {timezone.localtime(moment):%b %-d, %Y at %-I:%M %p}"


def _sheet(name: str) -> str:
    """'Door tally' → 'the Door tally sheet'; a name that says it is a sheet is kept."""
    if not name:
        return "its control sheets"
    return f"the {name}" if name.lower().endswith(("sheet", "sheets")) else f"the {name} sheet"


@register.filter
def provenance_words(values: Any) -> str:
    """An event's provenance as a sentence, for the audit pages: where an act entered after the
    fact came from, who entered it and when (empty for an act recorded live)."""
    if not isinstance(values, dict) or not values:
        return ""
    session = f"at the hall laptop, in {values['session']}'s session" if "session" in values else ""
    if set(values) == {"session"}:
        return session
    words = _entered_words(values)
    return f"{words}; {session}" if session else words


def _queued_words(values: dict[str, Any]) -> str:
    """An act the hall laptop queued while offline: the moment it claims, when it arrived."""
    words = "recorded on the hall laptop while offline"
    claimed = _when(values.get("claimed_at"))
    if claimed:
        words += f"{claimed} (the time the laptop gave)"
    received = _when(values.get("received_at"))
    if received:
        words += f", received{received}"
    return words


def _api_words(values: dict[str, Any]) -> str:
    """An act sent through the API: the client's name, and who made its token."""
    words = f"through the API by “{values.get('client', '')}”"
    if values.get("made_by"):
        words += f" (a token made by {values['made_by']})"
    return words


def _entered_words(values: dict[str, Any]) -> str:
    if values.get("source") == "queue":
        return _queued_words(values)
    if values.get("source") == "api":
        return "recorded " + _api_words(values)
    through = f", sent {_api_words(values)}" if values.get("client") else ""
    return _sheet_words(values) + through


def _sheet_words(values: dict[str, Any]) -> str:
    who = f" by {values['entered_by']}" if values.get("entered_by") else ""
    when = _when(values.get("entered_at"))
    if values.get("closed_late"):
        reason = f": {values['reason']}" if values.get("reason") else ""
        return f"closed after the fact{who}{when}{reason}"
    source = f"from {_sheet(values.get('sheet', ''))}"
    if values.get("file"):
        source += f" (night file {values['file']})"
    return f"entered {values.get('entered', 'after the fact')} {source}{who}{when}"


@register.simple_tag(takes_context=True)
def history_url(context: dict[str, Any], record: models.Model) -> str:
    """The history page of ``record`` in the page's organization's audit trail, from the app
    that serves it (``organizations.extensions.HISTORY_PAGE``), or "" without one."""
    return extensions.history_page(context["org"].pk, record._meta.label_lower, record.pk)


#: An action's last word as a sentence says it, where the word alone would not.
VERBS = {
    "balls_confirmed": "confirmed all 75 balls for",
    "link_made": "made the flashboard link of",
    "link_replaced": "replaced the flashboard link of",
    "link_revoked": "turned off the flashboard link of",
    "rules_changed": "changed the rules of",
    "play_started": "started play at",
    "second_half_started": "started the second half of",
    "not_played": "marked as not played",
    "set": "posted",
    "begun": "began",
    "readded": "added again",
    "taken_back": "took back",
    "attested_on_paper": "attested on paper",
    "updated": "changed",
    "saved": "saved",
}
#: The values whose figure a sentence names ("… receipt 12 of $14.00").
AMOUNT_KEYS = ("total", "amount", "share")


def _amount(values: Any) -> str:
    if not isinstance(values, dict):
        return ""
    for key in AMOUNT_KEYS:
        try:
            figure = Decimal(str(values.get(key)))
        except (InvalidOperation, ValueError):
            continue
        if figure.is_finite():
            return f" of {usd(figure)}"
    return ""


@register.filter
def event_sentence(event: Any) -> str:
    """An audit event as one sentence with its local time: "At 7:42 PM, Mary Souza recorded
    Door sale receipt 12 of $14.00." (the technical detail stays on the page, folded)."""
    actor = getattr(event, "actor", None)
    who = (actor.get_full_name() if actor is not None else "") or event.actor_label or "The system"
    word = str(event.action).rsplit(".", 1)[-1]
    verb = VERBS.get(word, word.replace("_", " "))
    when = f"{timezone.localtime(event.created_at):%-I:%M %p}"
    return f"At {when}, {who} {verb} {event.target_repr}{_amount(event.new_values)}."

"""The summaries shown before the night's final acts at the occasion (open, close): what the act
will do and what is still unfinished, read in a fixed number of queries. The act itself is
judged by the rules only when it is confirmed (``occasions.confirm``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Sum
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from beano import rules
from beano.rules.close import CLOSE_PRIZES, PrizesOwedFacts
from beano.rules.workers import FLOOR_ACT
from occasions import extensions, on_floor
from occasions import floor_selectors as floor
from occasions.confirm import Confirmation, Left
from occasions.models import Occasion, Raffle
from occasions.sales_selectors import attendance_check
from organizations import selectors as org_selectors


def _url(name: str, occasion: Occasion) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk})


def _now() -> str:
    return date_format(timezone.localtime(timezone.now()), "g:i A")


def refused_at_close(
    occasion: Occasion,
    left: extensions.NightLeft,
    *,
    in_play: bool = True,
    pay_at: Callable[[extensions.Owed], tuple[str, str]] | None = None,
) -> list[Left]:
    """Why the close would be refused now, each with where it is put right: a game in play (the
    games' check; ``in_play`` False for a close that finishes them first), then what the rules
    would refuse (judged, never logged), the winners owed one by one (961 CMR 3.04(6)(f)), paid
    where ``pay_at`` says (their game's claims page, on the night), and a compensated bookkeeper
    not present (3.04(1)(g))."""
    refused = []
    reason = extensions.why_not_close(occasion) if in_play else None
    if reason:
        refused.append(Left(reason, (left.finish,) if left.finish else ()))
    on = occasion.date
    limits = rules.limits_in_force(on)
    authorizations = org_selectors.authorization_facts(occasion.organization)
    for owed in left.owed:
        decision = rules.judge(
            CLOSE_PRIZES,
            PrizesOwedFacts((owed.prize,)),
            on=on,
            limits=limits,
            authorizations=authorizations,
        )
        where = pay_at(owed) if pay_at is not None else owed.where
        refused += [Left(m, (where,)) for m in decision.messages]
    workers = (("Workers", _url("workers_present", occasion)),)
    for facts in floor.bookkeeper_facts(occasion):
        decision = rules.judge(
            floor.CLOSE, facts, on=on, limits=limits, authorizations=authorizations
        )
        refused += [Left(m, workers) for m in decision.messages]
    return refused


def _floor_left(occasion: Occasion) -> list[Left]:
    """What the floor leaves: the workers still signed in (the close signs them out) and a door
    whose attendance was not announced."""
    lines = []
    present = [p.entry.person.legal_name for p in floor.presences(occasion) if p.is_present]
    if present:
        lines.append(
            Left(
                f"{len(present)} still signed in ({', '.join(present)}): the close signs them out.",
                (("Workers", _url("workers_present", occasion)),),
            )
        )
    if not attendance_check(occasion).announced:
        lines.append(
            Left(
                "The door's attendance count has not been announced.",
                (("Door", _url("door_sales", occasion)),),
            )
        )
    return lines


def extras_left(occasion: Occasion) -> tuple[Left, ...]:
    """The raffles whose tickets were sold and whose drawing is not recorded (one query): the
    players paid for a chance at the prize. A door prize is recorded when it is awarded, so
    none is ever left open."""
    raffles = (
        Raffle.objects.filter(occasion=occasion, drawn_at__isnull=True)
        .annotate(tickets=Sum("ticket_sales__quantity"))
        .filter(tickets__gt=0)
        .order_by("pk")
        .values_list("prize_description", "tickets")
    )
    where = (("Prizes and other sales", _url("occasion_extras", occasion) + "#raffle-drawing"),)
    return tuple(
        Left(
            f"The raffle for {prize} ({tickets} ticket{pluralize(tickets)} sold) has no drawing "
            "recorded.",
            where,
        )
        for prize, tickets in raffles
    )


def close_summary(occasion: Occasion, by: Any = None) -> Confirmation:
    """Before the close, the whole night: why the close would be refused now (``by``, the one
    at the laptop, not a worker signed in on the night's floor (3.04(1)(b)), a game in play, a
    winner owed, a compensated bookkeeper absent), and what is only listed (prizes with no
    winner, games never played, the raffles not drawn, the workers still signed in, the
    attendance not announced, what the apps above leave open), each with where it is put
    right. "Yes" only if it can close."""
    left = extensions.night_left(occasion)
    refused = refused_at_close(occasion, left)
    if by is not None:
        doer = on_floor.facts(occasion, by, timezone.now(), doing="closing the occasion")
        decision = rules.judge(FLOOR_ACT, doer, on=occasion.date)
        workers = (("Workers", _url("workers_present", occasion)),)
        refused[:0] = [Left(m, workers) for m in decision.messages]
    return Confirmation(
        title="Close the occasion?",
        button="Yes, close the occasion",
        action=_url("occasion_close", occasion),
        back=_url("occasion_close", occasion),
        does=(
            f"Close the occasion at {_now()}.",
            "Sign out everyone still signed in at that time.",
            "Stop every change on the floor: no sale, ball, claim or sign-in after it.",
        ),
        refused=tuple(refused),
        unfinished=left.lines + extras_left(occasion) + tuple(_floor_left(occasion)),
        corrections=(
            "A close cannot be undone. The money is counted afterwards in the bookkeeper's "
            "close-out; a report filed with a mistake can be amended from the close-out page.",
        ),
    )


def open_summary(occasion: Occasion, by: Any = None) -> Confirmation:
    """Before the opening: who is in charge, the games planned, and what the rules would refuse
    now (the checklist items not confirmed, the records out of order, ``by`` not signed in on
    the floor)."""
    games = extensions.floor_games(occasion)
    in_charge = floor.in_charge(occasion)
    present = [p for p in floor.presences(occasion) if p.is_present]
    unfinished = []
    if not games.games:
        unfinished.append("No game is in the program yet: the games are planned on the Games page.")
    decision = floor.opening_decision(occasion, timezone.now(), by)
    charge = in_charge.entry.person.legal_name if in_charge is not None else "no one yet"
    return Confirmation(
        title="Open the occasion?",
        button="Yes, open the occasion",
        action=_url("occasion_open", occasion),
        back=_url("opening_checklist", occasion),
        target="#opening-checklist",
        does=(
            f"Open the occasion at {_now()}: the door can sell and games can start.",
            f"Record {charge} as the member in charge, with {len(present)} workers signed in.",
        ),
        unfinished=tuple(unfinished),
        refused=decision.messages,
        corrections=(
            "An opening cannot be undone: its time stays on the record. A night cut short is "
            "closed like any other.",
        ),
    )

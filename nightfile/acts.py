"""The acts of a night's control sheets and how they are recorded: each act a call of the same
service the floor uses, in the order of the moments written on the sheet, each given its
moment from paper (``Night.at``: the time on the sheet, the sheet, who enters it) so the rules
judge it as of that moment, and its audit events carrying that moment's provenance (entered
after the fact). Nothing here decides what is allowed: the services and the
rules do, exactly as they do live. The acts of each sheet are made in ``floor_acts``,
``game_acts`` and ``extras_acts``."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError

from beano import rules
from beano.actors import Actor
from beano.rules.workers import NAME_ON_PAPER, SignInFacts
from beano.text import folded
from games.models import Claim, Game, Winner
from nightfile import format as fmt
from occasions import moments
from occasions.models import Occasion, PaperRecord, WorkerPresence
from organizations.audit import provenance
from organizations.models import WorkerListEntry

#: The order of acts written at the same moment: what must come first on the night.
RANK = {
    name: i
    for i, name in enumerate(
        [
            "sign_in",
            "checklist",
            "open",
            "varying",
            "tally",
            "sold_void",
            "void",
            "attendance",
            "second_half",
            "announce",
            "balls",
            "start",
            "ball",
            "claim",
            "card",
            "winners",
            "payout",
            "finish",
            "settle",
            "door_prize",
            "charity",
            "redeem",
            "refund",
            "other_sale",
            "raffle",
            "police",
            "close",
            "sign_out",  # at the moment of the close, the close itself signs everyone out
            "closeout",
        ]
    )
}


def key(name: str) -> str:
    """A person's name as the sheets may write it: case and spacing do not matter."""
    return folded(name)


@dataclass
class Night:
    """What the acts of one recording share: the occasion, who enters, and the records made so
    far that later acts name (workers by name, games by number, claims by their place)."""

    occasion: Occasion
    by: Actor
    record: PaperRecord
    presences: dict[str, WorkerPresence] = field(default_factory=dict)
    games: dict[int, Game] = field(default_factory=dict)
    claims: dict[tuple[int, int], Claim] = field(default_factory=dict)
    winners: dict[tuple[int, int], Winner] = field(default_factory=dict)
    admission_receipt: int | None = None
    #: The sheet the act being recorded is read from (``run`` sets it for each act).
    sheet: moments.Paper | None = None

    def at(self, when: dt.datetime | None) -> moments.Moment:
        """The moment of an act of the sheet being entered: the time written on it."""
        assert self.sheet is not None, "an act is recorded inside run()"
        return moments.from_paper(self.sheet, when)

    def refresh(self) -> None:
        self.occasion = Occasion.objects.select_related("organization", "license").get(
            pk=self.occasion.pk
        )

    def worker(self, name: str, *, what: str) -> WorkerPresence:
        """The worker of the night the sheet names (signed in at this occasion)."""
        found = self.presences.get(key(name))
        if found is None:
            for presence in (
                WorkerPresence.objects.filter(occasion=self.occasion)
                .select_related("entry__person")
                .order_by("-signed_in_at")
            ):
                if key(presence.entry.person.legal_name) == key(name):
                    found = presence
                    break
        if found is None:
            raise ValidationError(f"{what}: {name} is not signed in at this occasion.")
        return found

    def game(self, number: int) -> Game:
        found = (
            self.games.get(number)
            or Game.objects.filter(occasion=self.occasion, number=number).first()
        )
        if found is None:
            raise ValidationError(f"Game {number} is not in the program.")
        self.games[number] = found
        return found


@dataclass
class Act:
    """One act of a control sheet: its moment (None for the sheets without one: the price list
    and the program, recorded first), the sheet it is read from, and what records it."""

    at: dt.datetime | None
    kind: str
    sheet: str
    what: str
    run: Callable[[Night], Any]
    #: When it is recorded in the replay, if not at its own moment: a sale of food an hour
    #: before the doors (3.04(9)(e) allows it) is written down once the occasion is open.
    order_at: dt.datetime | None = None

    @property
    def order(self) -> tuple[Any, ...]:
        moment = self.order_at or self.at
        return (
            moment is not None,
            moment or dt.datetime.min.replace(tzinfo=dt.UTC),
            RANK[self.kind],
        )


class NightRefused(ValidationError):
    """An act of the sheets the services refused: which act, and every reason with its
    citation (a RuleViolation's, or the service's own message)."""

    def __init__(self, act: Act, error: ValidationError) -> None:
        self.act = act
        self.error = error
        if isinstance(error, rules.RuleViolation):
            self.reasons = [(v.citation, v.message) for v in error.violations]
            # What the page shows beside the refusal (a card's reasons), said here too.
            self.reasons += getattr(error, "explained", [])
        else:
            self.reasons = [("", m) for m in error.messages]
        when = f" at {act.at:%-I:%M %p}" if act.at else ""
        super().__init__(
            [f"{act.sheet}, {act.what}{when}: " + _reason(c, m) for c, m in self.reasons]
        )


def _reason(citation: str, message: str) -> str:
    return f"{message} ({citation})" if citation else message


def refused(error: ValidationError, day: dt.date) -> dict[str, Any]:
    """A refusal as ``import_night --json`` prints it (docs/formats/night-file.md): each reason
    with the sheet, the act and its time as the file writes it, the message and its citation,
    and ``text``, the line printed without --json."""
    rows = []
    if isinstance(error, NightRefused):
        act = error.act
        for (citation, message), text in zip(error.reasons, error.messages, strict=True):
            rows.append(
                {
                    "sheet": act.sheet,
                    "act": act.what,
                    "at": fmt.write_time(act.at, day),
                    "message": message,
                    "citation": citation,
                    "text": text,
                }
            )
    else:
        rows = [
            {"sheet": "", "act": "", "at": None, "message": m, "citation": "", "text": m}
            for m in error.messages
        ]
    return {"status": "refused", "saved": False, "refusals": rows}


def unreadable(message: str) -> dict[str, Any]:
    """A file that cannot be read, as ``import_night --json`` prints it."""
    return {"status": "unreadable", "saved": False, "message": message}


class OutOfTime(Exception):
    """Recording the acts went past the ``deadline`` given to ``run``: the caller's transaction
    saves nothing (a page judging a night file waits only so long)."""

    def __init__(self, act: Act) -> None:
        self.act = act
        super().__init__(f"out of time before {act.sheet}, {act.what}")


def run(night: Night, acts: Iterable[Act], *, deadline: float | None = None) -> None:
    """Record ``acts`` in the order of their moments, each from its sheet; stop at the first
    refusal (the caller's transaction then saves nothing). ``deadline``: a
    ``time.monotonic()`` past which no further act is begun (``OutOfTime``)."""
    ordered = sorted(
        ((a.order, i, a) for i, a in enumerate(acts)), key=lambda item: (item[0], item[1])
    )
    for _, _, act in ordered:
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime(act)
        try:
            night.sheet = moments.paper_sheet(night.record, sheet=act.sheet, by=night.by)
            with provenance(night.sheet.provenance):
                act.run(night)
        except ValidationError as error:
            raise NightRefused(act, error) from error
        night.refresh()


def listed_entry(occasion: Occasion, name: str, *, by: Actor, role: str = "") -> WorkerListEntry:
    """The person of the occasion's year's worker list the sheet names; a name that is on no
    entry is refused by the rules service (3.04(1)(b)), and the refusal logged, as a sign-in of
    someone not on the list is at the hall."""
    for entry in WorkerListEntry.objects.filter(
        worker_list__organization=occasion.organization, worker_list__year=occasion.date.year
    ).select_related("person", "worker_list"):
        if key(entry.person.legal_name) == key(name):
            return entry
    rules.enforce(
        NAME_ON_PAPER,
        SignInFacts(
            name=name,
            year=occasion.date.year,
            on_list=False,
            role=role,
            listed_roles=(),
            identification_displayed="",
            identification_listed="",
        ),
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )
    raise AssertionError("the rules refuse a name on no entry of the list")

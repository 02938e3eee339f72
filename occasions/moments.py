"""The moment of an act and where it comes from, passed to each service as its ``at``.

A live act is recorded at the server's clock (``at=None``, or ``live()``). An act entered after
the fact from the night's paper control sheets carries the time written on the sheet and the
sheet it is read from (``from_paper``): ``occasions.services.moment_of``, the one function that
says what "now" is for an act, then requires that time and holds it inside the paper record's
period, and the services that judge a paper act otherwise (a witness attested on paper, a tally
entered from the sheet) read ``paper_of(at)``. An act queued at the hall laptop while it was
offline and sent later (``from_queue``) keeps the time it was done. A bare ``datetime`` is a
time stated for the act with no paper behind it (the demo, which records its nights afterwards).

What the audit trail records of the act's provenance is ``Moment.provenance``."""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass, replace
from typing import Any

from django.utils import timezone

from beano.actors import Actor
from beano.text import one_line
from occasions.models import PaperRecord
from organizations.audit import acting_user


class Source(enum.StrEnum):
    """Where an act's moment comes from."""

    LIVE = "live"
    PAPER = "paper"
    QUEUE = "queue"


@dataclass(frozen=True)
class Paper:
    """The paper record being entered and the sheet an act is read from, with who entered it
    and when."""

    record: PaperRecord
    sheet: str
    entered_by: str
    entered_at: dt.datetime

    @property
    def provenance(self) -> dict[str, Any]:
        """What each audit event of an act entered from this sheet says of where it came from."""
        values: dict[str, Any] = {
            "entered": "after the fact",
            "source": self.record.source,
            "paper_record": self.record.pk,
            "sheet": self.sheet,
            "entered_by": self.entered_by,
            "entered_at": self.entered_at,
        }
        if self.record.file_name:
            values["file"] = self.record.file_name
        return values


@dataclass(frozen=True)
class Queued:
    """An act done at the hall laptop while it was offline, sent from its queue later: the
    laptop (its browser's id), its own clock at the act, and when the server received it."""

    device: str
    queued_at: dt.datetime
    received_at: dt.datetime | None = None

    @property
    def provenance(self) -> dict[str, Any]:
        """What each audit event of the act says of where it came from (with the moment claimed,
        which ``Moment.provenance`` adds): recorded on the hall laptop while offline, and when
        it was received."""
        values: dict[str, Any] = {
            "entered": "offline",
            "source": "queue",
            "device": self.device,
            "queued_at": self.queued_at,
        }
        if self.received_at is not None:
            values["received_at"] = self.received_at
        return values


@dataclass(frozen=True)
class Moment:
    """An act's moment (``at``: None for a live act, read from the clock when it is recorded)
    and where it comes from."""

    at: dt.datetime | None = None
    paper: Paper | None = None
    queued: Queued | None = None

    @property
    def source(self) -> Source:
        """Where the moment comes from: the paper or the queue it carries, else live."""
        if self.paper is not None:
            return Source.PAPER
        return Source.QUEUE if self.queued is not None else Source.LIVE

    @property
    def provenance(self) -> dict[str, Any]:
        """What the audit trail records of where the act came from: nothing for a live act."""
        if self.paper is not None:
            return self.paper.provenance
        if self.queued is not None:
            return {**self.queued.provenance, "claimed_at": self.at}
        return {}

    def then(self, at: dt.datetime) -> Moment:
        """The same provenance at another moment (an act that records a second one with it)."""
        return replace(self, at=at)


#: What a service's ``at`` may be: a ``Moment``, a time stated with no paper behind it, or None
#: (live).
At = Moment | dt.datetime | None


def live() -> Moment:
    """A live act's moment: the server's clock when it is recorded."""
    return Moment()


def paper_sheet(record: PaperRecord, *, sheet: str, by: Actor) -> Paper:
    """The sheet of ``record`` being entered by ``by``, now (one for each act of a sheet)."""
    user = acting_user(by)
    return Paper(
        record=record,
        sheet=one_line(sheet)[:100] or record.sheets,
        entered_by=user.get_username() if user else "system",
        entered_at=timezone.now(),
    )


def from_paper(paper: Paper, at: dt.datetime | None) -> Moment:
    """An act read from ``paper`` at the time written on the sheet (required by ``moment_of``)."""
    return Moment(at=at, paper=paper)


def from_queue(
    at: dt.datetime,
    *,
    device: str,
    queued_at: dt.datetime,
    received_at: dt.datetime | None = None,
) -> Moment:
    """An act done at ``at`` on the hall laptop ``device`` while offline, queued at
    ``queued_at`` by the laptop's own clock, received by the server at ``received_at``."""
    return Moment(at=at, queued=Queued(device=device, queued_at=queued_at, received_at=received_at))


def stated(at: At) -> dt.datetime | None:
    """The time stated for the act, None for a live one."""
    return at.at if isinstance(at, Moment) else at


def paper_of(at: At) -> Paper | None:
    """The sheet an act is entered from, None for an act that does not come from paper."""
    return at.paper if isinstance(at, Moment) else None


def restated(at: At, moment: dt.datetime) -> At:
    """``moment`` with ``at``'s provenance: for a service that records a second act with its
    own (a game started from paper starts play from paper)."""
    return at.then(moment) if isinstance(at, Moment) else moment

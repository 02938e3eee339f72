"""Who did what on a night entered from its paper sheets, said truthfully on the occasion page:
the member in charge the sheets name (the one whose signature attests the opening checklist,
or those signed in as members in charge, 961 CMR 3.04(1)(a)) and the person who typed the
opening and the close in from paper, with the day they did. ``opened_by`` and ``closed_by`` are
that login; on a paper night they are not the member in charge of the night."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from beano.rules.workers import WorkerRole
from occasions.models import Occasion, OpeningCheck, PaperRecord, WorkerPresence
from organizations.models import AuditEvent

OPENED = "occasions.occasion.opened"
CLOSED = "occasions.occasion.closed"


@dataclass(frozen=True)
class FromPaper:
    """An act of the night entered from paper."""

    in_charge: tuple[str, ...]  # the members in charge as the sheets name them, or none
    attested: bool  # named by their signature on the opening checklist
    entered_by: str  # the person signed in who typed it in
    entered_on: dt.date  # the day they did


def _records(occasion: Occasion) -> list[PaperRecord]:
    """The occasion's paper records: read once by the occasion page (prefetched)."""
    return list(occasion.paper_records.all())


def _name(user: object) -> str:
    if user is None:
        return "the system"
    return user.get_full_name() or user.get_username()  # type: ignore[attr-defined]


def night_from_paper(occasion: Occasion) -> dict[str, FromPaper]:
    """For the opening and the close, when the paper record holds its moment: who was in charge
    on the sheets and who entered it from paper, when. At most four queries, however long the
    night (none when nothing of it came from paper)."""
    records = _records(occasion)
    acts = {
        name: (moment, by, record)
        for name, moment, by in (
            ("opening", occasion.opened_at, occasion.opened_by),
            ("close", occasion.closed_at, occasion.closed_by),
        )
        if moment is not None
        for record in [next((r for r in records if r.holds(moment)), None)]
        if record is not None
    }
    if not acts:
        return {}
    attested = list(
        OpeningCheck.objects.filter(occasion=occasion, attested_by__isnull=False)
        .order_by("attested_by__signed_in_at", "attested_by_id")
        .values_list("attested_by__entry__person__legal_name", flat=True)
    )
    members = list(
        WorkerPresence.objects.filter(occasion=occasion, role=WorkerRole.MEMBER_IN_CHARGE)
        .select_related("entry__person")
        .order_by("signed_in_at", "pk")
    )
    entered = {
        event.action: event
        for event in AuditEvent.objects.filter(
            target_type=Occasion._meta.label_lower,
            target_id=str(occasion.pk),
            action__in=(OPENED, CLOSED),
        ).order_by("sequence")
    }
    out = {}
    for name, (moment, by, record) in acts.items():
        event = entered.get(OPENED if name == "opening" else CLOSED)
        when = event.created_at if event is not None else record.created_at
        in_charge = [
            p.entry.person.legal_name
            for p in members
            if p.signed_in_at <= moment and (p.signed_out_at is None or p.signed_out_at >= moment)
        ]
        signed = name == "opening" and bool(attested)
        out[name] = FromPaper(
            in_charge=tuple(dict.fromkeys(attested if signed else in_charge)),
            attested=signed,
            entered_by=_name(by),
            entered_on=timezone.localdate(when),
        )
    return out

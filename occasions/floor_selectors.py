"""Reads for the floor of an occasion: who is present and in charge, the people of the worker
list who may sign in, and the facts the rules judge at opening and at close."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from beano import rules
from beano.rules.hours import HoursFacts
from beano.rules.opening import CHECKLIST, OPEN, ChecklistItem, OpeningFacts
from beano.rules.workers import (
    COMPENSABLE_ROLES,
    FLOOR_ACT,
    BookkeeperPresenceFacts,
    WorkerListFacts,
    WorkerRole,
)
from occasions import extensions
from occasions.models import (
    AttendanceAnnouncement,
    CharityTicketSale,
    DoorPrize,
    Gift,
    Handover,
    Occasion,
    OpeningCheck,
    OtherSale,
    Raffle,
    RaffleTicketSale,
    Refund,
    Sale,
    VaryingPrizesAnnouncement,
    WorkerPresence,
)
from occasions.selectors import resumption_facts
from organizations import selectors as org_selectors
from organizations.equipment_services import check_equipment_usable
from organizations.models import Equipment, WorkerListEntry

REPAIR_CITATION = "961 CMR 3.04(4)(b)"
CLOSE = "occasion.close"


def presences(occasion: Occasion) -> QuerySet[WorkerPresence]:
    """Every presence of the night, the earliest first."""
    return WorkerPresence.objects.filter(occasion=occasion).select_related(
        "entry__person", "signed_in_by", "signed_out_by"
    )


def handovers(occasion: Occasion) -> QuerySet[Handover]:
    return Handover.objects.filter(occasion=occasion).select_related(
        "from_presence__entry__person", "to_presence__entry__person", "recorded_by"
    )


def in_charge(occasion: Occasion) -> WorkerPresence | None:
    """The worker in charge now: the one the last handover named, while present; else the
    member in charge signed in first among those present."""
    last = handovers(occasion).order_by("-at", "-pk").first()
    if last is not None and last.to_presence.is_present:
        return last.to_presence
    return (
        presences(occasion)
        .present()
        .filter(role=WorkerRole.MEMBER_IN_CHARGE)
        .order_by("signed_in_at", "pk")
        .first()
    )


def on_list_that_day(entry: WorkerListEntry, occasion: Occasion) -> bool:
    """On this organization's list of the occasion's year, added by the day and not removed by
    it (a person removed "from this day" may no longer assist that day)."""
    return (
        entry.worker_list.organization_id == occasion.organization_id
        and entry.worker_list.year == occasion.date.year
        and entry.added_on <= occasion.date
        and (entry.removed_on is None or entry.removed_on > occasion.date)
    )


def list_entries(occasion: Occasion) -> QuerySet[WorkerListEntry]:
    """The people of the occasion's year's worker list who are on it that day."""
    return (
        WorkerListEntry.objects.filter(
            worker_list__organization=occasion.organization,
            worker_list__year=occasion.date.year,
            added_on__lte=occasion.date,
        )
        .filter(Q(removed_on__isnull=True) | Q(removed_on__gt=occasion.date))
        .select_related("person", "worker_list")
        .order_by("person__legal_name")
    )


@dataclass(frozen=True)
class ChecklistRow:
    item: ChecklistItem
    check: OpeningCheck | None


def checklist(occasion: Occasion) -> list[ChecklistRow]:
    checks = {
        c.item: c
        for c in OpeningCheck.objects.filter(occasion=occasion).select_related(
            "confirmed_by", "attested_by__entry__person"
        )
    }
    return [ChecklistRow(item, checks.get(item.code)) for item in CHECKLIST]


def equipment_in_use(occasion: Occasion) -> list[Equipment]:
    """Equipment registered and not retired on the occasion's day."""
    return list(
        Equipment.objects.filter(organization=occasion.organization)
        .filter(Q(retired_on__isnull=True) | Q(retired_on__gt=occasion.date))
        .select_related("lease_authorization")
    )


def opening_facts(occasion: Occasion, at: dt.datetime) -> OpeningFacts:
    """The checklist as confirmed by ``at`` and the records as they stand then."""
    not_held: list[str] = []
    out_of_repair: list[str] = []
    equipment = equipment_in_use(occasion)
    for piece in equipment:
        for v in check_equipment_usable(equipment=piece, on=occasion.date).violations:
            text = f"{v.message} ({v.citation.removeprefix('961 CMR ')})"
            (out_of_repair if v.citation == REPAIR_CITATION else not_held).append(text)
    present_then = (
        presences(occasion)
        .filter(signed_in_at__lte=at)
        .filter(Q(signed_out_at__isnull=True) | Q(signed_out_at__gt=at))
    )
    return OpeningFacts(
        confirmed=tuple(
            OpeningCheck.objects.filter(occasion=occasion, confirmed_at__lte=at)
            .order_by("item")
            .values_list("item", flat=True)
        ),
        member_in_charge_present=present_then.filter(role=WorkerRole.MEMBER_IN_CHARGE).exists(),
        price_list_posted=occasion.price_items.exists(),
        equipment_count=len(equipment),
        equipment_not_held=tuple(not_held),
        equipment_out_of_repair=tuple(out_of_repair),
    )


def hours_facts(occasion: Occasion, at: dt.datetime) -> HoursFacts:
    return HoursFacts(
        at=timezone.localtime(at).time().replace(microsecond=0),
        license_start=occasion.license.start_time,
        license_end=occasion.license.end_time,
    )


def worker_list_facts(occasion: Occasion) -> WorkerListFacts:
    """The year's list as it stands on the day: a member in charge and a person responsible for
    gross receipts must be designated (961 CMR 3.04(1)(a), (e))."""
    roles = [e.roles for e in list_entries(occasion)]
    return WorkerListFacts(
        year=occasion.date.year,
        member_in_charge_count=sum(1 for r in roles if WorkerRole.MEMBER_IN_CHARGE in r),
        gross_receipts_count=sum(1 for r in roles if WorkerRole.GROSS_RECEIPTS in r),
    )


def open_facts(occasion: Occasion, at: dt.datetime) -> list[object]:
    """Every kind of facts the rules guarding ``occasion.open`` read."""
    return [
        opening_facts(occasion, at),
        hours_facts(occasion, at),
        worker_list_facts(occasion),
        resumption_facts(occasion.organization, occasion.date),
    ]


def opening_decision(occasion: Occasion, at: dt.datetime, by: Any = None) -> rules.Decision:
    """What the rules would say to opening at ``at``, for the page: judged, not logged. With
    ``by`` (the one at the laptop), whether they may open it at all: a worker of the night,
    signed in on its floor (3.04(1)(b)), first."""
    decision = rules.judge(
        OPEN,
        open_facts(occasion, at),
        on=occasion.date,
        authorizations=org_selectors.authorization_facts(occasion.organization),
        require_all=True,
    )
    if by is not None:
        from occasions import on_floor

        doer = on_floor.facts(occasion, by, at, doing="opening the occasion")
        decision.violations[:0] = rules.judge(FLOOR_ACT, doer, on=occasion.date).violations
    return decision


def bookkeeper_facts(occasion: Occasion) -> list[BookkeeperPresenceFacts]:
    """Each compensated bookkeeper or accountant on the list that day, and whether they had a
    presence at the occasion (961 CMR 3.04(1)(g))."""
    present = set(
        WorkerPresence.objects.filter(occasion=occasion).values_list("entry_id", flat=True)
    )
    return [
        BookkeeperPresenceFacts(
            person_id=e.person_id,
            name=e.person.legal_name,
            compensated=True,
            present=e.pk in present,
        )
        for e in list_entries(occasion)
        if e.compensated and COMPENSABLE_ROLES.intersection(e.roles)
    ]


def bookkeeper_review(occasion: Occasion) -> list[tuple[BookkeeperPresenceFacts, rules.Decision]]:
    """Each compensated bookkeeper or accountant with what the rules say of their presence, for
    the close page: judged, not logged."""
    authorizations = org_selectors.authorization_facts(occasion.organization)
    return [
        (facts, rules.judge(CLOSE, facts, on=occasion.date, authorizations=authorizations))
        for facts in bookkeeper_facts(occasion)
    ]


def on_floor_at(presence: WorkerPresence, moment: dt.datetime) -> bool:
    """Was the worker signed in on the floor at ``moment``?"""
    return presence.signed_in_at <= moment and (
        presence.signed_out_at is None or presence.signed_out_at >= moment
    )


def worker_of_the_night(occasion: Occasion, presence: WorkerPresence | None) -> WorkerPresence:
    """``presence`` as one of this occasion's sign-ins, or a refusal naming the field."""
    found = (
        WorkerPresence.objects.select_related("entry__person")
        .filter(occasion=occasion, pk=getattr(presence, "pk", None))
        .first()
    )
    if found is None:
        from django.core.exceptions import ValidationError

        raise ValidationError("Choose a worker signed in at this occasion, as the sheet is signed.")
    return found


#: The occasion's own records, how they reach it, and the moments they state.
_OWN_MOMENTS: tuple[tuple[type, str, tuple[str, ...]], ...] = (
    (WorkerPresence, "occasion", ("signed_in_at", "signed_out_at")),
    (Handover, "occasion", ("at",)),
    (Sale, "occasion", ("sold_at", "voided_at")),
    (AttendanceAnnouncement, "occasion", ("announced_at",)),
    (VaryingPrizesAnnouncement, "occasion", ("announced_at",)),
    (Refund, "occasion", ("refunded_at",)),
    (DoorPrize, "occasion", ("awarded_at",)),
    (Gift, "occasion", ("given_at",)),
    (CharityTicketSale, "occasion", ("sold_at",)),
    (OtherSale, "occasion", ("sold_at",)),
    (RaffleTicketSale, "raffle__occasion", ("sold_at",)),
    (Raffle, "occasion", ("drawn_at",)),
)


def last_recorded_act(occasion: Occasion) -> dt.datetime | None:
    """The latest moment any record of the night states: a close stated after the fact cannot
    come before it (the night had not ended while its acts were still being recorded)."""
    moments = [occasion.opened_at, occasion.play_started_at, occasion.second_half_started_at]
    for model, path, fields in _OWN_MOMENTS:
        found = model.objects.filter(**{path: occasion}).aggregate(
            **{name: Max(name) for name in fields}
        )
        moments += found.values()
    moments += [read(occasion) for read in extensions.LAST_ACT_READERS]
    return max((m for m in moments if m is not None), default=None)

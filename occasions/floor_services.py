"""Writes on the floor of an occasion: the opening checklist, workers signing in and out, the
handover of charge, opening and closing. Each runs in ``rules.atomic()``: it locks the occasion,
gathers the facts, has the rules judge them, saves, and writes its audit event. Once an occasion
is closed none of them changes it.

``at`` is the moment the act happened; it defaults to now and lets a past night be recorded
(the demo does). It is never in the future and always on the occasion's day."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules.charge import HandoverFacts, SignOutFacts
from beano.rules.close import CLOSE_PRIZES, PrizesOwedFacts
from beano.rules.opening import ITEMS, OPEN
from beano.rules.workers import HAND_OVER, SIGN_IN, SIGN_OUT, SignInFacts, WorkerRole
from beano.text import one_line
from occasions import extensions, live, moments, on_floor
from occasions import floor_selectors as floor
from occasions.floor_selectors import CLOSE
from occasions.models import Handover, Occasion, OpeningCheck, WorkerPresence
from occasions.services import enforce_all, enforce_at, lock_occasion, moment_of, open_at, status_at
from organizations.audit import acting_user, provenance, record_event
from organizations.models import WorkerListEntry
from organizations.worker_services import worker_facts

REASON_LENGTH = 200


def _locked(
    occasion: Occasion,
    *statuses: str,
    doing: str,
    at: moments.At = None,
    by: Actor = None,
    now_in: bool = False,
) -> tuple[Occasion, dt.datetime]:
    """Lock the occasion, take the act's moment and check the occasion stood in one of
    ``statuses`` then (now, for a live act) for ``doing``; ``now_in`` checks the status it is in
    now instead (opening and closing move it from one to the next)."""
    occasion = lock_occasion(occasion, related=("organization", "license"))
    moment = moment_of(occasion, at, by=by, act=doing)
    status = occasion.status if now_in else status_at(occasion, moment)
    if status not in statuses:
        label = Occasion.Status(status).label.lower()
        raise ValidationError(f"This occasion is {label}: {doing} is not possible.")
    return occasion, moment


def _item(item: str) -> str:
    if item not in ITEMS:
        raise ValidationError({"item": "That is not an item of the opening checklist."})
    return item


@rules.atomic()
def confirm_check(
    *,
    occasion: Occasion,
    item: str,
    by: Actor,
    at: moments.At = None,
    attested_by: WorkerPresence | None = None,
) -> OpeningCheck:
    """The member in charge confirms one item of the opening checklist, before opening. From
    paper, ``attested_by`` is the night's member in charge whose signature is on the sheet: the
    rules judge that they were on the floor at the time written there, as a live login is."""
    occasion, moment = _locked(
        occasion, Occasion.Status.SCHEDULED, doing="confirming the checklist", at=at, by=by
    )
    item = _item(item)
    if attested_by is not None and (
        moments.paper_of(at) is None
        or attested_by.occasion_id != occasion.pk
        or attested_by.role != WorkerRole.MEMBER_IN_CHARGE
    ):
        raise ValidationError(
            {"attested_by": "The checklist is attested by a member in charge of this night."}
        )
    existing = OpeningCheck.objects.filter(occasion=occasion, item=item).first()
    if existing is not None:
        return existing
    on_floor.require(occasion, by, moment, doing="confirming the checklist", worker=attested_by)
    check = OpeningCheck.objects.create(
        occasion=occasion,
        item=item,
        confirmed_at=moment,
        confirmed_by=acting_user(by),
        attested_by=attested_by,
    )
    new: dict[str, Any] = {"item": item, "citation": ITEMS[item].citation, "confirmed_at": moment}
    if attested_by is not None:
        new["attested_by"] = attested_by.entry.person.legal_name
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.opening_check.confirmed",
        target=check,
        new=new,
    )
    return check


@rules.atomic()
def unconfirm_check(*, occasion: Occasion, item: str, by: Actor) -> None:
    """Withdraw a confirmation, before opening."""
    occasion, moment = _locked(occasion, Occasion.Status.SCHEDULED, doing="changing the checklist")
    on_floor.require(occasion, by, moment, doing="changing the checklist")
    item = _item(item)
    check = OpeningCheck.objects.filter(occasion=occasion, item=item).first()
    if check is None:
        return
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.opening_check.withdrawn",
        target=check,
        old={"item": item, "confirmed_at": check.confirmed_at},
    )
    check.delete()


@rules.atomic()
def sign_in_worker(
    *,
    occasion: Occasion,
    entry: WorkerListEntry,
    role: str,
    identification: str,
    by: Actor,
    at: moments.At = None,
) -> WorkerPresence:
    """Sign in a person of the worker list, in one of the roles it gives them, showing the
    identification it records. Judged on the occasion's day by the same rules as the list
    (961 CMR 3.04(1)(a)-(i), (2)), and refused for anyone not on the list that day ((1)(b))."""
    occasion, moment = _locked(
        occasion, Occasion.Status.SCHEDULED, Occasion.Status.OPEN, doing="signing in", at=at, by=by
    )
    if role not in WorkerRole.values:
        raise ValidationError({"role": "Choose a worker role."})
    entry = WorkerListEntry.objects.select_related("person", "worker_list").get(pk=entry.pk)
    person = entry.person
    if occasion.presences.present().filter(entry__person=person).exists():
        raise ValidationError(f"{person.legal_name} is already signed in.")
    displayed = one_line(identification)[:60]
    facts = [
        SignInFacts(
            name=person.legal_name,
            year=occasion.date.year,
            on_list=floor.on_list_that_day(entry, occasion),
            role=role,
            listed_roles=tuple(entry.roles),
            identification_displayed=displayed,
            identification_listed=entry.identification,
            compensated=entry.compensated,
        ),
        worker_facts(
            organization=occasion.organization,
            person=person,
            year=occasion.date.year,
            on=occasion.date,
            roles=entry.roles,
            identification=entry.identification,
            compensated=entry.compensated,
            good_moral_character_attested=entry.good_moral_character_attested,
        ),
    ]
    decision = enforce_at(SIGN_IN, facts, occasion, by)
    on_floor.require(occasion, by, moment, doing="signing a worker in", person_id=person.pk)
    presence = WorkerPresence(
        occasion=occasion,
        entry=entry,
        role=role,
        identification=displayed,
        signed_in_at=moment,
        signed_in_by=acting_user(by),
    )
    presence.full_clean()
    presence.save()
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.worker.signed_in",
        target=presence,
        new={
            "person_name": person.legal_name,
            "role": role,
            "identification": displayed,
            "signed_in_at": moment,
            "waived_by": [w.reference for w in decision.waivers],
        },
    )
    return presence


def _sign_out(presence: WorkerPresence, moment: dt.datetime, by: Actor, *, why: str) -> None:
    presence.signed_out_at = moment
    presence.signed_out_by = acting_user(by)
    presence.save(update_fields=["signed_out_at", "signed_out_by"])
    record_event(
        organization=presence.occasion.organization,
        actor=by,
        action="occasions.worker.signed_out",
        target=presence,
        old={"signed_out_at": None},
        new={"signed_out_at": moment, "why": why},
    )


@rules.atomic()
def sign_out_worker(
    *, presence: WorkerPresence, by: Actor, at: moments.At = None
) -> WorkerPresence:
    """A worker leaves. While the occasion is open, the worker in charge leaves only after
    handing over to a qualified designee who is present (961 CMR 3.04(1)(a))."""
    occasion, moment = _locked(
        presence.occasion,
        Occasion.Status.SCHEDULED,
        Occasion.Status.OPEN,
        doing="signing out",
        at=at,
        by=by,
    )
    presence = (
        locking.lock(WorkerPresence.objects)
        .select_related("entry__person", "occasion__organization")
        .get(pk=presence.pk)
    )
    if not presence.is_present:
        raise ValidationError(f"{presence.entry.person.legal_name} is already signed out.")
    if moment < presence.signed_in_at:
        raise ValidationError("A worker cannot sign out before signing in.")
    current = floor.in_charge(occasion)
    facts = SignOutFacts(
        name=presence.entry.person.legal_name,
        occasion_open=open_at(occasion, moment),
        in_charge=current is not None and current.pk == presence.pk,
        designees_present=occasion.presences.present()
        .filter(role=WorkerRole.MEMBER_IN_CHARGE)
        .exclude(pk=presence.pk)
        .count(),
    )
    enforce_at(SIGN_OUT, facts, occasion, by)
    person_id = presence.entry.person_id
    on_floor.require(occasion, by, moment, doing="signing a worker out", person_id=person_id)
    _sign_out(presence, moment, by, why="left")
    return presence


@rules.atomic()
def hand_over(
    *,
    occasion: Occasion,
    to_presence: WorkerPresence,
    reason: str,
    by: Actor,
    at: moments.At = None,
) -> Handover:
    """The worker in charge hands charge of the open occasion to a qualified designee who is
    present: a worker signed in as member in charge (961 CMR 3.04(1)(a))."""
    occasion, moment = _locked(occasion, Occasion.Status.OPEN, doing="handing over", at=at, by=by)
    reason = one_line(reason)
    if not reason:
        raise ValidationError({"reason": "Say why charge is handed over."})
    to_presence = (
        WorkerPresence.objects.select_related("entry__person")
        .filter(occasion=occasion, pk=to_presence.pk)
        .first()
    )
    if to_presence is None:
        raise ValidationError("That worker is not signed in at this occasion.")
    current = floor.in_charge(occasion)
    if current is None:
        raise ValidationError("No one is in charge to hand over.")
    if current.pk == to_presence.pk:
        raise ValidationError(f"{to_presence.entry.person.legal_name} is already in charge.")
    last = floor.handovers(occasion).order_by("-at", "-pk").first()
    earliest = max(
        t for t in (occasion.opened_at, last.at if last else None, to_presence.signed_in_at) if t
    )
    if moment < earliest:
        raise ValidationError("A handover cannot be recorded before the last change of charge.")
    enforce_at(
        HAND_OVER,
        HandoverFacts(
            name=to_presence.entry.person.legal_name,
            role=to_presence.role,
            present=to_presence.is_present,
        ),
        occasion,
        by,
    )
    on_floor.require(occasion, by, moment, doing="handing over charge")
    handover = Handover.objects.create(
        occasion=occasion,
        from_presence=current,
        to_presence=to_presence,
        at=moment,
        reason=reason[:REASON_LENGTH],
        recorded_by=acting_user(by),
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.handover.recorded",
        target=handover,
        new={
            "from": current.entry.person.legal_name,
            "to": to_presence.entry.person.legal_name,
            "at": moment,
            "reason": handover.reason,
        },
    )
    return handover


@rules.atomic()
def open_occasion(*, occasion: Occasion, by: Actor, at: moments.At = None) -> Occasion:
    """Open the occasion: every checklist item confirmed with the records in order, within the
    hours in force (961 CMR 3.04(7)), a member in charge and the person for gross receipts
    designated ((1)(a), (e)), and the notice sent after two occasions not played (3.05(1)(b))."""
    occasion, moment = _locked(
        occasion, Occasion.Status.SCHEDULED, doing="opening", at=at, by=by, now_in=True
    )
    enforce_at(OPEN, floor.open_facts(occasion, moment), occasion, by)
    on_floor.require(occasion, by, moment, doing="opening the occasion")
    occasion.status = Occasion.Status.OPEN
    occasion.opened_at = moment
    occasion.opened_by = acting_user(by)
    occasion.save(update_fields=["status", "opened_at", "opened_by"])
    live.changed(occasion.pk)
    current = floor.in_charge(occasion)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.occasion.opened",
        target=occasion,
        old={"status": Occasion.Status.SCHEDULED},
        new={
            "status": occasion.status,
            "opened_at": moment,
            "in_charge": current.entry.person.legal_name if current else "",
        },
    )
    return occasion


def closed_late(occasion: Occasion, by: Actor, at: moments.At = None) -> bool:
    """Whether a person records the close now, after the occasion's night (its day, or the
    morning after): a forgotten close, recorded with the time the night ended and why. A night
    entered from its control sheets is not one (its close is on the sheet, and its paper record
    says why it was entered afterwards), nor the system's record of a past night (the demo's)."""
    return (
        acting_user(by) is not None
        and moments.paper_of(at) is None
        and not occasion.records_on(timezone.localdate())
    )


def late_close_provenance(reason: str, by: Actor) -> dict[str, Any]:
    """The provenance of the events of a close recorded after the fact (the close itself, the
    sign-outs, and the games finished for it)."""
    user = acting_user(by)
    return {
        "entered": "after the fact",
        "closed_late": True,
        "reason": reason,
        "entered_by": user.get_username() if user else "system",
        "entered_at": timezone.now(),
    }


def late_close_reason(occasion: Occasion, at: moments.At, reason: str) -> str:
    """A late close's reason, in one line, once the time the night ended is given too."""
    if moments.stated(at) is None:
        raise ValidationError(
            f"The night of {occasion.date:%A, %B %-d} has passed: give the time the night ended."
        )
    reason = one_line(reason)
    if not reason:
        raise ValidationError({"late_reason": "Say why the close is recorded after the night."})
    if len(reason) > REASON_LENGTH:
        raise ValidationError({"late_reason": f"At most {REASON_LENGTH} characters."})
    return reason


def close_checks(occasion: Occasion) -> list[tuple[str, Any]]:
    """What the rules judge at the close: the winners still owed, whom the apps above name
    (961 CMR 3.04(6)(f)), and each compensated bookkeeper's presence (3.04(1)(g))."""
    owed = PrizesOwedFacts(extensions.prizes_owed(occasion))
    return [(CLOSE_PRIZES, owed)] + [(CLOSE, f) for f in floor.bookkeeper_facts(occasion)]


@rules.atomic()
def close_occasion(
    *, occasion: Occasion, by: Actor, at: moments.At = None, late_reason: str = ""
) -> Occasion:
    """Close the open occasion: no game in play, every winner paid (961 CMR 3.04(6)(f)), every
    compensated bookkeeper or accountant present (3.04(1)(g)); everyone still present is signed
    out.

    A close forgotten on the night and recorded on a later day states when the night ended
    (``at``, on its day or the morning after, not before its last recorded act) and why it is
    recorded late (``late_reason``): both are kept and shown to the inspector, and its events
    say they were entered after the fact."""
    if not closed_late(occasion, by, at):
        return _close(occasion, by, at, "")
    reason = late_close_reason(occasion, at, late_reason)
    with provenance(late_close_provenance(reason, by)):
        return _close(occasion, by, at, reason)


def _close(occasion: Occasion, by: Actor, at: moments.At, late_reason: str) -> Occasion:
    occasion, moment = _locked(
        occasion, Occasion.Status.OPEN, doing="closing", at=at, by=by, now_in=True
    )
    latest = floor.last_recorded_act(occasion)
    if latest is not None and moment < latest:
        raise ValidationError(
            "The occasion cannot close before its last recorded act "
            f"({timezone.localtime(latest):%-I:%M %p})."
        )
    # The apps above (the games: one still in play) say why the night cannot close yet.
    reason = extensions.why_not_close(occasion)
    if reason:
        raise ValidationError(reason)
    enforce_all(close_checks(occasion), occasion, by)
    # A close recorded late is entered after the night (its provenance says so): as from a
    # sheet naming no one, a worker of the night was on the floor when it ended.
    on_floor.require(occasion, by, moment, doing="closing the occasion")
    still_present = list(
        occasion.presences.present().select_related("entry__person", "occasion__organization")
    )
    for presence in still_present:
        _sign_out(presence, moment, by, why="occasion closed")
    old: dict[str, Any] = {"status": Occasion.Status.OPEN}
    occasion.status = Occasion.Status.CLOSED
    occasion.closed_at = moment
    occasion.closed_by = acting_user(by)
    fields = ["status", "closed_at", "closed_by"]
    if late_reason:
        old |= {"closed_at": None, "close_reason": occasion.close_reason}
        occasion.close_reason = late_reason
        occasion.close_recorded_at = timezone.now()
        fields += ["close_reason", "close_recorded_at"]
    occasion.save(update_fields=fields)
    live.changed(occasion.pk)
    new: dict[str, Any] = {"status": occasion.status, "closed_at": moment}
    if late_reason:
        new |= {"close_reason": late_reason, "close_recorded_at": occasion.close_recorded_at}
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.occasion.closed",
        target=occasion,
        old=old,
        new=new | {"signed_out": [p.entry.person.legal_name for p in still_present]},
    )
    extensions.closed(occasion)  # the apps above keep what they total, in this transaction
    return occasion

"""Writes to worker lists (961 CMR 3.04(1)(b)) and convictions (3.04(1)(i)). Each write runs in
``rules.atomic()``: it locks what it changes, gathers the facts, has the rules judge them, saves,
and writes its audit event; a refusal rolls back and is recorded by the rules service."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError

from beano import locking, rules
from beano.actors import Actor
from beano.rules.workers import (
    ADD,
    UPDATE,
    ConvictionFact,
    ListMade,
    MembershipFact,
    WorkerFacts,
)
from beano.text import one_line
from organizations import extensions, selectors
from organizations.audit import changed, record_event, snapshot
from organizations.models import (
    Conviction,
    DirectorAuthorization,
    Membership,
    Organization,
    Person,
    WorkerList,
    WorkerListEntry,
)

ENTRY_FIELDS = (
    "roles",
    "identification",
    "compensated",
    "compensation_note",
    "good_moral_character_attested",
    "attested_by",
    "attested_on",
    "added_on",
    "removed_on",
)


def judging_date(year: int, today: dt.date) -> dt.date:
    """The day a list of ``year`` is judged on: today during that year, else the nearest day of
    the year (its last day for a past year, its first for a coming one)."""
    if today.year == year:
        return today
    return dt.date(year, 12, 31) if today.year > year else dt.date(year, 1, 1)


def membership_fact(membership: Membership | None, on: dt.date) -> MembershipFact | None:
    """The person's standing with the organization as the rules see it, with, for an immediate
    family member, whether their member is in good standing on ``on`` (961 CMR 3.04(1)(b))."""
    if membership is None:
        return None
    family_ok = None
    if membership.kind == Membership.Kind.FAMILY:
        member = membership.family_of
        family_ok = (
            member is not None
            and member.kind in (Membership.Kind.MEMBER, Membership.Kind.AUXILIARY)
            and member.in_good_standing_on(on)
        )
    return MembershipFact(
        kind=membership.kind,
        since=membership.since,
        until=membership.until,
        family_of_in_good_standing=family_ok,
    )


def lists_made(person_ids: Iterable[int], year: int) -> dict[int, list[ListMade]]:
    """For each person, the distinct organizations whose worker list for the calendar ``year``
    has had them on it, across every organization in the system (3.04(1)(c)), in the order the
    person was put on them (the day added, then the order recorded), with the organization's
    name and that day (one query). Someone taken off a list in June still assisted that
    organization that year, so removal frees no place."""
    out: dict[int, list[ListMade]] = {}
    rows = (
        WorkerListEntry.objects.filter(person_id__in=list(person_ids), worker_list__year=year)
        .order_by("added_on", "pk")
        .values_list(
            "person_id",
            "worker_list__organization_id",
            "worker_list__organization__name",
            "added_on",
        )
    )
    for person_id, organization_id, name, added_on in rows:
        made = out.setdefault(person_id, [])
        if all(m.organization_id != organization_id for m in made):
            made.append(ListMade(organization_id, name, added_on))
    return out


def place_on_lists(organization_ids: Sequence[int], organization_id: int) -> tuple[int, ...]:
    """The person's lists of the year in the order they were made, this organization's included
    (last, when it is only now being made): 3.04(1)(c) makes the first four lawful as made."""
    ordered = list(organization_ids)
    if organization_id not in ordered:
        ordered.append(organization_id)
    return tuple(ordered)


def convictions_of(person_ids: Iterable[int]) -> dict[int, tuple[ConvictionFact, ...]]:
    out: dict[int, list[ConvictionFact]] = {}
    for c in Conviction.objects.filter(person_id__in=list(person_ids)):
        out.setdefault(c.person_id, []).append(ConvictionFact(c.convicted_on, c.traffic_only))
    return {k: tuple(v) for k, v in out.items()}


def _membership(organization: Organization, person: Person) -> Membership | None:
    return (
        Membership.objects.filter(organization=organization, person=person)
        .select_related("family_of")
        .first()
    )


def build_worker_facts(
    *,
    person: Person,
    membership: Membership | None,
    lists: Sequence[ListMade],
    organization_id: int,
    convictions: Sequence[ConvictionFact],
    roles: Sequence[str],
    identification: str,
    compensated: bool,
    good_moral_character_attested: bool,
    on: dt.date,
) -> WorkerFacts:
    """The facts for one person on one organization's list, from rows already loaded."""
    return WorkerFacts(
        person_id=person.pk,
        name=person.legal_name,
        date_of_birth=person.date_of_birth,
        on=on,
        roles=tuple(roles),
        membership=membership_fact(membership, on),
        supplier_connected=person.supplier_connected,
        organizations_this_year=place_on_lists([m.organization_id for m in lists], organization_id),
        organization_id=organization_id,
        lists_made=tuple(lists),
        compensated=compensated,
        good_moral_character_attested=good_moral_character_attested,
        convictions=tuple(convictions),
        identification=identification,
    )


def worker_facts(
    *,
    organization: Organization,
    person: Person,
    year: int,
    on: dt.date,
    roles: Sequence[str],
    identification: str = "",
    compensated: bool = False,
    good_moral_character_attested: bool = False,
) -> WorkerFacts:
    """The facts for ``person`` on ``organization``'s list of ``year``, judged on ``on``: their
    membership in this organization, their convictions, and the organizations whose lists of
    that calendar year they are on, this one included."""
    return build_worker_facts(
        person=person,
        membership=_membership(organization, person),
        lists=lists_made([person.pk], year).get(person.pk, []),
        organization_id=organization.pk,
        convictions=convictions_of([person.pk]).get(person.pk, ()),
        roles=roles,
        identification=identification,
        compensated=compensated,
        good_moral_character_attested=good_moral_character_attested,
        on=on,
    )


def entry_facts(entry: WorkerListEntry, on: dt.date) -> WorkerFacts:
    """The facts of a saved entry, judged on ``on``."""
    return worker_facts(
        organization=entry.worker_list.organization,
        person=entry.person,
        year=entry.worker_list.year,
        on=on,
        roles=entry.roles,
        identification=entry.identification,
        compensated=entry.compensated,
        good_moral_character_attested=entry.good_moral_character_attested,
    )


def _audit_values(entry: WorkerListEntry) -> dict[str, Any]:
    return snapshot(entry, ENTRY_FIELDS) | {
        "authorizations": sorted(entry.authorizations.values_list("reference_number", flat=True))
    }


def _judge_and_record_waivers(
    action: str, entry: WorkerListEntry, facts: WorkerFacts, on: dt.date, by: Actor
) -> None:
    organization = entry.worker_list.organization
    entry.full_clean()  # the roles are valid before the rules read them
    decision = rules.enforce(
        action,
        facts,
        on=on,
        actor=by,
        organization=organization,
        authorizations=selectors.authorization_facts(organization),
    )
    entry.save()
    entry.authorizations.set(
        DirectorAuthorization.objects.filter(
            organization=organization, pk__in=decision.authorization_pks
        )
    )


@rules.atomic()
def add_to_worker_list(
    *,
    organization: Organization,
    year: int,
    person: Person,
    roles: Sequence[str],
    identification: str,
    compensated: bool,
    compensation_note: str,
    good_moral_character_attested: bool,
    attested_by: str,
    on: dt.date,
    by: Actor,
    attested_on: dt.date | None = None,
) -> WorkerListEntry:
    """Put a person on the organization's worker list for ``year`` from ``on`` (a day of that
    year). A person removed earlier in the year is put back on the same entry."""
    if on.year != year:
        raise ValidationError({"added_on": f"The day added must fall in {year}."})
    # The person's row is the lock for (1)(c): two organizations adding the same person at once
    # count one after the other.
    person = locking.lock(Person.objects).get(pk=person.pk)
    WorkerList.objects.get_or_create(organization=organization, year=year)
    worker_list = locking.lock(WorkerList.objects).get(organization=organization, year=year)
    entry = (
        locking.lock(WorkerListEntry.objects).filter(worker_list=worker_list, person=person).first()
    )
    if entry is not None and entry.is_active:
        raise ValidationError(f"{person} is already on the {year} worker list.")
    before = _audit_values(entry) if entry is not None else {}
    entry = entry or WorkerListEntry(worker_list=worker_list, person=person)
    entry.roles = list(roles)
    entry.identification = identification.strip()
    entry.compensated = compensated
    entry.compensation_note = one_line(compensation_note)
    entry.good_moral_character_attested = good_moral_character_attested
    entry.attested_by = one_line(attested_by) if good_moral_character_attested else ""
    entry.attested_on = (attested_on or on) if good_moral_character_attested else None
    entry.added_on = on
    entry.removed_on = None
    facts = worker_facts(
        organization=organization,
        person=person,
        year=year,
        on=on,
        roles=entry.roles,
        identification=entry.identification,
        compensated=compensated,
        good_moral_character_attested=good_moral_character_attested,
    )
    _judge_and_record_waivers(ADD, entry, facts, on, by)
    old, new = changed(before, _audit_values(entry))
    record_event(
        organization=organization,
        actor=by,
        action="organizations.worker_list.readded" if before else "organizations.worker_list.added",
        target=entry,
        old=old,
        new=new | {"person_name": person.legal_name, "year": year},
    )
    extensions.listed(entry)  # the winners matched against the lists, kept above
    return entry


@rules.atomic()
def update_worker_list_entry(
    *,
    entry: WorkerListEntry,
    roles: Sequence[str],
    identification: str,
    compensated: bool,
    compensation_note: str,
    good_moral_character_attested: bool,
    attested_by: str,
    on: dt.date,
    by: Actor,
    attested_on: dt.date | None = None,
) -> WorkerListEntry:
    """Change a person's roles, identification, compensation or attestation, judged on ``on``."""
    entry = (
        locking.lock(WorkerListEntry.objects)
        .select_related("worker_list__organization", "person")
        .get(pk=entry.pk)
    )
    if not entry.is_active:
        raise ValidationError(f"{entry.person} was removed from the list; add them again.")
    before = _audit_values(entry)
    entry.roles = list(roles)
    entry.identification = identification.strip()
    entry.compensated = compensated
    entry.compensation_note = one_line(compensation_note)
    if good_moral_character_attested:
        newly = not entry.good_moral_character_attested
        entry.attested_by = one_line(attested_by)
        entry.attested_on = attested_on or (on if newly else entry.attested_on or on)
    else:
        entry.attested_by, entry.attested_on = "", None
    entry.good_moral_character_attested = good_moral_character_attested
    _judge_and_record_waivers(UPDATE, entry, entry_facts(entry, on), on, by)
    old, new = changed(before, _audit_values(entry))
    if new:
        record_event(
            organization=entry.worker_list.organization,
            actor=by,
            action="organizations.worker_list.updated",
            target=entry,
            old=old,
            new=new,
        )
    return entry


@rules.atomic()
def remove_from_worker_list(*, entry: WorkerListEntry, on: dt.date, by: Actor) -> WorkerListEntry:
    """Take a person off the list from ``on``: from that day they may not conduct or assist
    (961 CMR 3.04(1)(b)). The entry stays, so the list's history stays readable."""
    entry = (
        locking.lock(WorkerListEntry.objects)
        .select_related("worker_list__organization", "person")
        .get(pk=entry.pk)
    )
    if not entry.is_active:
        raise ValidationError(f"{entry.person} is already off the list.")
    if on < entry.added_on:
        raise ValidationError({"removed_on": "A person cannot leave before being added."})
    if on.year != entry.worker_list.year:
        raise ValidationError({"removed_on": f"The day must fall in {entry.worker_list.year}."})
    entry.removed_on = on
    entry.full_clean()
    entry.save(update_fields=["removed_on"])
    record_event(
        organization=entry.worker_list.organization,
        actor=by,
        action="organizations.worker_list.removed",
        target=entry,
        old={"removed_on": None},
        new={"removed_on": on.isoformat()},
    )
    return entry


@rules.atomic()
def record_conviction(
    *,
    organization: Organization,
    person: Person,
    convicted_on: dt.date,
    traffic_only: bool,
    description: str,
    today: dt.date,
    by: Actor,
) -> Conviction:
    """Record a conviction of one of the organization's people, which bars them from calling or
    assisting the caller for five years unless it was a traffic violation (3.04(1)(i))."""
    if not Membership.objects.filter(organization=organization, person=person).exists():
        raise ValidationError({"person": "This person is not on the organization's lists."})
    if convicted_on > today:
        raise ValidationError({"convicted_on": "A conviction date cannot be in the future."})
    conviction = Conviction(
        person=person,
        convicted_on=convicted_on,
        traffic_only=traffic_only,
        description=one_line(description),
        recorded_by_organization=organization,
    )
    conviction.full_clean()
    conviction.save()
    record_event(
        organization=organization,
        actor=by,
        action="organizations.conviction.recorded",
        target=conviction,
        new=snapshot(conviction, ("person", "convicted_on", "traffic_only", "description"))
        | {"person_name": person.legal_name},
    )
    return conviction

"""Reads for the worker list pages: the list of a year, judged by the rules, so the page can warn
of what is missing (3.04(1)(a), (e)) and flag people who are no longer eligible."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Prefetch, QuerySet

from beano import rules
from beano.rules import Decision, Violation
from beano.rules.workers import REVIEW, UPDATE, WorkerListFacts, WorkerRole
from organizations import selectors
from organizations.models import (
    DirectorAuthorization,
    Membership,
    Organization,
    WorkerList,
    WorkerListEntry,
)
from organizations.worker_services import (
    build_worker_facts,
    convictions_of,
    judging_date,
    lists_made,
)


@dataclass(frozen=True)
class EntryReview:
    entry: WorkerListEntry
    membership: Membership | None
    organization_count: int
    decision: Decision | None  # None for a person already removed from the list

    @property
    def eligible(self) -> bool:
        return self.decision is None or self.decision.allowed

    @property
    def problems(self) -> list[Violation]:
        return list(self.decision.violations) if self.decision else []


@dataclass(frozen=True)
class WorkerListReview:
    organization: Organization
    year: int
    judged_on: dt.date
    worker_list: WorkerList | None
    active: list[EntryReview] = field(default_factory=list)
    removed: list[EntryReview] = field(default_factory=list)
    warnings: list[Violation] = field(default_factory=list)

    @property
    def ineligible_count(self) -> int:
        return sum(1 for r in self.active if not r.eligible)


def entries(organization: Organization, year: int) -> QuerySet[WorkerListEntry]:
    return (
        WorkerListEntry.objects.filter(
            worker_list__organization=organization, worker_list__year=year
        )
        .select_related("person", "worker_list")
        .prefetch_related(
            Prefetch(
                "authorizations",
                queryset=DirectorAuthorization.objects.order_by("reference_number"),
            )
        )
        .order_by("person__legal_name")
    )


def list_years(organization: Organization, today: dt.date) -> list[int]:
    """The years with a list, and this year and the next, newest first."""
    years = set(WorkerList.objects.filter(organization=organization).values_list("year", flat=True))
    return sorted(years | {today.year, today.year + 1}, reverse=True)


def worker_list_review(
    organization: Organization, year: int, *, today: dt.date
) -> WorkerListReview:
    """The list of ``year`` with every active entry judged again on ``today`` (or the nearest day
    of that year), and the list's own warnings: no member in charge, no one for gross receipts."""
    on = judging_date(year, today)
    limits = rules.limits_in_force(on)
    rows = list(entries(organization, year))
    person_ids = [e.person_id for e in rows]
    memberships = {
        m.person_id: m
        for m in Membership.objects.filter(
            organization=organization, person_id__in=person_ids
        ).select_related("family_of")
    }
    on_lists = lists_made(person_ids, year)
    convictions = convictions_of(person_ids)
    authorizations = selectors.authorization_facts(organization)
    active: list[EntryReview] = []
    removed: list[EntryReview] = []
    for entry in rows:
        made = on_lists.get(entry.person_id, [])
        if not entry.is_active:
            removed.append(EntryReview(entry, memberships.get(entry.person_id), 0, None))
            continue
        facts = build_worker_facts(
            person=entry.person,
            membership=memberships.get(entry.person_id),
            lists=made,
            organization_id=organization.pk,
            convictions=convictions.get(entry.person_id, ()),
            roles=entry.roles,
            identification=entry.identification,
            compensated=entry.compensated,
            good_moral_character_attested=entry.good_moral_character_attested,
            on=on,
        )
        decision = rules.judge(UPDATE, facts, on=on, authorizations=authorizations, limits=limits)
        active.append(
            EntryReview(
                entry,
                memberships.get(entry.person_id),
                len(facts.organizations_this_year),
                decision,
            )
        )
    list_facts = WorkerListFacts(
        year=year,
        member_in_charge_count=sum(
            1 for r in active if WorkerRole.MEMBER_IN_CHARGE in r.entry.roles
        ),
        gross_receipts_count=sum(1 for r in active if WorkerRole.GROSS_RECEIPTS in r.entry.roles),
    )
    review = rules.judge(REVIEW, list_facts, on=on, limits=limits)
    return WorkerListReview(
        organization=organization,
        year=year,
        judged_on=on,
        worker_list=WorkerList.objects.filter(organization=organization, year=year).first(),
        active=active,
        removed=removed,
        warnings=review.violations,
    )

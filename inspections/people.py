"""The compliance views' reads about people: who is on the worker lists of several organizations
in a year, counted against the limit in force (961 CMR 3.04(1)(c)), and which workers also appear
among the winners (3.04(1)(h)): a known person for certain, a name that matches a worker's as
"possible". Each is a fixed number of queries."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, QuerySet

from beano.rules.authorizations import AuthorizationKind
from beano.rules.limits import LimitName, limits_in_force
from organizations.models import DirectorAuthorization, Organization, Person, WorkerListEntry
from organizations.worker_services import judging_date

#: People shown on a page of the list.
PER_PAGE = 50


@dataclass
class ListedPerson:
    """A person on the worker lists of several organizations in ``year``."""

    person: Person
    count: int  # every organization's list, in scope or not
    limit: int | None
    entries: list[WorkerListEntry] = field(default_factory=list)  # in scope only

    @property
    def outside_scope(self) -> int:
        return self.count - len(self.entries)

    @property
    def waivers(self) -> list[DirectorAuthorization]:
        return [a for e in self.entries for a in e.authorizations.all()]

    @property
    def status(self) -> str:
        if self.limit is None:
            return "no limit known"
        if self.count > self.limit:
            return "waived" if self.waivers else "over the limit"
        return "at the limit" if self.count == self.limit else "within the limit"


@dataclass(frozen=True)
class ListedPeople:
    """A page of the people on several lists, the most lists first, and how many there are."""

    limit: int | None
    page: Page
    total: int
    over: int  # over the limit (waived or not), of every page


def people_on_several_lists(
    organizations: QuerySet[Organization],
    year: int,
    today: dt.date,
    *,
    page: str | int | None = 1,
    per_page: int = PER_PAGE,
) -> ListedPeople:
    """People on the worker lists of two or more organizations in ``year`` (statewide), one of
    them in the scope; the most lists first, by name. Only the page asked for is made into
    rows: four queries, whatever the number of people."""
    figure = limits_in_force(judging_date(year, today)).get(LimitName.MAX_ORGANIZATIONS_PER_WORKER)
    limit = int(figure) if figure is not None else None
    in_scope = WorkerListEntry.objects.filter(
        worker_list__year=year, worker_list__organization__in=organizations
    ).values("person_id")
    counted = sorted(
        WorkerListEntry.objects.filter(worker_list__year=year, person_id__in=in_scope)
        .order_by()
        .values_list("person_id", "person__legal_name")
        .annotate(n=Count("worker_list__organization", distinct=True))
        .filter(n__gte=2),
        key=lambda row: (-row[2], row[1], row[0]),
    )
    chosen = Paginator(counted, per_page).get_page(page)
    counts = {person_id: n for person_id, _name, n in chosen.object_list}
    entries = (
        WorkerListEntry.objects.filter(
            worker_list__year=year,
            worker_list__organization__in=organizations,
            person_id__in=list(counts),
        )
        .select_related("person", "worker_list__organization")
        .prefetch_related(
            Prefetch(
                "authorizations",
                queryset=DirectorAuthorization.objects.filter(
                    kind=AuthorizationKind.MORE_THAN_FOUR_ORGANIZATIONS
                ),
            )
        )
        .order_by("worker_list__organization__name")
    )
    people: dict[int, ListedPerson] = {}
    for entry in entries:
        if entry.person_id not in people:
            people[entry.person_id] = ListedPerson(entry.person, counts[entry.person_id], limit)
        people[entry.person_id].entries.append(entry)
    # (A person whose entry went between the two reads is left out of the page, not an error.)
    chosen.object_list = [people[person_id] for person_id in counts if person_id in people]
    over = sum(1 for _pk, _name, n in counted if limit is not None and n > limit)
    return ListedPeople(limit, chosen, len(counted), over)

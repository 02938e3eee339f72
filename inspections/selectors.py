"""Reads of the inspector's dashboard, always given the user's scope (the organizations they
inspect). Every read is a fixed number of queries, whatever the number of occasions."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet, Subquery

from beano.rules.limits import LimitName, limits_in_force
from beano.rules.models import RefusedAction
from inspections.filters import OccasionFilter
from occasions.models import Occasion
from organizations.access import visible_organizations
from organizations.models import License, Organization, Person, WorkerListEntry
from organizations.selectors import licensees, practice_organizations
from reports.occasion_totals import with_kept_figures
from reports.selectors import ReportIssues


def scope(user: object) -> QuerySet[Organization]:
    """The organizations the user inspects (used as a subquery: no query of its own): the
    licensees, not the demo's practice organization, whose nights are no one's figures."""
    return licensees(visible_organizations(user))


def practice_in_scope(user: object) -> list[Organization]:
    """The practice organizations the user could open, named on the dashboard as left out."""
    return list(practice_organizations(visible_organizations(user)))


def organizations_in_scope(user: object) -> list[Organization]:
    return list(scope(user).order_by("name"))


@dataclass
class OrganizationRow:
    organization: Organization
    license: License | None
    last_occasion: Occasion | None
    refused: int
    #: The row's links, by page, and its open report issues: the view's, not the selector's.
    links: dict[str, str] = field(default_factory=dict)
    issues: ReportIssues | None = None
    html: str = ""  # the row as the dashboard draws it (inspections.dashboard_table)

    @property
    def license_ok(self) -> bool:
        return self.license is not None and self.license.status == License.Status.ACTIVE


def organization_rows(
    organizations: QuerySet[Organization], flt: OccasionFilter, today: dt.date
) -> list[OrganizationRow]:
    """The organizations the filter selects, each with its current license (the latest one in
    force today, whatever its status), its last occasion up to today and its refused actions:
    three queries."""
    last = Occasion.objects.filter(organization=OuterRef("pk"), date__lte=today).order_by("-date")
    rows = list(
        flt.organizations(organizations)
        .prefetch_related(
            Prefetch(
                "licenses",
                queryset=License.objects.filter(valid_from__lte=today).order_by("-valid_from"),
                to_attr="licenses_to_date",
            )
        )
        .annotate(
            last_occasion_pk=Subquery(last.values("pk")[:1]),
            last_occasion_date=Subquery(last.values("date")[:1]),
            last_occasion_status=Subquery(last.values("status")[:1]),
        )
        .order_by("name")
    )
    refusals = RefusedAction.objects.filter(organization_id__in=[o.pk for o in rows])
    if flt.date_from:
        refusals = refusals.filter(on_date__gte=flt.date_from)
    if flt.date_to:
        refusals = refusals.filter(on_date__lte=flt.date_to)
    refused = dict(refusals.order_by().values_list("organization_id").annotate(n=Count("pk")))
    out = []
    for org in rows:
        last_occasion = None
        if org.last_occasion_pk:
            last_occasion = Occasion(
                pk=org.last_occasion_pk,
                organization=org,
                date=org.last_occasion_date,
                status=org.last_occasion_status,
            )
        current = next((lic for lic in org.licenses_to_date if lic.valid_to >= today), None)
        out.append(OrganizationRow(org, current, last_occasion, refused.get(org.pk, 0)))
    return out


def occasions(organizations: QuerySet[Organization], flt: OccasionFilter) -> QuerySet[Occasion]:
    """The occasions of the scope the filter selects, newest first, with their figures (a
    closed night's as kept) and the parts of each night entered from paper."""
    return with_kept_figures(
        flt.occasions(Occasion.objects.filter(organization__in=organizations))
        .select_related("organization", "license")
        .prefetch_related("paper_records")
        .order_by("-date", "organization__name")
    )


@dataclass
class PersonFound:
    person: Person
    entries: list[WorkerListEntry] = field(default_factory=list)  # this year's, in scope
    organizations_this_year: int = 0  # every organization's list, in scope or not (3.04(1)(c))

    @property
    def outside_scope(self) -> int:
        return self.organizations_this_year - len(self.entries)


@dataclass(frozen=True)
class PeopleFound:
    people: list[PersonFound]
    year: int
    limit: int | None
    more: bool


PEOPLE_SHOWN = 20


def people_found(organizations: QuerySet[Organization], q: str, today: dt.date) -> PeopleFound:
    """People known to an organization of the scope (a member, or on a worker list) whose name
    contains ``q`` or whose worker ID is ``q``, each with this year's worker lists and their count
    of organizations against the limit in force (961 CMR 3.04(1)(c)): three queries."""
    limit = limits_in_force(today).get(LimitName.MAX_ORGANIZATIONS_PER_WORKER)
    limit_count = int(limit) if limit is not None else None
    if not q:
        return PeopleFound([], today.year, limit_count, False)
    people = list(
        Person.objects.filter(Q(legal_name__icontains=q) | Q(commission_worker_id__iexact=q))
        .filter(
            Q(
                pk__in=WorkerListEntry.objects.filter(
                    worker_list__organization__in=organizations
                ).values("person_id")
            )
            | Q(memberships__organization__in=organizations)
        )
        .distinct()
        .order_by("legal_name")[: PEOPLE_SHOWN + 1]
    )
    found = {p.pk: PersonFound(p) for p in people[:PEOPLE_SHOWN]}
    entries = (
        WorkerListEntry.objects.filter(person_id__in=list(found), worker_list__year=today.year)
        .select_related("worker_list__organization")
        .annotate(
            in_scope=Exists(organizations.filter(pk=OuterRef("worker_list__organization_id")))
        )
        .order_by("worker_list__organization__name")
    )
    for entry in entries:
        person = found[entry.person_id]
        person.organizations_this_year += 1
        if entry.in_scope:
            person.entries.append(entry)
    return PeopleFound(list(found.values()), today.year, limit_count, len(people) > PEOPLE_SHOWN)

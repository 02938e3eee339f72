"""An organization's year on one page for the inspector: "did it break any rule this year?"
Each figure is the count of a page it summarizes, read the way that page reads it and linked to
that page filtered to the organization and the year:

- refused actions: the organization's log of refused actions (``RefusedFilter``);
- reports missing, late, filed late and amended: the one computation of what is owed
  (``reports.obligations.days_owed``), as the Commission's list of reports owed shows it;
- the exceptions report, kind by kind (differences at close-out are its "variances"), but the
  reports, counted above;
- the nights entered from paper and those closed after the fact: the dashboard's occasions
  with its "Entered" filter;
- the audit chain's state: the chain check (``beano.integrity.check_chain``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

from beano.integrity import ChainReport, check_chain
from beano.rules.models import RefusedAction
from beano.rules.views import RefusedFilter
from inspections.exceptions import SOURCES, ExceptionQuery, exceptions
from inspections.filters import OccasionFilter
from occasions.models import Occasion
from organizations.models import Organization
from reports import obligations as owed
from reports.figures import variance_threshold

#: The exceptions' kinds the year counts one by one (the reports are counted from what is owed).
EXCEPTION_KINDS = tuple(kind for kind in SOURCES if kind != "reports")


@dataclass(frozen=True)
class Figure:
    """One line of the year: how many, what, and the page that shows them."""

    key: str
    label: str
    count: int
    url: str
    citation: str = ""


@dataclass(frozen=True)
class Year:
    organization: Organization
    year: int
    start: dt.date
    end: dt.date
    #: Where the reports owed here begin, if within the year (``records_begin``).
    records_begin: dt.date | None
    figures: list[Figure]
    chain: ChainReport
    chain_url: str

    @property
    def to_look_at(self) -> list[Figure]:
        """The figures that are not nil: each a thing for the inspector to look at."""
        return [f for f in self.figures if f.count]

    @property
    def clean(self) -> bool:
        return not self.to_look_at and self.chain.ok


def _url(name: str, query: dict[str, object], *args: object) -> str:
    return f"{reverse(name, args=args)}?{urlencode(query)}"


def year_figures(organization: Organization, year: int, today: dt.date) -> Year:
    """The year's figures of ``organization``: each the count its page shows for that year."""
    start, end = dt.date(year, 1, 1), dt.date(year, 12, 31)
    period = {"date_from": start.isoformat(), "date_to": end.isoformat()}
    org = organization.pk
    figures: list[Figure] = []

    refused = RefusedFilter(organization_id=org, date_from=start, date_to=end).apply(
        RefusedAction.objects.filter(organization_id=org)
    )
    figures.append(
        Figure(
            "refused",
            "Refused actions",
            refused.count(),
            _url("org_refused_actions", period, org),
            "961 CMR 3.04",
        )
    )

    days = owed.days_owed(organization, start, min(end, today), today)
    listed = {"organization": org, "from": start.isoformat(), "to": end.isoformat()}
    for state, label in (
        (owed.MISSING, "Reports missing"),
        (owed.LATE, "Reports late (the day recorded, no report filed)"),
        (owed.FILED_LATE, "Reports filed late"),
        (owed.AMENDED, "Reports amended"),
    ):
        count = sum(1 for d in days if (d.amended if state == owed.AMENDED else d.state == state))
        url = _url("commission_reports", {**listed, "status": state})
        figures.append(Figure(f"reports_{state}", label, count, url, "961 CMR 3.05(1)(a)"))

    query = ExceptionQuery(
        organizations=Organization.objects.filter(pk=org),
        date_from=start,
        date_to=end,
        threshold=variance_threshold(),
        today=today,
    )
    found = exceptions(query, EXCEPTION_KINDS)
    for kind in EXCEPTION_KINDS:
        label = SOURCES[kind][0]
        if kind == "variances":
            label = "Differences at close-out over the threshold"
        figures.append(
            Figure(
                f"exceptions_{kind}",
                label,
                sum(1 for row in found if row.kind == kind),
                _url("inspect_exceptions", {"organization": org, **period, "kind": kind}),
            )
        )

    nights = Occasion.objects.filter(organization_id=org, date__gte=start, date__lte=end)
    for entered, label in (
        ("paper", "Nights entered from paper (after the fact)"),
        ("closed_late", "Nights closed after the fact"),
    ):
        count = OccasionFilter(entered=entered).occasions(nights).count()
        url = _url("inspector_dashboard", {"organization": org, **period, "entered": entered})
        figures.append(Figure(f"nights_{entered}", label, count, url))

    begins = min(
        (owed.records_begin(organization, lic) for lic in organization.licenses.all()),
        default=None,
    )
    return Year(
        organization=organization,
        year=year,
        start=start,
        end=end,
        records_begin=begins if begins and start < begins <= end else None,
        figures=figures,
        chain=_chain(organization),
        chain_url=reverse("chain_check", args=[org]),
    )


def _chain(organization: Organization) -> ChainReport:
    """The chain check as its page makes it; a damaged checkpoint file is the check's problem
    to show there, the chain itself still checked."""
    try:
        return check_chain(organization)
    except ValueError:
        return check_chain(organization, last_checkpoints={})

"""A generated year of an organization's authorized days in every state of what is owed
(``reports.obligations``): built in bulk from the factories' tenant, for the tests that hold the
pages to the one computation and for the organization's year page."""

from __future__ import annotations

import datetime as dt
from typing import Any

from occasions.models import Occasion
from reports.models import FinancialReport
from reports.obligations import ensure_obligations
from tests.reports.conftest import at

YEAR = 2026
#: The clock of the generated year: its last two Fridays (Dec 11, Dec 18) are still due,
#: Christmas ahead.
TODAY = dt.date(2026, 12, 20)
#: The kinds of day, in turn: (occasion status or None, filing days after the day, versions).
KINDS = (
    (None, None, 0),  # nothing recorded: missing
    (Occasion.Status.CLOSED, 3, 1),  # filed
    (Occasion.Status.CLOSED, 15, 1),  # filed late
    (Occasion.Status.CLOSED, 4, 2),  # filed, amended
    (Occasion.Status.CLOSED, None, 0),  # played, not filed: late
    (Occasion.Status.NOT_PLAYED, None, 0),  # not played, not filed: late
    (Occasion.Status.NOT_PLAYED, 20, 2),  # not played, filed late, amended
    (Occasion.Status.OPEN, None, 0),  # left open: late
)
FIGURES = {
    "variance": {"above_threshold": []},
    "net": {"net_proceeds": "100.00"},
    "receipts": {"gross_receipts": "500.00"},
    "tax": {"total_due": "25.00"},
}


def build_year(tenant: Any, until: dt.date = TODAY, recorded_through: dt.date | None = None) -> Any:
    """The tenant's organization keeping its records here from January 1 (its license: every
    Friday), each Friday before ``until`` of one kind in turn, the last two before the clock's
    day left due (one played, one with nothing recorded); the obligations recorded by the
    nightly task through ``recorded_through`` (mid-year by default), the rest read as owed."""
    org = tenant.organization
    org.reports_from = dt.date(YEAR, 1, 1)
    org.save()
    license = org.licenses.get()
    days = license.authorized_dates(dt.date(YEAR, 1, 1), until - dt.timedelta(days=1))
    ensure_obligations([org], recorded_through or dt.date(YEAR, 6, 30))
    occasions, filings = [], []
    for i, day in enumerate(days):
        status, after, versions = KINDS[i % len(KINDS)]
        if day > TODAY - dt.timedelta(days=10):  # still due
            status, after, versions = (Occasion.Status.CLOSED, None, 0) if i % 2 else KINDS[0]
        if status is None:
            continue
        reason = "The hall was flooded." if status == Occasion.Status.NOT_PLAYED else ""
        occasions.append(
            Occasion(
                organization=org,
                license=license,
                date=day,
                status=status,
                not_played_reason=reason,
            )
        )
        filings.append((after, versions))
    Occasion.objects.bulk_create(occasions)
    reports = [
        FinancialReport(
            organization=org,
            occasion=occasion,
            version=version,
            reason="A count corrected." if version > 1 else "",
            figures=FIGURES,
            figures_sha256="0" * 64,
            filed_at=at(12, day=occasion.date + dt.timedelta(days=after + version - 1)),
            filed_by=tenant.bookkeeper,
            due_on=occasion.date + dt.timedelta(days=10),
            chain_length=0,
            chain_head_hash="0" * 64,
        )
        for occasion, (after, versions) in zip(occasions, filings, strict=True)
        if after is not None
        for version in range(1, versions + 1)
    ]
    FinancialReport.objects.bulk_create(reports)
    return org

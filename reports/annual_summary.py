"""The summary shown before filing the annual report or its amendment (``occasions.confirm``):
what is filed and its totals, when it is due, which of the year's occasions have no report on
file, what the rules would refuse now, and how a filed report is corrected. Nothing is saved
here; the rules judge the filing when it is confirmed."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone

from beano import rules
from beano.rules.money import usd
from beano.rules.reporting import FILE_ANNUAL_REPORT, AnnualFilingFacts
from occasions.confirm import Confirmation
from occasions.models import Occasion
from organizations.models import Organization
from reports.annual import latest_reports
from reports.annual_services import annual_due_on
from reports.figures import differences, to_json
from reports.models import AnnualReport


def _unreported(organization: Organization, year: int) -> list[str]:
    """The year's occasions with no report on file: their figures are not in the totals."""
    filed = {r.occasion_id for r in latest_reports(organization, year)}
    missing = (
        Occasion.objects.filter(organization=organization, date__year=year)
        .exclude(pk__in=filed)
        .order_by("date")
    )
    return [
        f"{o.date:%B %-d}: no financial report is filed ({o.get_status_display().lower()}); "
        "its figures are not in these totals."
        for o in missing
    ]


def annual_summary(
    organization: Organization, year: int, figures: dict[str, Any], reason: str
) -> Confirmation:
    """Before filing the year's annual report, or an amendment of it with ``reason``."""
    latest = (
        AnnualReport.objects.filter(organization=organization, year=year)
        .order_by("-version")
        .first()
    )
    amendment = latest is not None
    today = timezone.localdate()
    due = annual_due_on(year)
    o = figures["occasions"]
    what = f"amendment {latest.version}" if latest else "the annual report"
    does = [
        f"File {what} for {year}: {o['reports_filed']} occasion report"
        f"{'s' if o['reports_filed'] != 1 else ''} ({o['played']} played), gross receipts "
        f"{usd(o['gross_receipts'])}, Beano tax {usd(o['tax'])}, net proceeds "
        f"{usd(o['net_proceeds'])}; spent for Lawful Purposes {usd(figures['total'])} "
        f"({len(figures['disbursements'])} disbursement"
        f"{'s' if len(figures['disbursements']) != 1 else ''}), leaving "
        f"{usd(figures['balance'])}.",
        f"It is due by {due:%B %-d, %Y}"
        + (f"; filed today it is {(today - due).days} days late." if today > due else "."),
        "Its PDF is made by the worker; the filed figures are then kept as filed.",
    ]
    if amendment:
        changed = differences(latest.figures, to_json(figures))
        does.insert(
            1,
            f"It corrects version {latest.version} (filed "
            f"{timezone.localtime(latest.filed_at):%B %-d, %Y}) in {len(changed)} figure"
            f"{'s' if len(changed) != 1 else ''}, for the reason given: “{reason.strip()}”.",
        )
    unfinished = _unreported(organization, year)
    if not figures["disbursements"]:
        unfinished.append("No Lawful Purpose disbursement is recorded for the year.")
    decision = rules.judge(
        FILE_ANNUAL_REPORT,
        AnnualFilingFacts(
            year=year, today=today, amendment=amendment, reason=" ".join(reason.split())
        ),
        on=today,
    )
    back = reverse("annual_report", kwargs={"org_id": organization.pk, "year": year})
    return Confirmation(
        title=f"File the {year} annual report?" if not amendment else f"File {what}?",
        button=f"Yes, file the {year} annual report" if not amendment else f"Yes, file {what}",
        action=reverse("annual_file", kwargs={"org_id": organization.pk, "year": year}),
        back=back,
        does=tuple(does),
        unfinished=tuple(unfinished),
        refused=tuple(f"{v.citation}: {v.message}" for v in decision.violations),
        corrections=(
            "Once filed, the report is not edited: a correction is filed as an amendment "
            "with its reason, from this page.",
        ),
        fields=(("reason", reason),) if amendment else (),
    )

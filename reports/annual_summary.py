"""The summary shown before filing the annual report or its amendment (``occasions.confirm``):
what is filed and its totals, when it is due, which of the year's occasions have no report on
file, what the rules would refuse now, and how a filed report is corrected. Nothing is saved
here; the rules judge the filing when it is confirmed."""

from __future__ import annotations

from typing import Any

from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone

from beano import rules
from beano.rules.money import usd
from beano.rules.reporting import FILE_ANNUAL_REPORT
from occasions.confirm import Confirmation
from occasions.models import Occasion
from organizations.models import Organization
from reports.annual import latest_reports
from reports.annual_services import annual_due_on, annual_filing_facts
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
    organization: Organization,
    year: int,
    figures: dict[str, Any],
    latest: AnnualReport | None,
    reason: str,
) -> Confirmation:
    """Before filing the year's annual report (``latest`` None), or an amendment of the version
    on file ``latest`` with ``reason``; ``figures`` the year's as the page computed them."""
    facts = annual_filing_facts(year, amendment=latest is not None, reason=reason)
    due = annual_due_on(year)
    o, paid = figures["occasions"], len(figures["disbursements"])
    what = f"amendment {latest.version}" if latest else f"the {year} annual report"
    does = [
        f"File {what}: {o['reports_filed']} occasion report{pluralize(o['reports_filed'])} "
        f"({o['played']} played), gross receipts {usd(o['gross_receipts'])}, Beano tax "
        f"{usd(o['tax'])}, net proceeds {usd(o['net_proceeds'])}; spent for Lawful Purposes "
        f"{usd(figures['total'])} ({paid} disbursement{pluralize(paid)}), leaving "
        f"{usd(figures['balance'])}.",
        f"It is due by {due:%B %-d, %Y}"
        + (
            f"; filed today it is {(facts.today - due).days} days late."
            if facts.today > due
            else "."
        ),
        "Its PDF is made by the worker; the filed figures are then kept as filed.",
    ]
    if latest is not None:
        changed = len(differences(latest.figures, to_json(figures)))
        does.insert(
            1,
            f"It corrects version {latest.version} (filed "
            f"{timezone.localtime(latest.filed_at):%B %-d, %Y}) in {changed} "
            f"figure{pluralize(changed)}, for the reason given: “{facts.reason}”.",
        )
    unfinished = _unreported(organization, year)
    if not paid:
        unfinished.append("No Lawful Purpose disbursement is recorded for the year.")
    url = {"org_id": organization.pk, "year": year}
    return Confirmation(
        title=f"File {what}?",
        button=f"Yes, file {what}",
        action=reverse("annual_file", kwargs=url),
        back=reverse("annual_report", kwargs=url),
        does=tuple(does),
        unfinished=tuple(unfinished),
        refused=rules.judge(FILE_ANNUAL_REPORT, facts, on=facts.today).messages,
        corrections=(
            "Once filed, the report is not edited: a correction is filed as an amendment "
            "with its reason, from this page.",
        ),
        fields=(("reason", reason),) if latest else (),
    )

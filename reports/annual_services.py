"""The annual report: the Lawful Purpose disbursements of the net proceeds (3.05(1)(c)) and the
year's filing, or its amendment with a reason."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules.money import DISBURSEMENT, money
from beano.rules.reporting import FILE_ANNUAL_REPORT, AnnualFilingFacts
from beano.text import one_line, text
from organizations.audit import acting_user, record_event, snapshot
from organizations.models import Organization
from organizations.selectors import authorization_facts
from reports import annual
from reports.figures import differences, digest, to_json
from reports.filing_services import chain_head, enqueue
from reports.models import AnnualReport, LawfulPurposeDisbursement


@rules.atomic()
def record_disbursement(
    *,
    organization: Organization,
    paid_on: dt.date,
    payee: str,
    purpose: str,
    amount: Decimal,
    by: Actor,
    reference: str = "",
) -> LawfulPurposeDisbursement:
    """Net proceeds spent for a Lawful Purpose (3.05(1)(c)), for the annual report."""
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    if not isinstance(paid_on, dt.date):
        raise ValidationError({"paid_on": "Give the date it was paid."})
    if paid_on > timezone.localdate():
        raise ValidationError({"paid_on": "A payment is recorded once it is made."})
    amount = money(amount, DISBURSEMENT, "amount", positive=True)
    disbursement = LawfulPurposeDisbursement.objects.create(
        organization=organization,
        paid_on=paid_on,
        payee=text(payee, "payee"),
        purpose=text(purpose, "purpose", limit=300),
        amount=amount,
        reference=text(reference, "reference", required=False, limit=100),
        recorded_by=acting_user(by),
        recorded_at=timezone.now(),
    )
    record_event(
        organization=organization,
        actor=by,
        action="reports.disbursement.recorded",
        target=disbursement,
        new=snapshot(disbursement, ("paid_on", "payee", "purpose", "amount", "reference")),
    )
    return disbursement


@rules.atomic()
def void_disbursement(
    *, disbursement: LawfulPurposeDisbursement, reason: str, by: Actor
) -> LawfulPurposeDisbursement:
    """A disbursement recorded by mistake is voided with a reason; it stays on record."""
    disbursement = locking.lock(LawfulPurposeDisbursement.objects).get(pk=disbursement.pk)
    if disbursement.voided_at is not None:
        raise ValidationError("This disbursement is already voided.")
    disbursement.void_reason = text(reason, "reason", limit=300)
    disbursement.voided_at = timezone.now()
    disbursement.voided_by = acting_user(by)
    disbursement.save()
    record_event(
        organization=disbursement.organization,
        actor=by,
        action="reports.disbursement.voided",
        target=disbursement,
        new={"void_reason": disbursement.void_reason},
    )
    return disbursement


def annual_due_on(year: int) -> dt.date:
    """Before January 31 of the next year (3.05(1)(c)): the last day is January 30."""
    return dt.date(year + 1, 1, 30)


def annual_filing_facts(year: int, *, amendment: bool, reason: str) -> AnnualFilingFacts:
    """What the rules judge of filing the year's report today (the reason's spaces tidied)."""
    return AnnualFilingFacts(
        year=year, today=timezone.localdate(), amendment=amendment, reason=one_line(reason)
    )


@rules.atomic()
def file_annual_report(
    *, organization: Organization, year: int, by: Actor, reason: str = ""
) -> AnnualReport:
    """File the year's annual report, or an amendment of it with its reason. Filing again with
    nothing changed returns the version on file."""
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    latest = (
        AnnualReport.objects.filter(organization=organization, year=year)
        .order_by("-version")
        .first()
    )
    figures_json = to_json(annual.compute_annual(organization, year))
    if latest is not None and not differences(latest.figures, figures_json):
        return latest
    amendment = latest is not None
    facts = annual_filing_facts(year, amendment=amendment, reason=reason)
    reason = facts.reason
    enforce_at_org(FILE_ANNUAL_REPORT, facts, organization, by)
    due = annual_due_on(year)
    report = AnnualReport.objects.create(
        organization=organization,
        year=year,
        version=(latest.version + 1) if latest else 1,
        reason=reason if amendment else "",
        changes=differences(latest.figures, figures_json) if latest else [],
        figures=figures_json,
        figures_sha256=digest(figures_json),
        filed_at=timezone.now(),
        filed_by=acting_user(by),
        due_on=due,
        days_late=max((facts.today - due).days, 0),
        chain_length=0,
        chain_head_hash="",
    )
    record_event(
        organization=organization,
        actor=by,
        action="reports.annual.filed" if not amendment else "reports.annual.amended",
        target=report,
        new={
            "year": year,
            "version": report.version,
            "reason": report.reason,
            "figures_sha256": report.figures_sha256,
            "total": figures_json["total"],
        },
    )
    report.chain_length, report.chain_head_hash = chain_head(organization)
    report.save(update_fields=["chain_length", "chain_head_hash"])
    enqueue(report)
    return report


def enforce_at_org(action: str, facts: Any, organization: Organization, by: Actor) -> None:
    rules.enforce(
        action,
        facts,
        on=timezone.localdate(),
        actor=by,
        organization=organization,
        authorizations=authorization_facts(organization),
    )

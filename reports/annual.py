"""The annual report (961 CMR 3.05(1)(c)): all money spent for Lawful Purposes in a calendar
year, beside the net proceeds the year's filed reports show."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from reports.figures import ZERO, cents
from reports.models import FinancialReport, LawfulPurposeDisbursement

SCHEMA = "beano-annual-report/1"


def latest_reports(organization: Any, year: int) -> list[FinancialReport]:
    """The current version of each occasion's report for the year."""
    rows = FinancialReport.objects.filter(
        organization=organization, occasion__date__year=year
    ).order_by("occasion__date", "-version")
    current: dict[int, FinancialReport] = {}
    for r in rows.select_related("occasion"):
        current.setdefault(r.occasion_id, r)
    return list(current.values())


def compute_annual(organization: Any, year: int) -> dict[str, Any]:
    license = organization.licenses.order_by("-valid_to").first()
    disbursements = [
        {
            "paid_on": d.paid_on.isoformat(),
            "payee": d.payee,
            "purpose": d.purpose,
            "reference": d.reference,
            "amount": cents(d.amount),
        }
        for d in LawfulPurposeDisbursement.objects.filter(
            organization=organization,
            paid_on__gte=dt.date(year, 1, 1),
            paid_on__lte=dt.date(year, 12, 31),
            voided_at__isnull=True,
        ).order_by("paid_on", "pk")
    ]
    total = sum((d["amount"] for d in disbursements), ZERO)
    reports = latest_reports(organization, year)
    gross = sum((Decimal(r.figures["receipts"]["gross_receipts"]) for r in reports), ZERO)
    tax = sum((Decimal(r.figures["tax"]["total_due"]) for r in reports), ZERO)
    net = sum((Decimal(r.figures["net"]["net_proceeds"]) for r in reports), ZERO)
    return {
        "schema": SCHEMA,
        "year": year,
        "organization": {
            "name": organization.name,
            "street": organization.street,
            "town": organization.town,
            "zip": organization.zip_code,
            "telephone": organization.telephone,
            "federal_id": organization.federal_id,
            "license_number": license.number if license else "",
            "local_licensing_authority": license.local_licensing_authority if license else "",
        },
        "disbursements": disbursements,
        "total": cents(total),
        "occasions": {
            "reports_filed": len(reports),
            "played": sum(1 for r in reports if r.figures["occasion"]["played"]),
            "gross_receipts": cents(gross),
            "tax": cents(tax),
            "net_proceeds": cents(net),
        },
        "balance": cents(net - total),
    }

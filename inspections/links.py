"""What the inspector's pages add to the pages below them (``beano.links``)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from beano.links import Link, occasion_page, org_page, page


def _is_commission(context: Any) -> bool:
    access = context.get("access")
    return bool(access and access.is_commission)


def _year(context: Any) -> str:
    return reverse("organization_year", args=[context["org"].pk])


def _owed(context: Any) -> str:
    return f"{reverse('commission_reports')}?organization={context['org'].pk}"


LINKS = (
    Link(
        "organization_tabs",
        "compliance",
        "Compliance",
        org_page("org_compliance_prizes"),
        140,
    ),
    Link(
        "organization_tabs",
        "inspections",
        "Inspections",
        org_page("inspections_list"),
        150,
    ),
    Link(
        "organization_tabs",
        "year",
        "The year",
        org_page("organization_year", _is_commission),
        160,
    ),
    Link("commission_organization", "year", "The year", _year),
    Link("commission_admin", "licensing", "Licensing", page("onboarding_home"), 10),
    Link(
        "commission_admin",
        "inspection",
        "Inspection dashboard",
        page("inspector_dashboard"),
        40,
    ),
    Link("commission_organization", "owed", "Owed", _owed),
    Link("audit_trail_actions", "chain_check", "Check the chain now", org_page("chain_check")),
    Link(
        "integrity_warning_actions", "chain_check", "Check the audit chain", org_page("chain_check")
    ),
    Link(
        "occasion_actions",
        "record",
        "Full record (printable)",
        occasion_page("occasion_record"),
        20,
    ),
)


def inspector_landing() -> str:
    """An inspector's landing page (``organizations.extensions.LANDING``)."""
    return reverse("inspector_dashboard")


def record_history(organization_id: int, target_type: str, target_id: Any) -> str:
    """A record's history in its organization's audit trail (``HISTORY_PAGE``)."""
    return reverse(
        "record_history",
        kwargs={"org_id": organization_id, "target_type": target_type, "target_id": target_id},
    )

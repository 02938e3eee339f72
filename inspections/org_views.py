"""An organization's records as the inspectors (and the organization itself) review them: an
occasion's full record and its CSV, a record's history from the audit trail, the chain check,
the compliance views of the one organization, and the log of the Commission's views of its
records. Every view goes through ``org_view``: 404 outside, 403 to an inspector's POST; none of
them writes anything."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from beano.csv_files import csv_response
from beano.integrity import check_chain
from inspections.compliance_views import SECTIONS, compliance_page
from inspections.exports import OCCASION_EXPORTS
from inspections.history import history_events
from inspections.record import RECORD_OCCASION, full_record
from occasions.models import Occasion
from organizations.access import OrgRequest, get_for_org, org_view
from organizations.models import Organization, RecordView

#: The exports of one occasion: its own rows (the list of occasions is the inspector's).
RECORD_EXPORTS = ("sales", "games", "calls", "payouts")
TARGET_TYPE = re.compile(r"^[a-z_]+\.[a-z_]+$")


@org_view()
def occasion_record(request: OrgRequest, pk: int) -> HttpResponse:
    """The occasion's full record, printable."""
    access = request.access
    occasion = get_for_org(RECORD_OCCASION, access, pk=pk)
    return render(
        request,
        "inspections/record/page.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "record": full_record(occasion),
            "exports": RECORD_EXPORTS,
            "printed_at": timezone.now(),
        },
    )


@org_view()
def occasion_record_export(request: OrgRequest, pk: int, kind: str) -> HttpResponse:
    access = request.access
    if kind not in RECORD_EXPORTS:
        raise Http404
    occasion = get_for_org(Occasion.objects.all(), access, pk=pk)
    chosen = OCCASION_EXPORTS[kind]
    return csv_response(
        f"occasion-{occasion.organization_id}-{occasion.date}-{kind}.csv",
        chosen.header,
        chosen.rows(Occasion.objects.filter(pk=occasion.pk)),
    )


@org_view()
def record_history(request: OrgRequest, target_type: str, target_id: str) -> HttpResponse:
    """Who changed the record, what and when: its events in the organization's audit trail."""
    access = request.access
    if not TARGET_TYPE.match(target_type) or not target_id.isdigit():
        raise Http404
    events = history_events(access.organization, target_type, target_id)
    if not events:
        raise Http404("No change of this record is on file.")
    access.looked_up.append((target_type, target_id))
    return render(
        request,
        "inspections/history.html",
        {
            "org": access.organization,
            "access": access,
            "events": events,
            "record": next(
                (
                    e.target_repr
                    for e in events
                    if (e.target_type, e.target_id) == (target_type, target_id)
                ),
                events[-1].target_repr,
            ),
            "target_type": target_type,
        },
    )


@org_view()
def chain_check(request: OrgRequest) -> HttpResponse:
    """Check the organization's audit chain now, and what it vouches for (beano.integrity): the
    keyed hashes and the sealed head, the last checkpoint kept outside the database, the filed
    reports, and the money records against their last audit events."""
    access = request.access
    try:
        report = check_chain(access.organization)
        checkpoint_error = ""
    except ValueError as error:  # a damaged checkpoint file: said, and the rest still checked
        report = check_chain(access.organization, last_checkpoints={})
        checkpoint_error = str(error)
    return render(
        request,
        "inspections/chain_check.html",
        {
            "org": access.organization,
            "access": access,
            "check": report.chain,
            "report": report,
            "checkpoint_error": checkpoint_error,
            "checked_at": timezone.now(),
        },
    )


def _org_compliance(section: str) -> Callable[..., HttpResponse]:
    """One organization's compliance page of ``section``: a view of its own per section, so
    that its URL names nothing but the organization."""

    @org_view()
    def view(request: OrgRequest) -> HttpResponse:
        access = request.access
        org = access.organization
        return compliance_page(
            request,
            section,
            Organization.objects.filter(pk=org.pk),
            [org],
            {"org": org, "access": access},
        )

    view.__name__ = view.__qualname__ = f"org_compliance_{section}"
    return view


ORG_COMPLIANCE = {section: _org_compliance(section) for section in SECTIONS}


@org_view()
def inspections_list(request: OrgRequest) -> HttpResponse:
    """The pages of this organization the Commission's staff opened, newest first."""
    access = request.access
    views = RecordView.objects.filter(organization=access.organization).order_by(
        "-viewed_at", "-pk"
    )
    return render(
        request,
        "inspections/inspections_list.html",
        {
            "org": access.organization,
            "access": access,
            "page": Paginator(views, 50).get_page(request.GET.get("page")),
        },
    )

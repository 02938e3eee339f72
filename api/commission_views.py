"""The Commission's reads across organizations (``commission_read`` tokens only; any other
token is 403): the filed reports with their figures, the reports owed, the refused actions and
the audit chains' state. Each is what the Commission's pages compute, read the same way:

- a filed report is the JSON its PDF embeds (``reports.pdf.payload``) and what
  ``reports.integrity`` says of it, as the inspector's pages show it; personal data withheld
  (``api.commission_serializers.without_personal_data``);
- the reports owed are ``reports.selectors.obligations``, the Commission's list of reports owed
  (``commission_reports``), with its states and its limit (the newest 500 days of a filter);
- the refused actions are the log the ``commission_refused_actions`` page lists, filtered as it
  filters (``beano.rules.views.RefusedFilter``);
- an audit chain's state is its head and the last whole check the periodic task recorded
  (``ChainVerification``), as the audit trail page says it: no chain is checked again here.

Reach: the organizations of the token's maker (``api.access.organizations_of``: a Commission
admin's are every one); the reports, the reports owed and the refused actions are the
licensees' among them, as the Commission's lists count them (a practice organization owes
nothing). A report asked for by its id outside that reach is 404; an ``organization`` filter
outside it is filtered out (an empty list), never 404."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api import commission_serializers as s
from api.base import ApiView, Pages
from api.schema import READ_PROBLEMS, problems
from beano.rules.models import RefusedAction
from beano.rules.views import RefusedFilter
from organizations.audit import ChainCheck
from organizations.models import GENESIS_HASH, Organization
from organizations.selectors import licensees
from reports import integrity, pdf
from reports import selectors as report_selectors
from reports.models import FinancialReport


def _paged(item: type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """The schema of a page of ``item``s, as ``LimitOffsetPagination`` answers it."""
    return type(
        name,
        (serializers.Serializer,),
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item(many=True),
        },
    )


#: A Commission read refuses nothing and finds no record by address but a report (404).
ERRORS = problems(400, 401, 403, 429)


def _query(serializer: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The query string, validated: 400 naming each parameter at fault, an empty one and one
    the operation does not take among them (a misspelt filter would otherwise answer
    everything, unfiltered)."""
    taken = serializer().fields
    errors = {}
    for name in request.query_params:
        if name not in taken:
            errors[name] = [f"Not a parameter of this operation (it takes {', '.join(taken)})."]
        elif "" in request.query_params.getlist(name):
            errors[name] = ["Give a value, or leave the parameter out."]
    if errors:
        raise serializers.ValidationError(errors)
    query = serializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


def _licensees(request: Request) -> QuerySet[Organization]:
    return licensees(access.organizations_of(request))


def _organization(organization: Organization) -> dict[str, Any]:
    return {"id": organization.pk, "name": organization.name}


class CommissionView(ApiView):
    read_scopes = access.COMMISSION


# --- Filed reports ---------------------------------------------------------------------------


def _reports(request: Request) -> QuerySet[FinancialReport]:
    return FinancialReport.objects.filter(organization__in=_licensees(request)).select_related(
        "organization", "occasion", "filed_by"
    )


def report_data(report: FinancialReport, problems: list[str]) -> dict[str, Any]:
    """One filed report as the API answers it: the PDF's embedded JSON (``reports.pdf.payload``),
    personal data withheld, with what ``reports.integrity`` found."""
    embedded, withheld = s.without_personal_data(pdf.payload(report))
    return {
        "id": report.pk,
        "organization": _organization(report.organization),
        "occasion": {"id": report.occasion_id, "date": report.occasion.date},
        **embedded,
        "withheld": withheld,
        "checks": not problems,
        "problems": problems,
        "pdf_ready": report.is_ready,
    }


def _answer_reports(reports: list[FinancialReport]) -> list[dict[str, Any]]:
    found = integrity.problems(reports)  # two queries, whatever the page holds
    return [report_data(r, found[r]) for r in reports]


class CommissionReports(CommissionView):
    @extend_schema(
        operation_id="api_commission_reports",
        summary="Filed reports with their figures",
        parameters=[s.ReportsQuery],
        responses={
            200: _paged(s.CommissionReportSerializer, "PaginatedCommissionReports"),
            **ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
        """Every filed report (each version) of the licensees in reach, the newest filing
        first, with its figures as its PDF embeds them. Filters: ``organization`` (outside the
        reach: filtered out), ``from`` and ``to`` (the occasion's date), ``since`` (filed at
        or after)."""
        query = _query(s.ReportsQuery, request)
        reports = _reports(request)
        if "organization" in query:
            reports = reports.filter(organization_id=query["organization"])
        if "from" in query:
            reports = reports.filter(occasion__date__gte=query["from"])
        if "to" in query:
            reports = reports.filter(occasion__date__lte=query["to"])
        if "since" in query:
            reports = reports.filter(filed_at__gte=query["since"])
        paginator = Pages()
        page = paginator.paginate_queryset(reports.order_by("-filed_at", "-pk"), request, self)
        return paginator.get_paginated_response(
            s.CommissionReportSerializer(_answer_reports(list(page or [])), many=True).data
        )


class CommissionReport(CommissionView):
    @extend_schema(
        operation_id="api_commission_report",
        summary="One filed report with its figures",
        parameters=[OpenApiParameter("report_id", int, OpenApiParameter.PATH)],
        responses={
            200: s.CommissionReportSerializer,
            **READ_PROBLEMS,
        },
    )
    def get(self, request: Request, report_id: int) -> Response:
        """One filed report (one version) with its figures as its PDF embeds them; 404 when it
        is not a licensee's in reach."""
        _query(s.NoQuery, request)
        report = _reports(request).filter(pk=report_id).first()
        if report is None:
            raise Http404
        (answer,) = _answer_reports([report])
        return Response(s.CommissionReportSerializer(answer).data)


# --- Reports owed ----------------------------------------------------------------------------


def obligation_data(row: report_selectors.ObligationRow) -> dict[str, Any]:
    ob, occasion, report = row.obligation, row.occasion, row.report
    return {
        "organization": _organization(ob.organization),
        "license_number": ob.license.number,
        "day": ob.day,
        "due_on": ob.due_on,
        "status": row.status,
        "status_label": row.status_label,
        "amended": row.amended,
        "versions": row.versions,
        "occasion_id": occasion.pk if occasion else None,
        "occasion_status": occasion.status if occasion else None,
        "report_id": report.pk if report else None,
        "filed_at": report.filed_at if report else None,
        "days_late": report.days_late if report else None,
    }


class CommissionReportsOwed(CommissionView):
    @extend_schema(
        operation_id="api_commission_reports_owed",
        summary="Reports owed: due, late, missing (and filed)",
        parameters=[s.ReportsOwedQuery],
        responses={200: _paged(s.CommissionObligationSerializer, "PaginatedReportsOwed"), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        """The days a report is owed for, the newest first, with their state, as the
        Commission's list of reports owed reads them (``reports.selectors.obligations``): at
        most the newest 500 of a filter (narrow it by dates or organization for more).
        ``status``: open (the default: due, late or missing), all, or one state.
        ``organization`` outside the reach is filtered out."""
        query = _query(s.ReportsOwedQuery, request)
        orgs = _licensees(request)
        if "organization" in query:
            orgs = orgs.filter(pk=query["organization"])
        status = query.get("status", "open")
        statuses = (
            report_selectors.OPEN_STATUSES
            if status == "open"
            else ()
            if status == "all"
            else (status,)
        )
        rows = report_selectors.obligations(
            orgs, start=query.get("from"), end=query.get("to"), statuses=statuses
        )
        paginator = Pages()
        page = paginator.paginate_queryset(rows, request, self) or []
        return paginator.get_paginated_response(
            s.CommissionObligationSerializer([obligation_data(r) for r in page], many=True).data
        )


# --- Refused actions -------------------------------------------------------------------------


def refused_data(row: RefusedAction) -> dict[str, Any]:
    return {
        "id": row.pk,
        "when": row.created_at,
        "who": row.username,
        "organization": {"id": row.organization_id, "name": row.organization_name},
        "action": row.action,
        "judged_for": row.on_date,
        "refusals": [
            {
                "code": str(v.get("code", "")),
                "citation": str(v.get("citation", "")),
                "message": str(v.get("message", "")),
            }
            for v in row.violations or []
            if isinstance(v, dict)
        ],
    }


class CommissionRefusedActions(CommissionView):
    @extend_schema(
        operation_id="api_commission_refused_actions",
        summary="Actions the rules refused",
        parameters=[s.RefusedQuery],
        responses={
            200: _paged(s.CommissionRefusedActionSerializer, "PaginatedRefusedActions"),
            **ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
        """Every action the rules refused at the licensees in reach, the newest first, with each
        refusal's code, citation and message, as the Commission's page lists them (the facts
        judged are not given). Filters: ``organization`` (outside the reach: filtered out),
        ``since`` (refused at or after), ``citation``."""
        query = _query(s.RefusedQuery, request)
        logged = RefusedAction.objects.filter(organization_id__in=_licensees(request).values("pk"))
        if "since" in query:
            logged = logged.filter(created_at__gte=query["since"])
        if "organization" in query:
            logged = logged.filter(organization_id=query["organization"])
        logged = RefusedFilter(citation=query.get("citation", "").strip()).apply(logged)
        paginator = Pages()
        page = paginator.paginate_queryset(logged, request, self) or []
        return paginator.get_paginated_response(
            s.CommissionRefusedActionSerializer([refused_data(r) for r in page], many=True).data
        )


# --- Audit chains ----------------------------------------------------------------------------


def chain_data(organization: Organization) -> dict[str, Any]:
    """An organization's chain: its head, and its last whole check as recorded."""
    chain = getattr(organization, "audit_chain", None)
    length = chain.length if chain else 0
    verification = getattr(chain, "verification", None) if chain else None
    last_check = None
    state, broken_at = "unchecked", None
    if verification is not None:
        sealed = verification.sealed
        last_check = {
            "checked_at": verification.checked_at,
            "verified_at": verification.verified_at,
            "through_event": verification.through_sequence,
            "through_hash": verification.through_hash,
            "sealed": sealed,
            "problem": verification.problem,
        }
        if verification.problem:
            state, broken_at = "broken", ChainCheck.broken_at_of(verification.problem)
        elif sealed and verification.verified_at is not None:
            state = "intact"
    through = verification.through_sequence if state == "intact" and verification else 0
    return {
        "organization": _organization(organization),
        "length": length,
        "head_hash": chain.head_hash if chain else GENESIS_HASH,
        "state": state,
        "broken_at": broken_at,
        "unchecked_events": max(length - through, 0),
        "last_check": last_check,
    }


class CommissionAuditChains(CommissionView):
    @extend_schema(
        operation_id="api_commission_audit_chains",
        summary="The audit chains' state",
        parameters=[s.ChainsQuery],
        responses={200: _paged(s.CommissionAuditChainSerializer, "PaginatedAuditChains"), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        """Each organization's audit chain in reach (every organization, practice ones too), by
        name: its length and head, and its last whole check by the periodic task (when, through
        which event, intact or broken and where). Read as recorded, never checked again here:
        the events written since the checkpoint are counted in ``unchecked_events``.
        ``organization`` outside the reach is filtered out."""
        query = _query(s.ChainsQuery, request)
        orgs = Organization.objects.filter(pk__in=access.organizations_of(request).values("pk"))
        if "organization" in query:
            orgs = orgs.filter(pk=query["organization"])
        orgs = orgs.select_related("audit_chain__verification").order_by("name", "pk")
        paginator = Pages()
        page = paginator.paginate_queryset(orgs, request, self) or []
        return paginator.get_paginated_response(
            s.CommissionAuditChainSerializer([chain_data(o) for o in page], many=True).data
        )

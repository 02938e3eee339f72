"""Pages every signed-in user may read: the rules catalog and the limits in force. The log of
refused actions is for the Commission and for each organization's head and bookkeeper."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from beano import date_filters
from beano.rules.catalog import catalog
from beano.rules.limits import limits_in_force
from beano.rules.models import LawLimit, RefusedAction


@require_safe
@login_required
def rules_catalog(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/catalog.html", {"rules": catalog()})


@require_safe
@login_required
def limits(request: HttpRequest) -> HttpResponse:
    """The figures in force on a date (today unless another is asked for), and their history."""
    on = timezone.localdate()
    asked = request.GET.get("on", "")
    error = ""
    if asked:
        try:
            on = dt.date.fromisoformat(asked)
        except ValueError:
            error = f"“{asked}” is not a date (use YYYY-MM-DD); showing today's figures."
    in_force = limits_in_force(on)
    rows = list(LawLimit.objects.all())
    current = {}
    for row in rows:
        if row.effective_from <= on and (
            row.name not in current or row.effective_from > current[row.name].effective_from
        ):
            current[row.name] = row
    return render(
        request,
        "rules/limits.html",
        {
            "on": on,
            "error": error,
            "current": sorted(current.values(), key=lambda r: r.get_name_display()),
            "history": rows,
            "in_force": in_force,
        },
    )


@dataclass(frozen=True)
class RefusedFilter:
    """The log's filter, read from the query string: a citation, an organization (among those
    offered: the viewer's scope) and a range of the dates the actions were judged for. A value
    that does not parse, or a date outside ``beano.date_filters``' bounds, is ignored, never an
    error page; ``ignored`` says why, for the page to show."""

    citation: str = ""
    organization_id: int | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    ignored: tuple[str, ...] = ()

    @classmethod
    def from_query(
        cls, params: QueryDict, organizations: Sequence[tuple[int, str]] = ()
    ) -> RefusedFilter:
        offered = {pk for pk, _ in organizations}
        organization = params.get("organization", "")
        today = timezone.localdate()
        date_from, from_problem = date_filters.parse(params.get("date_from"), today)
        date_to, to_problem = date_filters.parse(params.get("date_to"), today)
        return cls(
            citation=params.get("citation", "").strip()[:60],
            organization_id=int(organization)
            if organization.isdigit() and int(organization) in offered
            else None,
            date_from=date_from,
            date_to=date_to,
            ignored=tuple(dict.fromkeys(p for p in (from_problem, to_problem) if p)),
        )

    def apply(self, queryset: QuerySet[RefusedAction]) -> QuerySet[RefusedAction]:
        if self.citation:
            queryset = queryset.filter(citations__contains=self.citation)
        if self.organization_id is not None:
            queryset = queryset.filter(organization_id=self.organization_id)
        if self.date_from:
            queryset = queryset.filter(on_date__gte=self.date_from)
        if self.date_to:
            queryset = queryset.filter(on_date__lte=self.date_to)
        return queryset.order_by("-created_at", "-pk")

    def query(self) -> str:
        """The filter as a query string, for the pages' links and the CSV export."""
        return urlencode(
            {
                k: v
                for k, v in (
                    ("citation", self.citation),
                    ("organization", self.organization_id or ""),
                    ("date_from", self.date_from or ""),
                    ("date_to", self.date_to or ""),
                )
                if v
            }
        )


def refused_actions_page(
    request: HttpRequest,
    queryset: QuerySet[RefusedAction],
    context: dict[str, Any],
    organizations: Sequence[tuple[int, str]] = (),
    *,
    nav: str = "",
) -> HttpResponse:
    """The log of refused actions over ``queryset`` (already limited to the viewer's scope),
    filtered by citation, date and, when ``organizations`` are offered, organization. ``nav`` is
    the calling app's navigation, a template of its own drawn at the top with ``context`` (the
    rules name no template of an app above them)."""
    citations = sorted(
        {c for row in queryset.values_list("citations", flat=True) for c in row.split(", ") if c}
    )
    log_filter = RefusedFilter.from_query(request.GET, organizations)
    for problem in log_filter.ignored:
        messages.warning(request, problem)
    page = Paginator(log_filter.apply(queryset), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "rules/refused_actions.html",
        {
            **context,
            "nav": nav,
            "page": page,
            "filter": log_filter,
            "citation": log_filter.citation,
            "citations": citations,
            "organizations": organizations,
        },
    )

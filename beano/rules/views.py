"""Pages every signed-in user may read: the rules catalog and the limits in force. The log of
refused actions is for the Commission and for each organization's head and bookkeeper."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

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


def refused_actions_page(
    request: HttpRequest, queryset: QuerySet[RefusedAction], context: dict[str, Any]
) -> HttpResponse:
    """The log of refused actions over ``queryset`` (already limited to the viewer's scope),
    filtered by citation."""
    citations = sorted(
        {c for row in queryset.values_list("citations", flat=True) for c in row.split(", ") if c}
    )
    citation = request.GET.get("citation", "").strip()
    if citation:
        queryset = queryset.filter(citations__contains=citation)
    page = Paginator(queryset.order_by("-created_at"), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "rules/refused_actions.html",
        {**context, "page": page, "citation": citation, "citations": citations},
    )

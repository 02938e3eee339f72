"""The compliance pages, one per section, over a scope: the inspector's (every organization they
inspect) or one organization's. The views decide the scope; this module reads and renders."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from equipment import paper_selectors
from inspections import compliance, kept_reads, people
from inspections.filters import OccasionFilter, OccasionFilterForm
from organizations.models import Organization

#: The sections, in the order of their tabs.
SECTIONS = {
    "prizes": "Prizes and limits",
    "workers": "Workers on several lists",
    "winners": "Workers among winners",
    "equipment": "Equipment",
    "inventory": "Card inventory",
}
PER_PAGE = 25


def _year(value: str, default: int) -> int:
    return int(value) if value.isdigit() and 1971 <= int(value) <= 2100 else default


def query_without(request: HttpRequest, *names: str) -> str:
    """The page's query string without ``names`` (the page number), for its links."""
    params = request.GET.copy()
    for name in names:
        params.pop(name, None)
    return params.urlencode()


def compliance_page(
    request: HttpRequest,
    section: str,
    scope: QuerySet[Organization],
    organizations: list[Organization],
    context: dict[str, Any],
) -> HttpResponse:
    today = timezone.localdate()
    context = {
        **context,
        "section": section,
        "sections": SECTIONS,
        "title": SECTIONS[section],
        "query": query_without(request, "page"),
        "today": today,
    }
    if section in ("prizes", "winners"):
        form = OccasionFilterForm(request.GET, organizations=organizations, today=today)
        flt = OccasionFilter.from_form(form)
        occasions = compliance.occasions_in(scope, flt)
        context |= {"form": form, "filter": flt}
        if section == "prizes":
            only_flagged = request.GET.get("show") == "flagged"
            prizes = kept_reads.prize_list(
                occasions,
                only_flagged=only_flagged,
                page=request.GET.get("page"),
                per_page=PER_PAGE,
            )
            context |= {
                "flagged": prizes.flagged,
                "total": prizes.total,
                "only_flagged": only_flagged,
                "query_all": query_without(request, "page", "show"),
                "page": prizes.page,
            }
        else:
            context["winners"] = kept_reads.winners(occasions)
    elif section == "workers":
        year = _year(request.GET.get("year", ""), today.year)
        listed = people.people_on_several_lists(scope, year, today, page=request.GET.get("page"))
        context |= {
            "year": year,
            "limit": listed.limit,
            "people": listed.page,
            "page": listed.page,
            "total": listed.total,
            "over": listed.over,
        }
    elif section == "equipment":
        checked, problems = compliance.equipment_problems(scope, today)
        context |= {"checked": checked, "problems": problems}
    else:
        purchases = compliance.card_inventory(scope)
        context |= {
            "purchases": purchases,
            "totals": compliance.inventory_totals(purchases),
            "series": paper_selectors.series_across_occasions(scope.values_list("pk", flat=True)),
        }
    return render(request, f"inspections/compliance/{section}.html", context)

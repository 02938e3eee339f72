"""What the reports' pages share: who closes out and files, the access of the request, and the
date range of a page's query string."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.http import HttpRequest
from django.utils import timezone

from beano import date_filters
from organizations.access import OrgAccess


def access_of(request: HttpRequest) -> OrgAccess:
    return request.access


def date_range(request: HttpRequest) -> tuple[dt.date | None, dt.date | None, list[str]]:
    """The ``from`` and ``to`` of the query string, within ``beano.date_filters``' bounds, and
    what the page says of a date it ignores."""
    today = timezone.localdate()
    start, start_problem = date_filters.parse(request.GET.get("from"), today)
    end, end_problem = date_filters.parse(request.GET.get("to"), today)
    return start, end, list(dict.fromkeys(p for p in (start_problem, end_problem) if p))


def ranged(request: HttpRequest) -> tuple[dt.date | None, dt.date | None]:
    """A page's range; a date ignored is said in the page's messages."""
    start, end, problems = date_range(request)
    for problem in problems:
        messages.warning(request, problem)
    return start, end

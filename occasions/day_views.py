"""A past authorized day with nothing recorded, acted on from its day (the calendar, the
landing page and the Reports page link here): reported not played, by those who may record it
on the occasion page. The day's occasion is recorded and marked in one write, so a refusal
leaves nothing behind."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render

from beano import rules
from occasions import services
from occasions.forms import NotPlayedForm
from occasions.models import Occasion
from occasions.selectors import authorized_license
from organizations.access import OrgRequest, org_view
from organizations.forms import show_above, submit


def parse_day(value: str) -> dt.date:
    """The day of the URL, or 404."""
    try:
        return dt.date.fromisoformat(value)
    except ValueError as error:
        raise Http404 from error


@org_view()
def day_not_played(request: OrgRequest, day: str) -> HttpResponse:
    access = request.access
    org = access.organization
    the_day = parse_day(day)
    occasion = Occasion.objects.filter(organization=org, date=the_day).first()
    if occasion is None and authorized_license(org, the_day) is None:
        raise Http404
    if occasion is not None and occasion.status != Occasion.Status.SCHEDULED:
        return redirect("occasion_detail", org_id=org.pk, pk=occasion.pk)
    form = NotPlayedForm(request.POST if request.method == "POST" else None)

    def page() -> HttpResponse:
        return render(
            request,
            "occasions/form_page.html",
            {
                "org": org,
                "access": access,
                "tab": "occasions",
                "form": form,
                "title": f"Report {the_day:%A, %B %-d, %Y} not played",
                "citation": "961 CMR 3.05(1)(a): a report is still owed for a day not played",
                "submit_label": "Record not played",
            },
        )

    def not_played(data: dict[str, Any]) -> Occasion:
        with rules.atomic():
            occasion = services.occasion_for_day(organization=org, day=the_day, by=request.user)
            services.mark_not_played(occasion=occasion, reason=data["reason"], by=request.user)
        return occasion

    def done(occasion: Occasion) -> HttpResponse:
        messages.success(request, "Recorded as not played; its report is still owed.")
        return redirect("occasion_detail", org_id=org.pk, pk=occasion.pk)

    return submit(form, not_played, done=done, again=page, show=show_above)

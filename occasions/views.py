"""The calendar of occasions and each occasion's page, for the member in charge."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Prefetch, prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from beano import date_filters
from beano.prepared import Prepared
from occasions import extensions, selectors, services
from occasions.extras_selectors import extras_totals
from occasions.floor_bar import floor_bar
from occasions.forms import NotPlayedForm, PriceFormSet, ResumptionNoticeForm
from occasions.models import Occasion, PaperRecord, ResumptionNotice
from occasions.paper_people import night_from_paper
from occasions.sales_selectors import occasion_door
from organizations.access import OrgAccess, OrgRequest, found_for_org, org_view
from organizations.access_matrix import RUNS_THE_NIGHT
from organizations.forms import show_above, submit


def get_occasion(access: OrgAccess, pk: int) -> Occasion:
    """An occasion of this organization, or 404 (another organization's does not exist). Read
    by a statement compiled once per process: every page and write of the night reads it."""
    if isinstance(pk, str) and pk.isdigit():
        pk = int(pk)
    found = _OCCASION.all(access.organization.pk, pk) if isinstance(pk, int) else []
    return found_for_org(found, access)


_OCCASION = Prepared(
    lambda organization_id, pk: Occasion.objects.select_related("license", "organization").filter(
        organization_id=organization_id, pk=pk
    )
)


def _month(request: HttpRequest, today: dt.date) -> dt.date:
    """The month asked for (``?month=YYYY-MM``), or this one. A month outside
    ``beano.date_filters``' bounds (whose neighbours Python's dates may not even hold) shows this
    month, and the page says why."""
    value = request.GET.get("month")
    this_month = today.replace(day=1)
    try:
        month = dt.date.fromisoformat(f"{value}-01") if value else this_month
    except ValueError:
        return this_month
    if not date_filters.in_range(month, today):
        last = date_filters.latest(today)
        messages.warning(
            request,
            f"Give a month from {date_filters.EARLIEST:%B %Y} to {last:%B %Y}; "
            "this month is shown.",
        )
        return this_month
    return month


@org_view()
def calendar(request: OrgRequest) -> HttpResponse:
    access = request.access
    org = access.organization
    today = timezone.localdate()
    start = _month(request, today)
    end = (start + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    facts = selectors.resumption_facts(org, today)
    return render(
        request,
        "occasions/calendar.html",
        {
            "org": org,
            "access": access,
            "tab": "occasions",
            "days": selectors.calendar(org, start, end),
            "month": start,
            "previous_month": (start - dt.timedelta(days=1)).replace(day=1),
            "next_month": end + dt.timedelta(days=1),
            "today": today,
            "notice_needed": facts.previous_two_not_played
            and (facts.notice_sent_on is None or facts.notice_sent_on < facts.last_not_played_on),
            "notices": ResumptionNotice.objects.filter(organization=org)[:5],
            "can_run": access.has_role(*RUNS_THE_NIGHT),
        },
    )


@org_view()
@require_POST
def occasion_for_day(request: OrgRequest, day: str) -> HttpResponse:
    access = request.access

    def back(text: str) -> HttpResponse:
        messages.error(request, text)
        return redirect("occasion_calendar", org_id=access.organization.pk)

    try:
        the_day = dt.date.fromisoformat(day)
    except ValueError:
        return back("Not a date.")
    return submit(
        None,
        lambda _: services.occasion_for_day(
            organization=access.organization, day=the_day, by=request.user
        ),
        done=lambda occasion: redirect(
            "occasion_detail", org_id=access.organization.pk, pk=occasion.pk
        ),
        refused=lambda error: back("; ".join(error.messages)),
    )


@org_view()
def occasion_detail(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    # The header and the page both say which parts of the night came from paper: read once.
    prefetch_related_objects(
        [occasion],
        Prefetch("paper_records", queryset=PaperRecord.objects.select_related("entered_by")),
    )
    kept = extensions.kept_page(occasion)  # a closed night's door and extras, read once
    return render(
        request,
        "occasions/occasion_detail.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "can_run": access.has_role(*RUNS_THE_NIGHT),
            "not_played_form": NotPlayedForm(),
            "door": occasion_door(occasion, kept),
            "extras": extras_totals(occasion, kept),
            # The cards of the apps above (games, the report), each with the data it shows.
            "sections": extensions.sections(request, occasion),
            "floor": floor_bar(occasion),
            # A night entered from paper: who was in charge on its sheets, who typed it in.
            "from_paper": night_from_paper(occasion),
        },
    )


@org_view()
@require_POST
def occasion_not_played(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    form = NotPlayedForm(request.POST)

    def back(message: str, level: int = messages.ERROR) -> HttpResponse:
        messages.add_message(request, level, message)
        return redirect("occasion_detail", org_id=access.organization.pk, pk=occasion.pk)

    return submit(
        form,
        lambda data: services.mark_not_played(
            occasion=occasion, reason=data["reason"], by=request.user
        ),
        done=lambda _: back("Recorded as not played; its report is still owed.", messages.SUCCESS),
        again=lambda: back("Say why Beano was not played (up to 300 characters)."),
        refused=lambda error: back("; ".join(error.messages)),
    )


@org_view()
def resumption_notice(request: OrgRequest) -> HttpResponse:
    access = request.access
    form = ResumptionNoticeForm(request.POST if request.method == "POST" else None)

    def page() -> HttpResponse:
        return render(
            request,
            "occasions/form_page.html",
            {
                "org": access.organization,
                "access": access,
                "tab": "occasions",
                "form": form,
                "title": "Notice to the Commission before play resumes",
                "citation": "961 CMR 3.05(1)(b)",
            },
        )

    def done(_: object) -> HttpResponse:
        messages.success(request, "The notice of resumption is recorded.")
        return redirect("occasion_calendar", org_id=access.organization.pk)

    return submit(
        form,
        lambda data: services.record_resumption_notice(
            organization=access.organization, by=request.user, **data
        ),
        done=done,
        again=page,
        show=show_above,
    )


@org_view()
def price_list(request: OrgRequest, pk: int) -> HttpResponse:
    """The posted price list: editable until the occasion opens, then fixed (3.04(4)(c))."""
    access = request.access
    occasion = get_occasion(access, pk)
    can_run = access.has_role(*RUNS_THE_NIGHT)
    editable = occasion.status == Occasion.Status.SCHEDULED and can_run
    formset = PriceFormSet(initial=selectors.proposed_prices(occasion)) if editable else None

    def page(formset: Any) -> HttpResponse:
        return render(
            request,
            "occasions/price_list.html",
            {
                "org": access.organization,
                "access": access,
                "occasion": occasion,
                "items": occasion.price_items.all(),
                "formset": formset,
            },
        )

    if request.method != "POST" or not can_run:
        return page(formset)
    # Posted after the opening too: the rules service refuses it (3.04(4)(c)) and logs the
    # attempt, as it does every refusal; the page says so.
    posted = PriceFormSet(request.POST)
    valid = posted.is_valid()
    if not valid and editable:
        return page(posted)
    # After the opening, even a list typed wrong is judged (the list as posted stands in for
    # it): the refusal is the rules service's, with its paragraph, and logged.
    items = posted.items() if valid else selectors.posted_items(occasion)

    def refused(error: ValidationError) -> HttpResponse:
        if not editable:
            for message in error.messages:
                messages.error(request, message)
        posted._non_form_errors = posted.error_class(error.messages)
        return page(posted if editable else None)

    def done(_: object) -> HttpResponse:
        messages.success(request, "The price list is posted.")
        return redirect("price_list", org_id=access.organization.pk, pk=occasion.pk)

    return submit(
        None,
        lambda _: services.set_price_list(occasion=occasion, items=items, by=request.user),
        done=done,
        refused=refused,
    )


@org_view()
def price_list_print(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    return render(
        request,
        "occasions/price_list_print.html",
        {"org": access.organization, "occasion": occasion, "items": occasion.price_items.all()},
    )

"""The calendar of occasions and each occasion's page, for the member in charge."""

from __future__ import annotations

import datetime as dt

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
    try:
        occasion = services.occasion_for_day(
            organization=access.organization, day=dt.date.fromisoformat(day), by=request.user
        )
    except (ValueError, ValidationError) as error:
        text = "; ".join(error.messages) if isinstance(error, ValidationError) else "Not a date."
        messages.error(request, text)
        return redirect("occasion_calendar", org_id=access.organization.pk)
    return redirect("occasion_detail", org_id=access.organization.pk, pk=occasion.pk)


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
    if form.is_valid():
        try:
            services.mark_not_played(
                occasion=occasion, reason=form.cleaned_data["reason"], by=request.user
            )
        except ValidationError as error:
            messages.error(request, "; ".join(error.messages))
        else:
            messages.success(request, "Recorded as not played; its report is still owed.")
    else:
        messages.error(request, "Say why Beano was not played (up to 300 characters).")
    return redirect("occasion_detail", org_id=access.organization.pk, pk=occasion.pk)


@org_view()
def resumption_notice(request: OrgRequest) -> HttpResponse:
    access = request.access
    form = ResumptionNoticeForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            services.record_resumption_notice(
                organization=access.organization, by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            messages.success(request, "The notice of resumption is recorded.")
            return redirect("occasion_calendar", org_id=access.organization.pk)
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


@org_view()
def price_list(request: OrgRequest, pk: int) -> HttpResponse:
    """The posted price list: editable until the occasion opens, then fixed (3.04(4)(c))."""
    access = request.access
    occasion = get_occasion(access, pk)
    can_run = access.has_role(*RUNS_THE_NIGHT)
    editable = occasion.status == Occasion.Status.SCHEDULED and can_run
    formset = PriceFormSet(initial=selectors.proposed_prices(occasion)) if editable else None
    if request.method == "POST" and can_run:
        # Posted after the opening too: the rules service refuses it (3.04(4)(c)) and logs the
        # attempt, as it does every refusal; the page says so.
        posted = PriceFormSet(request.POST)
        valid = posted.is_valid()
        if valid or not editable:
            # After the opening, even a list typed wrong is judged (the list as posted stands
            # in for it): the refusal is the rules service's, with its paragraph, and logged.
            items = posted.items() if valid else selectors.posted_items(occasion)
            try:
                services.set_price_list(occasion=occasion, items=items, by=request.user)
            except ValidationError as error:
                if not editable:
                    for message in error.messages:
                        messages.error(request, message)
                posted._non_form_errors = posted.error_class(error.messages)
            else:
                messages.success(request, "The price list is posted.")
                return redirect("price_list", org_id=access.organization.pk, pk=occasion.pk)
        formset = posted if editable else None
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


@org_view()
def price_list_print(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    return render(
        request,
        "occasions/price_list_print.html",
        {"org": access.organization, "occasion": occasion, "items": occasion.price_items.all()},
    )

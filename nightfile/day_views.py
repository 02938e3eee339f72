"""The way in to a night from paper from its day: a past authorized day with nothing recorded
(the calendar, the landing page and the Reports page link here). Beginning records the day's
occasion, as preparing it does, and the whole night as coming from paper, in one write: a refusal
leaves nothing behind. What a live opening needs (the flashboard link, the checklist confirmed
on the floor) is not asked; the sheets are typed in from the sign-in sheet on."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from beano import rules
from nightfile.views import SECTIONS, _refusal
from occasions import paper
from occasions import services as occasion_services
from occasions.day_views import parse_day
from occasions.models import Occasion, PaperRecord
from occasions.selectors import authorized_license
from organizations.access import OrgRequest, org_view


class DayBeginForm(forms.Form):
    """The whole night from paper: which sheets, and why it was not recorded live."""

    sheets = forms.CharField(
        label="Control sheets entered",
        max_length=300,
        help_text="As they are filed for inspection, e.g. sign-in sheet, checklist, door tally, "
        "game sheets 1–12, payouts.",
    )
    reason = forms.CharField(
        label="Why the night was not recorded live",
        max_length=300,
        help_text="E.g. played on paper: the laptop was not there.",
    )


@org_view()
def paper_for_day(request: OrgRequest, day: str) -> HttpResponse:
    """GET: the day, and what comes from paper; POST: record the day's occasion and the whole
    night as entered from paper, then on to the sign-in sheet. A day already begun goes to its
    paper records."""
    access = request.access
    org = access.organization
    the_day = parse_day(day)
    occasion = Occasion.objects.filter(organization=org, date=the_day).first()
    if occasion is None and authorized_license(org, the_day) is None:
        raise Http404
    if occasion is not None and (
        occasion.status != Occasion.Status.SCHEDULED
        or PaperRecord.objects.filter(occasion=occasion).exists()
    ):
        return redirect("paper_home", org_id=org.pk, pk=occasion.pk)
    if the_day > timezone.localdate():
        messages.error(request, "A night still to come is not entered from paper.")
        return redirect("occasion_calendar", org_id=org.pk)
    form = DayBeginForm(request.POST if request.method == "POST" else None)
    refusal = None
    if request.method == "POST" and form.is_valid():
        try:
            with rules.atomic():
                occasion = occasion_services.occasion_for_day(
                    organization=org, day=the_day, by=request.user
                )
                paper.begin(
                    occasion=occasion,
                    sheets=form.cleaned_data["sheets"],
                    reason=form.cleaned_data["reason"],
                    by=request.user,
                )
        except ValidationError as error:
            refusal = _refusal(error)
        else:
            messages.success(request, "Now type in the sheets, top to bottom.")
            return redirect("paper_section", org_id=org.pk, pk=occasion.pk, section="workers")
    return render(
        request,
        "nightfile/day.html",
        {
            "org": org,
            "access": access,
            "tab": "occasions",
            "day": the_day,
            "form": form,
            "refusal": refusal,
            "sections": SECTIONS,
            "night_upload_url": reverse("night_upload", args=[org.pk])
            if access.offers("night_upload")
            else "",
        },
    )

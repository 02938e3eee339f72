"""Worker list pages (961 CMR 3.04(1)(b)): the list of a year, judged again today; adding,
editing and removing a person; recording a conviction; and the printable list for the premises.
Every view goes through ``org_view`` (404 outside, 403 on writes)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from organizations import worker_selectors, worker_services
from organizations.access import OrgRequest, get_for_org, org_view
from organizations.access_matrix import RUNS_THE_NIGHT as WRITERS
from organizations.forms import submit
from organizations.models import WorkerListEntry
from organizations.worker_forms import (
    AddWorkerForm,
    ConvictionForm,
    RemoveWorkerForm,
    WorkerEntryForm,
)

FIRST_YEAR, LAST_YEAR = 1971, 2100


def _year(request: HttpRequest) -> int:
    """The ``year`` asked for, or this year when it is missing or not a sensible year."""
    today = timezone.localdate()
    try:
        year = int(request.GET.get("year", today.year))
    except (TypeError, ValueError):
        return today.year
    return year if FIRST_YEAR <= year <= LAST_YEAR else today.year


def _list_url(org_id: int, year: int) -> str:
    return f"{reverse('worker_list', args=[org_id])}?year={year}"


def _form_page(request: OrgRequest, form: forms.Form, title: str, **extra: Any) -> HttpResponse:
    access = request.access
    return render(
        request,
        "organizations/worker_form.html",
        {"org": access.organization, "access": access, "form": form, "title": title, **extra},
    )


@org_view()
def worker_list(request: OrgRequest) -> HttpResponse:
    access = request.access
    today = timezone.localdate()
    year = _year(request)
    review = worker_selectors.worker_list_review(access.organization, year, today=today)
    return render(
        request,
        "organizations/worker_list.html",
        {
            "org": access.organization,
            "access": access,
            "review": review,
            "year": year,
            "years": worker_selectors.list_years(access.organization, today),
            "can_write": access.has_role(*WRITERS),
        },
    )


@org_view()
def worker_list_print(request: OrgRequest) -> HttpResponse:
    access = request.access
    org = access.organization
    today = timezone.localdate()
    year = _year(request)
    rows = [e for e in worker_selectors.entries(org, year) if e.is_active]
    return render(
        request,
        "organizations/worker_list_print.html",
        {
            "org": org,
            "year": year,
            "rows": rows,
            "license": org.current_license(worker_services.judging_date(year, today)),
            "printed_on": today,
        },
    )


@org_view()
def worker_add(request: OrgRequest) -> HttpResponse:
    access = request.access
    org = access.organization
    year = _year(request)
    form = AddWorkerForm(
        request.POST if request.method == "POST" else None,
        organization=org,
        year=year,
        initial={"added_on": worker_services.judging_date(year, timezone.localdate())},
    )

    def add(data: dict[str, Any]) -> Any:
        return worker_services.add_to_worker_list(
            organization=org,
            year=year,
            person=data["person"],
            roles=data["roles"],
            identification=data["identification"],
            compensated=data["compensated"],
            compensation_note=data["compensation_note"],
            good_moral_character_attested=data["good_moral_character_attested"],
            attested_by=data["attested_by"],
            on=data["added_on"],
            by=request.user,
        )

    def added(entry: Any) -> HttpResponse:
        messages.success(request, f"{entry.person} is on the {year} worker list.")
        return redirect(_list_url(org.pk, year))

    return submit(
        form,
        add,
        done=added,
        again=lambda: _form_page(
            request, form, f"Add a person to the {year} worker list", year=year
        ),
    )


@org_view()
def worker_edit(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    entry = get_for_org(
        WorkerListEntry.objects.select_related("person", "worker_list"),
        access,
        via="worker_list__organization",
        pk=pk,
    )
    year = entry.worker_list.year
    form = WorkerEntryForm(
        request.POST if request.method == "POST" else None,
        initial={
            name: getattr(entry, name)
            for name in (
                "roles",
                "identification",
                "compensated",
                "compensation_note",
                "good_moral_character_attested",
                "attested_by",
            )
        },
    )

    def saved(_: Any) -> HttpResponse:
        messages.success(request, f"{entry.person}'s place on the list was saved.")
        return redirect(_list_url(access.organization.pk, year))

    return submit(
        form,
        lambda values: worker_services.update_worker_list_entry(
            entry=entry,
            on=worker_services.judging_date(year, timezone.localdate()),
            by=request.user,
            **values,
        ),
        done=saved,
        again=lambda: _form_page(
            request, form, f"{entry.person} on the {year} worker list", year=year
        ),
    )


@org_view()
def worker_remove(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    entry = get_for_org(
        WorkerListEntry.objects.select_related("person", "worker_list"),
        access,
        via="worker_list__organization",
        pk=pk,
    )
    year = entry.worker_list.year
    form = RemoveWorkerForm(
        request.POST if request.method == "POST" else None,
        initial={"removed_on": worker_services.judging_date(year, timezone.localdate())},
    )

    def removed(_: Any) -> HttpResponse:
        messages.success(request, f"{entry.person} was taken off the {year} worker list.")
        return redirect(_list_url(access.organization.pk, year))

    return submit(
        form,
        lambda values: worker_services.remove_from_worker_list(
            entry=entry, on=values["removed_on"], by=request.user
        ),
        done=removed,
        again=lambda: _form_page(
            request, form, f"Remove {entry.person} from the {year} list", year=year
        ),
    )


@org_view()
def conviction_add(request: OrgRequest) -> HttpResponse:
    access = request.access
    org = access.organization
    year = _year(request)
    form = ConvictionForm(request.POST if request.method == "POST" else None, organization=org)

    def recorded(conviction: Any) -> HttpResponse:
        messages.success(request, f"The conviction of {conviction.person} was recorded.")
        return redirect(_list_url(org.pk, year))

    return submit(
        form,
        lambda values: worker_services.record_conviction(
            organization=org, today=timezone.localdate(), by=request.user, **values
        ),
        done=recorded,
        again=lambda: _form_page(
            request, form, "Record a conviction (961 CMR 3.04(1)(i))", year=year
        ),
    )

"""The one filter of the inspector's lists and exports: organization, date range, town, status
and a search by license number, person's name or worker ID. A list and its CSV export read the
same form, so an export holds exactly the rows the list shows."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

from django import forms
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import QueryDict

from beano import date_filters
from beano.text import one_line
from beano.widgets import QuickSelect
from games.models import Winner
from occasions.models import Occasion, PaperRecord, WorkerPresence
from organizations.models import License, Organization, Person, WorkerListEntry

SEARCH_LENGTH = 100


class OccasionFilterForm(forms.Form):
    """Bound to ``request.GET``; every field optional. Only organizations in the user's scope
    are offered, so an organization outside it is simply not a valid choice."""

    organization = forms.ModelChoiceField(
        queryset=Organization.objects.none(),
        required=False,
        empty_label="Every organization",
        widget=QuickSelect,
    )
    date_from = forms.DateField(
        required=False, label="From", widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        required=False, label="To", widget=forms.DateInput(attrs={"type": "date"})
    )
    town = forms.ChoiceField(required=False, choices=[("", "Every town")], widget=QuickSelect)
    status = forms.ChoiceField(
        required=False, choices=[("", "Every status"), *Occasion.Status.choices]
    )
    entered = forms.ChoiceField(
        required=False,
        label="Entered",
        choices=[
            ("", "Any way"),
            ("paper", "From paper"),
            ("closed_late", "Closed late"),
        ],
    )
    q = forms.CharField(
        required=False,
        max_length=SEARCH_LENGTH,
        label="Search",
        widget=forms.TextInput(
            attrs={"placeholder": "License no., a name or a worker ID", "type": "search"}
        ),
    )

    def __init__(
        self, data: QueryDict, *, organizations: list[Organization], today: dt.date
    ) -> None:
        if "date_to" not in data:
            # The lists look back from today unless asked otherwise (a cleared field asks for
            # every date); the exports read the same query string, so they agree.
            data = data.copy()
            data["date_to"] = today.isoformat()
        super().__init__(data)
        self.today = today
        organization = cast(forms.ModelChoiceField, self.fields["organization"])
        organization.queryset = Organization.objects.filter(pk__in=[o.pk for o in organizations])
        # Offered from the list in hand (in its order, by name), not read again; a choice made
        # is still checked against the queryset.
        organization.widget.choices = [
            ("", organization.empty_label),
            *((o.pk, str(o)) for o in organizations),
        ]
        towns = sorted({o.town for o in organizations})
        town = cast(forms.ChoiceField, self.fields["town"])
        town.choices = [("", "Every town"), *((t, t) for t in towns)]
        for bound in self.fields.values():
            css = "form-select" if isinstance(bound.widget, forms.Select) else "form-control"
            bound.widget.attrs.setdefault("class", css)

    def _bounded(self, name: str) -> dt.date | None:
        day = self.cleaned_data.get(name)
        if day is not None and not date_filters.in_range(day, self.today):
            raise forms.ValidationError(date_filters.out_of_range(self.today))
        return day

    def clean_date_from(self) -> dt.date | None:
        return self._bounded("date_from")

    def clean_date_to(self) -> dt.date | None:
        return self._bounded("date_to")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", "The end of the range comes before its start.")
        return data


#: The most occasions a search's matches are read once for, as a list of ids.
MATCHES_READ_ONCE = 2_000


@dataclass(frozen=True)
class OccasionFilter:
    """The filter as read from a valid form (an invalid field is ignored, never an error page)."""

    organization: Organization | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    town: str = ""
    status: str = ""
    #: "paper": nights entered from paper sheets; "closed_late": closes recorded after the fact.
    entered: str = ""
    q: str = ""

    @classmethod
    def from_form(cls, form: OccasionFilterForm) -> OccasionFilter:
        form.is_valid()
        data = {k: v for k, v in form.cleaned_data.items() if k not in form.errors}
        return cls(
            organization=data.get("organization"),
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            town=data.get("town") or "",
            status=data.get("status") or "",
            entered=data.get("entered") or "",
            q=one_line(data.get("q")),
        )

    @property
    def narrows_organizations(self) -> bool:
        """Whether the filter selects some of the organizations, not only a period."""
        return bool(self.organization or self.town or self.status or self.entered or self.q)

    def organizations(self, queryset: QuerySet[Organization]) -> QuerySet[Organization]:
        if self.organization is not None:
            queryset = queryset.filter(pk=self.organization.pk)
        if self.town:
            queryset = queryset.filter(town=self.town)
        if self.q:
            queryset = queryset.filter(_organization_matches(self.q))
        return queryset

    def occasions(self, queryset: QuerySet[Occasion]) -> QuerySet[Occasion]:
        if self.organization is not None:
            queryset = queryset.filter(organization=self.organization)
        if self.date_from:
            queryset = queryset.filter(date__gte=self.date_from)
        if self.date_to:
            queryset = queryset.filter(date__lte=self.date_to)
        if self.town:
            queryset = queryset.filter(organization__town=self.town)
        if self.status:
            queryset = queryset.filter(status=self.status)
        if self.entered == "paper":
            queryset = queryset.filter(
                Exists(PaperRecord.objects.filter(occasion_id=OuterRef("pk")))
            )
        elif self.entered == "closed_late":
            queryset = queryset.filter(close_recorded_at__isnull=False)
        if self.q:
            queryset = queryset.filter(self._matching_occasions)
        return queryset

    @cached_property
    def _matching_occasions(self) -> Q:
        """The occasions the search matches: their ids, read once, when they are a few (a
        worker's nights); else the search itself, run in each statement. A page reads the
        filter's occasions three times (the list, its count, the trend's medians), and each
        search reads the people, the worker lists and the winners' names."""
        matches = _occasion_matches(self.q)
        ids = list(
            Occasion.objects.filter(matches).values_list("pk", flat=True)[: MATCHES_READ_ONCE + 1]
        )
        return Q(pk__in=ids) if len(ids) <= MATCHES_READ_ONCE else matches


def _person_matches(q: str, prefix: str = "") -> Q:
    return Q(**{f"{prefix}legal_name__icontains": q}) | Q(
        **{f"{prefix}commission_worker_id__iexact": q}
    )


def _organization_matches(q: str) -> Q:
    """An organization whose license number is searched, or on whose worker lists the person
    searched for appears (by name or worker ID)."""
    licensed = License.objects.filter(number__icontains=q).values("organization_id")
    listed = WorkerListEntry.objects.filter(_person_matches(q, "person__")).values(
        "worker_list__organization_id"
    )
    return Q(pk__in=licensed) | Q(name__icontains=q) | Q(pk__in=listed)


def _occasion_matches(q: str) -> Q:
    """An occasion under the license searched for, or at which the person searched for worked
    (signed in from the worker list) or won (a known person, or the name given). Each match is
    a set read once (``pk IN``), not a search run again for every occasion."""
    people = Person.objects.filter(_person_matches(q)).values("pk")
    worked = WorkerPresence.objects.filter(entry__person__in=people).values("occasion_id")
    won = Winner.objects.values("claim__game__occasion_id")
    return (
        Q(license__number__icontains=q)
        | Q(organization__name__icontains=q)
        | Q(pk__in=worked)
        | Q(pk__in=won.filter(person__in=people))
        | Q(pk__in=won.filter(player_name__icontains=q))
    )

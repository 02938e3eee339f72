"""The exceptions report for the Commission: variances over a threshold, late or missing
deposits, months of a gaming account not reconciled, across the organizations in scope;
filtered as the other inspector pages are (organization, period, town, search), by kind and by
the threshold; and its CSV, the same rows."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from beano.csv_files import csv_response
from beano.rules.money import CASH, MoneyField
from inspections import selectors
from inspections.compliance_views import query_without
from inspections.exceptions import SOURCES, ExceptionQuery, ExceptionRow, exceptions
from inspections.filters import OccasionFilter, OccasionFilterForm
from organizations.access import commission_view
from reports.figures import variance_threshold

PER_PAGE = 50
HEADER = ["Organization", "Date", "Kind", "Exception", "Detail", "Amount"]


class ExceptionKindForm(forms.Form):
    kind = forms.ChoiceField(required=False, label="Kind")
    threshold = MoneyField(
        kind=CASH,
        required=False,
        label="Variances over",
        help_text="Dollars; by default the close-out's threshold.",
    )

    def __init__(self, data: Any) -> None:
        super().__init__(data)
        kind = self.fields["kind"]
        kind.choices = [("", "Every kind"), *((k, label) for k, (label, _f) in SOURCES.items())]  # type: ignore[attr-defined]
        for field in self.fields.values():
            css = "form-select" if isinstance(field.widget, forms.Select) else "form-control"
            field.widget.attrs.setdefault("class", css)

    def chosen(self) -> tuple[list[str] | None, Decimal]:
        """The kinds asked for (None: every kind) and the threshold; a bad value is ignored."""
        self.is_valid()
        data = {k: v for k, v in self.cleaned_data.items() if k not in self.errors}
        kind = data.get("kind") or ""
        threshold = data.get("threshold")
        return ([kind] if kind else None), (
            variance_threshold() if threshold is None else threshold
        )


def _query(request: HttpRequest) -> tuple[Any, ...]:
    today = timezone.localdate()
    form = OccasionFilterForm(
        request.GET, organizations=selectors.organizations_in_scope(request.user), today=today
    )
    flt = OccasionFilter.from_form(form)
    kind_form = ExceptionKindForm(request.GET)
    kinds, threshold = kind_form.chosen()
    query = ExceptionQuery(
        organizations=flt.organizations(selectors.scope(request.user)),
        date_from=flt.date_from,
        date_to=flt.date_to,
        threshold=threshold,
        today=today,
    )
    return form, kind_form, query, kinds, today


@commission_view
def exceptions_page(request: HttpRequest) -> HttpResponse:
    form, kind_form, query, kinds, today = _query(request)
    rows = exceptions(query, kinds)
    return render(
        request,
        "inspections/exceptions.html",
        {
            "form": form,
            "kind_form": kind_form,
            "threshold": query.threshold,
            "labels": {k: label for k, (label, _f) in SOURCES.items()},
            "total": len(rows),
            "page": Paginator(rows, PER_PAGE).get_page(request.GET.get("page")),
            "query": query_without(request, "page"),
            "section": "exceptions",
            "today": today,
        },
    )


def _csv_row(row: ExceptionRow) -> list[Any]:
    label = SOURCES[row.kind][0]
    return [row.organization.name, row.day, label, row.subject, row.detail, row.amount]


@commission_view
def exceptions_csv(request: HttpRequest) -> HttpResponse:
    _form, _kind_form, query, kinds, today = _query(request)
    return csv_response(
        f"beano-exceptions-{today}.csv", HEADER, (_csv_row(r) for r in exceptions(query, kinds))
    )

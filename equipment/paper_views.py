"""The paper-by-serial pages: an occasion's paper (issued to the door, counted back, set against
the door's counts by category, the difference explained) and the organization's paper stock
(destructions and stock-takes, each witnessed). Reads are open to the organization's members and
its inspectors; writes to the head, the member in charge (the night's paper) and the bookkeeper.
A refusal comes back on its form, with the page, and nothing is saved."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from equipment import extensions, paper_selectors, paper_services
from equipment.models import PaperIssue
from equipment.paper_forms import (
    CountBackForm,
    DestructionForm,
    ExplainForm,
    IssueForm,
    StockTakeForm,
)
from occasions.floor_bar import floor_bar
from occasions.models import Occasion
from occasions.views import get_occasion
from organizations.access import OrgRequest, get_for_org, org_view
from organizations.access_matrix import CLOSES_OUT as KEEPS_STOCK
from organizations.access_matrix import ENTERS as HANDLES_PAPER
from organizations.forms import submit


def occasion_paper_page(
    request: OrgRequest, occasion: Occasion, *, status: int = 200, **forms: Any
) -> HttpResponse:
    access = request.access
    door = extensions.door_counts(occasion)
    paper = paper_selectors.occasion_paper(occasion, door)
    failed_issue = forms.get("count_issue")
    count_forms = [
        (
            issue,
            forms["count_form"]
            if failed_issue == issue.pk
            else CountBackForm(
                occasion=occasion,
                initial={"returned": issue.returned, "voided": issue.voided},
                prefix=f"issue-{issue.pk}",
            ),
        )
        for issue in paper.issues
    ]
    return render(
        request,
        "equipment/paper/occasion.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "floor": floor_bar(occasion, "close"),
            "paper": paper,
            "count_forms": count_forms,
            "issue_form": forms.get("issue_form") or IssueForm(occasion=occasion),
            "explain_form": forms.get("explain_form")
            or ExplainForm(
                initial={"explanation": paper.explanation.text if paper.explanation else ""}
            ),
            "can_write": access.has_role(*HANDLES_PAPER) and occasion.sealed_at is None,
        },
        status=status,
    )


def _back(request: OrgRequest, occasion: Occasion, done: str) -> HttpResponse:
    messages.success(request, done)
    return redirect("occasion_serials", org_id=occasion.organization_id, pk=occasion.pk)


@org_view()
def occasion_serials(request: OrgRequest, pk: int) -> HttpResponse:
    """The occasion's paper by serial."""
    return occasion_paper_page(request, get_occasion(request.access, pk))


@org_view()
@require_POST
def issue(request: OrgRequest, pk: int) -> HttpResponse:
    occasion = get_occasion(request.access, pk)
    form = IssueForm(request.POST, occasion=occasion)
    return submit(
        form,
        lambda _v: paper_services.issue_paper(
            occasion=occasion, by=request.user, **form.service_values()
        ),
        done=lambda i: _back(request, occasion, f"Serials {i.serial_from}–{i.serial_to} issued."),
        again=lambda: occasion_paper_page(request, occasion, status=400, issue_form=form),
    )


@org_view()
@require_POST
def count_back(request: OrgRequest, pk: int, issue_id: int) -> HttpResponse:
    occasion = get_occasion(request.access, pk)
    row = get_for_org(
        PaperIssue.objects.filter(occasion=occasion),
        request.access,
        via="occasion__organization",
        pk=issue_id,
    )
    form = CountBackForm(request.POST, occasion=occasion, prefix=f"issue-{row.pk}")
    return submit(
        form,
        lambda _v: paper_services.count_back(issue=row, by=request.user, **form.service_values()),
        done=lambda i: _back(
            request, occasion, f"{i.sold} sold of serials {i.serial_from}–{i.serial_to}."
        ),
        again=lambda: occasion_paper_page(
            request, occasion, status=400, count_issue=row.pk, count_form=form
        ),
    )


@org_view()
@require_POST
def explain(request: OrgRequest, pk: int) -> HttpResponse:
    occasion = get_occasion(request.access, pk)
    form = ExplainForm(request.POST)
    return submit(
        form,
        lambda v: paper_services.explain_paper(
            occasion=occasion, explanation=v["explanation"], by=request.user
        ),
        done=lambda _: _back(request, occasion, "The difference is explained."),
        again=lambda: occasion_paper_page(request, occasion, status=400, explain_form=form),
    )


def stock_page(request: OrgRequest, *, status: int = 200, **forms: Any) -> HttpResponse:
    access = request.access
    org = access.organization
    return render(
        request,
        "equipment/paper/stock.html",
        {
            "org": org,
            "access": access,
            "stock": paper_selectors.stock_page(org),
            "destroy_form": forms.get("destroy_form") or DestructionForm(organization=org),
            "take_form": forms.get("take_form") or StockTakeForm(organization=org),
            "can_write": access.has_role(*KEEPS_STOCK),
        },
        status=status,
    )


@org_view()
def paper_stock(request: OrgRequest) -> HttpResponse:
    """The organization's paper: on hand by purchase, destructions and stock-takes."""
    return stock_page(request)


def _stock_saved(request: OrgRequest, done: str) -> HttpResponse:
    messages.success(request, done)
    return redirect("paper_stock", org_id=request.access.organization.pk)


@org_view()
@require_POST
def destroy(request: OrgRequest) -> HttpResponse:
    form = DestructionForm(request.POST, organization=request.access.organization)
    return submit(
        form,
        lambda v: paper_services.destroy_paper(by=request.user, **v),
        done=lambda d: _stock_saved(request, f"{d.quantity} cards recorded as destroyed."),
        again=lambda: stock_page(request, status=400, destroy_form=form),
    )


@org_view()
@require_POST
def stock_take(request: OrgRequest) -> HttpResponse:
    form = StockTakeForm(request.POST, organization=request.access.organization)
    return submit(
        form,
        lambda v: paper_services.take_stock(by=request.user, **v),
        done=lambda t: _stock_saved(request, f"The count of {t.counted} is recorded."),
        again=lambda: stock_page(request, status=400, take_form=form),
    )

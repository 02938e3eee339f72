"""Organization pages. Every view goes through ``org_view`` (404 outside, 403 on writes)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from beano.rules.models import RefusedAction
from beano.rules.views import refused_actions_page
from beano.uploads import serve_document
from organizations import extensions, selectors, services
from organizations.access import OrgRequest, commission_staff, get_for_org, org_view
from organizations.forms import (
    AddMemberForm,
    MembershipForm,
    OrganizationDetailsForm,
    submit,
)
from organizations.models import DirectorAuthorization, Membership, Role
from organizations.verification import page_check


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The landing page, by role: member in charge sees the next occasions, bookkeeper the
    reports coming due, admin the Commission tools; an inspector lands on the inspection
    dashboard."""
    today = timezone.localdate()
    staff = commission_staff(request.user)
    landing = extensions.landing(staff.kind) if staff is not None else None
    if landing:  # an inspector's landing page is the inspections' (organizations.extensions)
        return redirect(landing)
    organizations = list(selectors.organizations_for_user(request.user))
    roles_by_org: dict[int, set[str]] = {}
    for assignment in request.user.org_roles.all():
        roles_by_org.setdefault(assignment.organization_id, set()).add(assignment.role)
    cards = []
    for org in organizations:
        current = next(iter(org.prefetched_licenses), None)
        roles = roles_by_org.get(org.pk, set())
        cards.append(
            {
                "organization": org,
                "roles": sorted(roles),
                # What is left open goes first to those who close a night, even after the fact.
                "top_panels": extensions.panels(org, "dashboard_top")
                if roles & {Role.MEMBER_IN_CHARGE, Role.HEAD, Role.BOOKKEEPER}
                else [],
                "floor_panels": extensions.panels(org, "dashboard_floor")
                if roles & {Role.MEMBER_IN_CHARGE, Role.HEAD, Role.WORKER}
                else [],
                "license": current,
                # Tonight has its own panel (``dashboard_floor``): the next ones start tomorrow.
                "upcoming": selectors.upcoming_authorized_days(org, today + dt.timedelta(days=1)),
                # A practice license's days owe no report (License.practice); the reports
                # owed are shown to those who file them.
                "filing_panels": extensions.panels(org, "dashboard")
                if not (current is not None and current.practice)
                and roles & {Role.HEAD, Role.BOOKKEEPER}
                else [],
            }
        )
    return render(
        request,
        "organizations/dashboard.html",
        {"cards": cards, "staff": staff, "today": today, "Role": Role},
    )


@org_view()
def organization_home(request: OrgRequest) -> HttpResponse:
    access = request.access
    org = access.organization
    today = timezone.localdate()
    return render(
        request,
        "organizations/organization_home.html",
        {
            "org": org,
            "access": access,
            "licenses": org.licenses.order_by("-valid_from"),
            "upcoming": selectors.upcoming_authorized_days(org, today, count=6),
            "side_panels": extensions.panels(org, "home_side"),
            "bottom_panels": extensions.panels(org, "home_bottom"),
        },
    )


@org_view()
def organization_edit(request: OrgRequest) -> HttpResponse:
    access = request.access
    org = access.organization
    form = OrganizationDetailsForm(request.POST if request.method == "POST" else None, instance=org)

    def saved(_: Any) -> HttpResponse:
        messages.success(request, "The organization's details were saved.")
        return redirect("organization_home", org_id=org.pk)

    def again() -> HttpResponse:
        org.refresh_from_db()
        return render(
            request,
            "organizations/form_page.html",
            {"org": org, "access": access, "form": form, "title": "Address and contact details"},
        )

    return submit(
        form,
        lambda values: services.update_organization_details(
            organization=org, by=request.user, **{name: values[name] for name in form.Meta.fields}
        ),
        done=saved,
        again=again,
    )


@org_view()
def member_list(request: OrgRequest) -> HttpResponse:
    access = request.access
    today = timezone.localdate()
    rows = [
        {"m": m, "good_standing": m.in_good_standing_on(today), "age": m.person.age_on(today)}
        for m in selectors.memberships(access.organization)
    ]
    return render(
        request,
        "organizations/member_list.html",
        {
            "org": access.organization,
            "access": access,
            "rows": rows,
            "today": today,
        },
    )


@org_view()
def member_add(request: OrgRequest) -> HttpResponse:
    access = request.access
    org = access.organization
    form = AddMemberForm(request.POST if request.method == "POST" else None, organization=org)

    def added(membership: Any) -> HttpResponse:
        messages.success(request, f"{membership.person} was added to the membership list.")
        return redirect("member_list", org_id=org.pk)

    return submit(
        form,
        lambda values: services.add_member(organization=org, by=request.user, **values),
        done=added,
        again=lambda: render(
            request,
            "organizations/form_page.html",
            {"org": org, "access": access, "form": form, "title": "Add a member"},
        ),
    )


@org_view()
def member_edit(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    membership = get_for_org(Membership.objects.select_related("person"), access, pk=pk)
    form = MembershipForm(
        request.POST if request.method == "POST" else None,
        initial={
            "kind": membership.kind,
            "until": membership.until,
            "relationship": membership.relationship,
        },
    )

    def saved(_: Any) -> HttpResponse:
        messages.success(request, f"{membership.person}'s standing was saved.")
        return redirect("member_list", org_id=access.organization.pk)

    return submit(
        form,
        lambda values: services.update_membership(membership=membership, by=request.user, **values),
        done=saved,
        again=lambda: render(
            request,
            "organizations/form_page.html",
            {
                "org": access.organization,
                "access": access,
                "form": form,
                "title": f"Standing of {membership.person}",
            },
        ),
    )


@org_view()
def audit_log(request: OrgRequest) -> HttpResponse:
    access = request.access
    page = Paginator(selectors.audit_events(access.organization).select_related("actor"), 50)
    return render(
        request,
        "organizations/audit_log.html",
        {
            "org": access.organization,
            "access": access,
            "page": page.get_page(request.GET.get("page")),
            "check": page_check(access.organization),
        },
    )


@org_view()
def authorization_list(request: OrgRequest) -> HttpResponse:
    """The Director's written authorizations: read-only here, managed by Commission admins."""
    access = request.access
    today = timezone.localdate()
    rows = [
        {"a": a, "valid_today": a.valid_on(today)}
        for a in selectors.authorizations(access.organization)
    ]
    return render(
        request,
        "organizations/authorization_list.html",
        {"org": access.organization, "access": access, "rows": rows, "today": today},
    )


@org_view()
def authorization_document(request: OrgRequest, pk: int) -> FileResponse:
    access = request.access
    authorization = get_for_org(DirectorAuthorization.objects.all(), access, pk=pk)
    return serve_document(authorization.document, missing="No scanned document is on file.")


@org_view()
def refused_actions(request: OrgRequest) -> HttpResponse:
    access = request.access
    queryset = RefusedAction.objects.filter(organization_id=access.organization.pk)
    context = {"org": access.organization, "access": access, "tab": "refused"}
    return refused_actions_page(request, queryset, context, nav="organizations/_org_nav.html")

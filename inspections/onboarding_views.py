"""The Commission admin's onboarding pages: license a new organization (the organization and
its license in one form), add a later license, record a Director's letter, grant the winning
arrangements a letter authorizes. The Django admin stays for exceptional fixes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from beano.rules.authorizations import AuthorizationKind
from games.arrangement_grant_services import grant_arrangements
from inspections.onboarding_forms import (
    ArrangementGrantForm,
    AuthorizationForm,
    LicenseForm,
    OrganizationForm,
)
from organizations import onboarding_services as services
from organizations.access import OrgRequest, commission_admin_view
from organizations.forms import show_refusal, submit
from organizations.models import (
    DirectorAuthorization,
    License,
    Organization,
    OrganizationRole,
    Role,
)

#: The people's page where a Commission admin invites an organization's head.
INVITE_HEAD_URL = "invite_head"
LICENSE_FIELDS = tuple(LicenseForm.base_fields)


def invite_head_url(organization: Organization) -> str:
    return f"{reverse(INVITE_HEAD_URL)}?organization={organization.pk}"


@commission_admin_view(permissions=["organizations.view_organization"])
def onboarding_home(request: HttpRequest) -> HttpResponse:
    """Every organization with its active licenses, its heads and its letters: three queries
    whatever their number."""
    organizations = (
        Organization.objects.prefetch_related(
            Prefetch(
                "licenses",
                queryset=License.objects.filter(status=License.Status.ACTIVE).order_by(
                    "-valid_from"
                ),
                to_attr="active_licenses",
            ),
            Prefetch(
                "user_roles",
                queryset=OrganizationRole.objects.filter(role=Role.HEAD).select_related("user"),
                to_attr="heads",
            ),
        )
        .annotate(letters=Count("authorizations", filter=Q(authorizations__revoked_on=None)))
        .order_by("-created_at", "name")
    )
    rows = [{"org": o, "invite_url": invite_head_url(o)} for o in organizations]
    return render(request, "inspections/onboarding/home.html", {"rows": rows})


def _license_values(data: dict[str, Any]) -> dict[str, Any]:
    return {name: data[name] for name in LICENSE_FIELDS}


@commission_admin_view(permissions=["organizations.add_organization", "organizations.add_license"])
def organization_add(request: HttpRequest) -> HttpResponse:
    """The organization and its license, one form, saved together or not at all."""
    post = request.method == "POST"
    org_form = OrganizationForm(request.POST if post else None, prefix="org")
    license_form = LicenseForm(request.POST if post else None, prefix="license")

    def page() -> HttpResponse:
        return render(
            request,
            "inspections/onboarding/organization_form.html",
            {"org_form": org_form, "license_form": license_form},
            status=400 if post else 200,
        )

    if not (post and org_form.is_valid() and license_form.is_valid()):
        return page()

    def refused(error: ValidationError) -> HttpResponse:
        _split_refusal(error, org_form, license_form)
        return page()

    def done(added: Any) -> HttpResponse:
        organization, license = added
        messages.success(
            request,
            f"{organization} is licensed ({license.number}). Next: invite its head of "
            "organization, then record any Director's letter.",
        )
        return redirect(reverse("onboarding_home") + f"#org-{organization.pk}")

    return submit(
        None,
        lambda _: services.add_organization(
            by=request.user,
            license=_license_values(license_form.cleaned_data),
            **org_form.cleaned_data,
        ),
        done=done,
        refused=refused,
    )


def _split_refusal(error: Any, org_form: OrganizationForm, license_form: LicenseForm) -> None:
    """A refusal's fields to the form that has them (the license's number, the name)."""
    if not hasattr(error, "error_dict"):
        show_refusal(org_form, error)
        return
    for name, errors in error.error_dict.items():
        form = license_form if name in license_form.fields else org_form
        for e in errors:
            form.add_error(name if name in form.fields else None, e)


def _page(request: OrgRequest, form: Any, title: str, lead: str, **extra: Any) -> HttpResponse:
    return render(
        request,
        "inspections/onboarding/form_page.html",
        {"org": request.access.organization, "form": form, "title": title, "lead": lead, **extra},
        status=400 if request.method == "POST" else 200,
    )


def _done(request: OrgRequest, message: str) -> Any:
    def done(_: Any) -> HttpResponse:
        messages.success(request, message)
        return redirect(reverse("onboarding_home") + f"#org-{request.access.organization.pk}")

    return done


@commission_admin_view(permissions=["organizations.add_license"])
def license_add(request: OrgRequest) -> HttpResponse:
    org = request.access.organization
    form = LicenseForm(request.POST if request.method == "POST" else None)
    title = f"Add a license of {org}"
    lead = "A renewal, or a new license: it must not overlap an active one."
    if request.method != "POST":
        return _page(request, form, title, lead)
    return submit(
        form,
        lambda data: services.add_license(organization=org, by=request.user, **data),
        done=_done(request, f"The license of {org} is recorded."),
        again=lambda: _page(request, form, title, lead),
    )


@commission_admin_view(permissions=["organizations.add_directorauthorization"])
def authorization_add(request: OrgRequest) -> HttpResponse:
    org = request.access.organization
    post = request.method == "POST"
    form = AuthorizationForm(request.POST if post else None, request.FILES if post else None)
    title = f"Record a Director's authorization of {org}"
    lead = "961 CMR 3.04: “except as authorized by the Director in writing”. Upload the letter."
    if not post:
        return _page(request, form, title, lead, multipart=True)
    return submit(
        form,
        lambda data: services.record_authorization(organization=org, by=request.user, **data),
        done=_done(request, f"The Director's authorization of {org} is recorded."),
        again=lambda: _page(request, form, title, lead, multipart=True),
    )


@commission_admin_view(permissions=["games.add_arrangementauthorization"])
def arrangements_grant(request: OrgRequest) -> HttpResponse:
    org = request.access.organization
    post = request.method == "POST"
    form = ArrangementGrantForm(request.POST if post else None, organization=org)
    title = f"Grant winning arrangements to {org}"
    lead = (
        "961 CMR 3.04(6)(c): the arrangements a Director's letter of permissible winning "
        "arrangements authorizes, all at once."
    )
    letters = (
        DirectorAuthorization.objects.filter(
            organization=org, kind=AuthorizationKind.WINNING_ARRANGEMENT
        )
        .prefetch_related("arrangements__arrangement")
        .order_by("-valid_from")
    )
    if not post:
        return _page(request, form, title, lead, letters=letters)
    return submit(
        form,
        lambda data: grant_arrangements(by=request.user, **data),
        done=_done(request, f"The arrangements are granted to {org}."),
        again=lambda: _page(request, form, title, lead, letters=letters),
    )

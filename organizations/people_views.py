"""The organization's people (its head's pages: who has a login, with which roles; invite,
change roles, deactivate, send a new link), the invitation's link (open without a login), and
the Commission admin's invitation of a head of organization."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from organizations import people
from organizations.access import OrgRequest, commission_staff, get_for_org, org_view
from organizations.forms import submit
from organizations.models import CommissionStaff, Invitation, Organization, OrganizationRole, Role
from organizations.people_forms import ChoosePasswordForm, InviteForm, InviteHeadForm, RolesForm

#: The backend a login made by the invitation's link is recorded under (the password was just
#: chosen, not checked: there is nothing for the lockout to count).
LOGIN_BACKEND = "beano.accounts.backends.CeilingModelBackend"


def people_rows(organization: Organization) -> list[dict[str, Any]]:
    """Every login holding a role here, with its roles, person and newest invitation (three
    queries whatever the number of people)."""
    rows: dict[int, dict[str, Any]] = {}
    assignments = OrganizationRole.objects.filter(organization=organization).select_related(
        "user", "person"
    )
    for assignment in assignments.order_by("user__username", "role"):
        row = rows.setdefault(
            assignment.user_id,
            {"user": assignment.user, "roles": [], "person": None, "invitation": None},
        )
        row["roles"].append(assignment.get_role_display())
        row["is_head"] = row.get("is_head") or assignment.role == Role.HEAD
        row["person"] = row["person"] or assignment.person
    for invitation in Invitation.objects.filter(organization=organization, user__in=list(rows)):
        row = rows[invitation.user_id]
        if row["invitation"] is None or invitation.created_at > row["invitation"].created_at:
            row["invitation"] = invitation
    now = timezone.now()
    for row in rows.values():
        invitation = row["invitation"]
        row["status"] = invitation.status(now) if invitation else ""
        row["can_send_again"] = not row["user"].has_usable_password() and invitation is not None
    return sorted(rows.values(), key=lambda r: (not r["is_head"], r["user"].get_username()))


@org_view()
def people_list(request: OrgRequest) -> HttpResponse:
    access = request.access
    return render(
        request,
        "organizations/people_list.html",
        {
            "org": access.organization,
            "access": access,
            "rows": people_rows(access.organization),
            "tab": "people",
            "me": request.user.pk,
        },
    )


def _form_page(request: OrgRequest, form: Any, title: str) -> HttpResponse:
    access = request.access
    return render(
        request,
        "organizations/form_page.html",
        {
            "org": access.organization,
            "access": access,
            "form": form,
            "title": title,
            "tab": "people",
        },
    )


@org_view()
def people_invite(request: OrgRequest) -> HttpResponse:
    org = request.access.organization
    form = InviteForm(request.POST if request.method == "POST" else None, organization=org)

    def sent(invitation: Invitation) -> HttpResponse:
        messages.success(request, f"The invitation was sent to {invitation.email}.")
        return redirect("people_list", org_id=org.pk)

    return submit(
        form,
        lambda values: people.invite(organization=org, by=request.user, **values),
        done=sent,
        again=lambda: _form_page(request, form, "Invite someone to log in"),
    )


def _login_here(request: OrgRequest, pk: int) -> Any:
    return get_for_org(
        get_user_model().objects.distinct(), request.access, via="org_roles__organization", pk=pk
    )


@org_view()
def people_roles(request: OrgRequest, pk: int) -> HttpResponse:
    org = request.access.organization
    user = _login_here(request, pk)
    held = OrganizationRole.objects.filter(organization=org, user=user).values_list(
        "role", flat=True
    )
    form = RolesForm(
        request.POST if request.method == "POST" else None, initial={"roles": list(held)}
    )

    def saved(_: Any) -> HttpResponse:
        messages.success(request, f"The roles of {user.get_username()} were saved.")
        return redirect("people_list", org_id=org.pk)

    return submit(
        form,
        lambda values: people.change_roles(
            organization=org, user=user, roles=values["roles"], by=request.user
        ),
        done=saved,
        again=lambda: _form_page(request, form, f"Roles of {user.get_username()}"),
    )


def _refused_back(request: OrgRequest, error: ValidationError) -> HttpResponse:
    for message in error.messages:
        messages.error(request, message)
    return redirect("people_list", org_id=request.access.organization.pk)


def _done_back(request: OrgRequest, message: str) -> HttpResponse:
    messages.success(request, message)
    return redirect("people_list", org_id=request.access.organization.pk)


@org_view()
@require_POST
def people_deactivate(request: OrgRequest, pk: int) -> HttpResponse:
    user = _login_here(request, pk)
    return submit(
        None,
        lambda _: people.deactivate(
            organization=request.access.organization, user=user, by=request.user
        ),
        done=lambda _: _done_back(
            request, f"{user.get_username()} is deactivated here and signed out."
        ),
        refused=lambda error: _refused_back(request, error),
    )


@org_view()
@require_POST
def people_send_again(request: OrgRequest, pk: int) -> HttpResponse:
    user = _login_here(request, pk)
    invitation = (
        Invitation.objects.filter(organization=request.access.organization, user=user)
        .order_by("-created_at")
        .first()
    )

    def send(_: object) -> Invitation:
        if invitation is None:
            raise ValidationError("No invitation was sent to this login from here.")
        return people.send_again(invitation=invitation, by=request.user)

    return submit(
        None,
        send,
        done=lambda fresh: _done_back(request, f"A new link was sent to {fresh.email}."),
        refused=lambda error: _refused_back(request, error),
    )


@never_cache
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation's link: choose a password, once, before it expires; then logged in."""
    return submit(
        None,
        lambda _: people.invitation_from_token(token),
        done=lambda invitation: _choose_password(request, invitation),
        refused=lambda error: render(
            request,
            "organizations/invitation_refused.html",
            {"reason": error.messages[0]},
            status=410,
        ),
    )


def _choose_password(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    form = ChoosePasswordForm(request.POST if request.method == "POST" else None)

    def accepted(user: Any) -> HttpResponse:
        login(request, user, backend=LOGIN_BACKEND)
        messages.success(request, "Your password is saved. Welcome to Beano occasions.")
        return redirect("dashboard")

    return submit(
        form,
        lambda values: people.accept(invitation=invitation, password=values["password1"]),
        done=accepted,
        again=lambda: render(
            request,
            "organizations/invitation_accept.html",
            {"form": form, "invitation": invitation},
        ),
    )


@never_cache
@login_required
def invite_head(request: HttpRequest) -> HttpResponse:
    """A Commission admin invites the head of an organization (audited on both chains)."""
    staff = commission_staff(request.user)
    if staff is None or staff.kind != CommissionStaff.Kind.ADMIN:
        raise PermissionDenied("Heads of organization are invited by a Commission admin.")
    # Linked from the licensing pages with ?organization=<id>: that organization chosen already.
    chosen = request.GET.get("organization", "")
    initial = {"organization": chosen} if chosen.isdigit() else {}
    form = InviteHeadForm(request.POST if request.method == "POST" else None, initial=initial)

    def sent(invitation: Invitation) -> HttpResponse:
        messages.success(
            request,
            f"The invitation was sent to {invitation.email}, head of {invitation.organization}.",
        )
        return redirect("invite_head")

    return submit(
        form,
        lambda _: people.invite(**form.values(), by=request.user),
        done=sent,
        again=lambda: render(request, "organizations/invite_head.html", {"form": form}),
    )

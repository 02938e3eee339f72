"""The pages where tokens are made (shown once), listed and revoked: a head's for the
organization's devices and systems, a Commission admin's for the Commission's."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from api import tokens
from api.forms import TokenForm, scope_name
from api.models import ApiToken
from organizations.access import OrgRequest, commission_admin_view, org_view
from organizations.forms import submit
from organizations.models import Organization

#: The revoke button's confirmation (the button inside "Revoke…" sends it).
CONFIRMED = "yes"


def _page(
    request: HttpRequest,
    form: TokenForm,
    listed: QuerySet[ApiToken],
    *,
    org: Organization | None = None,
    made: tuple[ApiToken, str] | None = None,
) -> HttpResponse:
    access = getattr(request, "access", None)
    writes = org is None or access.may_write("api_tokens")
    token, plain = made or (None, "")
    listing = list(listed.select_related("created_by", "acts_as", "revoked_by"))
    for each in listing:
        each.scope_name = scope_name(ApiToken.Scope(each.scope))
    return render(
        request,
        "api/tokens.html",
        {
            "org": org,
            "access": access,
            "tab": "api_tokens",
            "form": form if writes else None,
            "revokes": org is None or access.may_write("api_token_revoke"),
            "tokens": listing,
            "made": plain,
            "made_token": token,
            "example_url": request.build_absolute_uri(reverse("api_organizations")),
            "docs_url": request.build_absolute_uri(reverse("api_docs")),
            "commission": org is None,
        },
    )


def _made(request: HttpRequest, listed: QuerySet[ApiToken], org: Organization | None) -> Any:
    def done(made: tuple[ApiToken, str]) -> HttpResponse:
        messages.success(request, f"The token “{made[0].name}” is made. Copy it now.")
        return _page(request, TokenForm(organization=org), listed, org=org, made=made)

    return done


def _revoke(request: HttpRequest, token: ApiToken) -> None:
    """Revokes ``token`` if the button's confirmation came with the request, and says so."""
    if request.POST.get("confirm") != CONFIRMED:
        messages.error(
            request,
            f"The token “{token.name}” was not revoked: open “Revoke…” and press "
            "“Yes, revoke it” to confirm.",
        )
    elif token.revoked_at is not None:
        messages.info(request, f"The token “{token.name}” was already revoked.")
    else:
        tokens.revoke(token, by=request.user)
        messages.success(
            request,
            f"The token “{token.name}” is revoked: whatever used it is refused from now on.",
        )


@org_view()
def token_list(request: OrgRequest) -> HttpResponse:
    org = request.access.organization
    listed = ApiToken.objects.filter(organization=org)
    if request.method != "POST":
        return _page(request, TokenForm(organization=org), listed, org=org)
    form = TokenForm(request.POST, organization=org)
    return submit(
        form,
        lambda v: tokens.issue(organization=org, by=request.user, **v),
        done=_made(request, listed, org),
        again=lambda: _page(request, form, listed, org=org),
    )


@org_view()
@require_POST
def token_revoke(request: OrgRequest, pk: int) -> HttpResponse:
    org = request.access.organization
    _revoke(request, get_object_or_404(ApiToken, pk=pk, organization=org))
    return redirect("api_tokens", org_id=org.pk)


@commission_admin_view(permissions=["organizations.view_organization"])
def commission_tokens(request: HttpRequest) -> HttpResponse:
    listed = ApiToken.objects.filter(organization__isnull=True)
    if request.method != "POST":
        return _page(request, TokenForm(), listed)
    form = TokenForm(request.POST)
    return submit(
        form,
        lambda v: tokens.issue(by=request.user, **v),
        done=_made(request, listed, None),
        again=lambda: _page(request, form, listed),
    )


@commission_admin_view(permissions=["organizations.view_organization"])
@require_POST
def commission_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    _revoke(request, get_object_or_404(ApiToken, pk=pk, organization__isnull=True))
    return redirect("commission_api_tokens")

"""The pages where tokens are made (shown once), listed and revoked: a head's for the
organization's devices and systems, a Commission admin's for the Commission's."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from api import tokens
from api.forms import TokenForm
from api.models import ApiToken
from organizations.access import OrgRequest, commission_admin_view, org_view
from organizations.forms import submit


def _page(
    request: HttpRequest, form: TokenForm, listed: Any, *, org: Any = None, made: str = ""
) -> HttpResponse:
    return render(
        request,
        "api/tokens.html",
        {
            "org": org,
            "access": getattr(request, "access", None),
            "form": form,
            "tokens": listed.select_related("created_by", "revoked_by"),
            "made": made,
            "commission": org is None,
        },
    )


def _made(request: HttpRequest, form: TokenForm, listed: Any, org: Any) -> Any:
    def done(made: tuple[ApiToken, str]) -> HttpResponse:
        token, plain = made
        messages.success(request, f"The token “{token.name}” was made. Copy it now.")
        return _page(request, TokenForm(commission=org is None), listed, org=org, made=plain)

    return done


@org_view()
def token_list(request: OrgRequest) -> HttpResponse:
    org = request.access.organization
    listed = ApiToken.objects.filter(organization=org)
    if request.method != "POST":
        return _page(request, TokenForm(), listed, org=org)
    form = TokenForm(request.POST)
    return submit(
        form,
        lambda v: tokens.issue(organization=org, by=request.user, **v),
        done=_made(request, form, listed, org),
        again=lambda: _page(request, form, listed, org=org),
    )


@org_view()
@require_POST
def token_revoke(request: OrgRequest, pk: int) -> HttpResponse:
    org = request.access.organization
    token = get_object_or_404(ApiToken, pk=pk, organization=org)
    tokens.revoke(token, by=request.user)
    messages.success(request, f"The token “{token.name}” no longer works.")
    return redirect("api_tokens", org_id=org.pk)


@commission_admin_view(permissions=["organizations.view_organization"])
def commission_tokens(request: HttpRequest) -> HttpResponse:
    listed = ApiToken.objects.filter(organization__isnull=True)
    if request.method != "POST":
        return _page(request, TokenForm(commission=True), listed)
    form = TokenForm(request.POST, commission=True)
    return submit(
        form,
        lambda v: tokens.issue(by=request.user, **v),
        done=_made(request, form, listed, None),
        again=lambda: _page(request, form, listed),
    )


@commission_admin_view(permissions=["organizations.view_organization"])
@require_POST
def commission_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=pk, organization__isnull=True)
    tokens.revoke(token, by=request.user)
    messages.success(request, f"The token “{token.name}” no longer works.")
    return redirect("commission_api_tokens")

"""Equipment and card inventory pages (961 CMR 3.04(4)(a), (b), (e)). Reads are open to every
role of the organization and to its inspectors; writes to the head, the member in charge and the
bookkeeper. Proof files are served only here, after the same access check, never as media."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import FileResponse, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from beano.uploads import serve_document
from organizations import equipment_selectors as selectors
from organizations import equipment_services as services
from organizations.access import OrgRequest, get_for_org, org_view
from organizations.access_matrix import ENTERS as EDIT_ROLES
from organizations.equipment_forms import (
    EquipmentForm,
    RetireEquipmentForm,
)
from organizations.forms import submit
from organizations.models import Equipment


def form_page(
    request: OrgRequest, form: Any, title: str, *, tab: str, **extra: Any
) -> HttpResponse:
    """A form of the equipment or the card inventory on its page, under the organization's
    ``tab``."""
    access = request.access
    return render(
        request,
        "organizations/equipment_form.html",
        {
            "org": access.organization,
            "access": access,
            "form": form,
            "title": title,
            "form_tab": tab,
            **extra,
        },
    )


@org_view()
def equipment_list(request: OrgRequest) -> HttpResponse:
    access = request.access
    today = timezone.localdate()
    return render(
        request,
        "organizations/equipment_list.html",
        {
            "org": access.organization,
            "access": access,
            "today": today,
            "rows": selectors.equipment_statuses(access.organization, today),
            "can_edit": access.has_role(*EDIT_ROLES),
        },
    )


@org_view()
def equipment_add(request: OrgRequest) -> HttpResponse:
    org = request.access.organization
    post = request.method == "POST"
    form = EquipmentForm(
        request.POST if post else None, request.FILES if post else None, organization=org
    )

    def done(item: Equipment) -> HttpResponse:
        messages.success(request, f"{item} was registered.")
        return redirect("equipment_list", org_id=org.pk)

    return submit(
        form,
        lambda data: services.register_equipment(organization=org, by=request.user, **data),
        done=done,
        again=lambda: form_page(request, form, "Register equipment", tab="equipment"),
    )


@org_view()
def equipment_edit(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    item = get_for_org(Equipment.objects.select_related("lease_authorization"), access, pk=pk)
    if item.retired_on is not None:
        messages.info(request, f"{item} is retired; its record is kept as it was.")
        return redirect("equipment_list", org_id=access.organization.pk)
    post = request.method == "POST"
    form = EquipmentForm(
        request.POST if post else None,
        request.FILES if post else None,
        initial=EquipmentForm.initial_for(item),
        organization=access.organization,
    )

    def done(_: object) -> HttpResponse:
        messages.success(request, f"{item} was saved.")
        return redirect("equipment_list", org_id=access.organization.pk)

    return submit(
        form,
        lambda data: services.update_equipment(equipment=item, by=request.user, **data),
        done=done,
        again=lambda: form_page(
            request, form, f"Edit {item}", tab="equipment", proof_on_file=item.proof_of_ownership
        ),
    )


@org_view()
def equipment_retire(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    item = get_for_org(Equipment.objects.all(), access, pk=pk)
    form = RetireEquipmentForm(request.POST if request.method == "POST" else None)

    def done(_: object) -> HttpResponse:
        messages.success(request, f"{item} was retired from use.")
        return redirect("equipment_list", org_id=access.organization.pk)

    return submit(
        form,
        lambda data: services.retire_equipment(
            equipment=item, by=request.user, on=data["retired_on"], reason=data["reason"]
        ),
        done=done,
        again=lambda: form_page(request, form, f"Retire {item}", tab="equipment"),
    )


@org_view()
def equipment_proof(request: OrgRequest, pk: int) -> FileResponse:
    item = get_for_org(Equipment.objects.all(), request.access, pk=pk)
    return serve_document(item.proof_of_ownership, missing="No proof file is on record.")

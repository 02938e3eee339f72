"""The card inventory pages (961 CMR 3.04(4)(e)): the purchases by card type with what moved
them, a purchase recorded, cards used or voided, an invoice served. Reads are open to every role
of the organization and to its inspectors; writes to the head, the member in charge and the
bookkeeper. Proof files are served only here, after the same access check, never as media."""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, HttpResponse
from django.shortcuts import redirect, render

from beano.uploads import serve_document
from equipment import inventory_selectors, inventory_services
from equipment.inventory_forms import CardPurchaseForm, CardUsageForm
from organizations import equipment_services
from organizations.access import OrgRequest, get_for_org, org_view
from organizations.access_matrix import ENTERS as EDIT_ROLES
from organizations.equipment_views import form_page
from organizations.forms import submit
from organizations.models import CardPurchase


@org_view()
def card_inventory(request: OrgRequest) -> HttpResponse:
    access = request.access
    groups = inventory_selectors.inventory_by_card_type(access.organization)
    totals = {
        key: sum(getattr(g, key) for g in groups)
        for key in (
            "bought",
            "used",
            "voided",
            "issued",
            "returned",
            "destroyed",
            "adjusted",
            "on_hand",
        )
    }
    return render(
        request,
        "equipment/card_inventory.html",
        {
            "org": access.organization,
            "access": access,
            "groups": groups,
            "totals": totals,
            "can_edit": access.has_role(*EDIT_ROLES),
        },
    )


@org_view()
def card_purchase_add(request: OrgRequest) -> HttpResponse:
    org = request.access.organization
    post = request.method == "POST"
    form = CardPurchaseForm(request.POST if post else None, request.FILES if post else None)

    def done(purchase: CardPurchase) -> HttpResponse:
        messages.success(request, f"{purchase.quantity} cards were added to the inventory.")
        return redirect("card_inventory", org_id=org.pk)

    return submit(
        form,
        lambda data: equipment_services.record_card_purchase(
            organization=org, by=request.user, **data
        ),
        done=done,
        again=lambda: form_page(request, form, "Record a card purchase", tab="inventory"),
    )


@org_view()
def card_usage_add(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    purchase = get_for_org(inventory_selectors.card_purchases(access.organization), access, pk=pk)
    form = CardUsageForm(
        request.POST if request.method == "POST" else None, organization=access.organization
    )

    def done(_: object) -> HttpResponse:
        messages.success(request, f"Cards used and voided were recorded for {purchase}.")
        return redirect("card_inventory", org_id=access.organization.pk)

    return submit(
        form,
        lambda data: inventory_services.record_card_usage(
            purchase=purchase, by=request.user, **data
        ),
        done=done,
        again=lambda: form_page(
            request, form, f"Cards used or voided: {purchase}", tab="inventory", purchase=purchase
        ),
    )


@org_view()
def card_purchase_proof(request: OrgRequest, pk: int) -> FileResponse:
    purchase = get_for_org(CardPurchase.objects.all(), request.access, pk=pk)
    return serve_document(purchase.proof, missing="No proof file is on record.")

"""The "Prizes and other sales" page of an occasion and the organization's raffle permits
(961 CMR 3.04(3)(e), (5)(b), (8)(d)-(f), (9)(a), (d), (e); M.G.L. c. 10 § 37). Reads are open to
every role of the organization and its inspectors; writes to the head and the member in charge.
A refusal is shown on its form with its citation, and nothing is saved."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import FileResponse, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from beano.uploads import serve_document
from occasions import extras_selectors as selectors
from occasions import extras_services, raffle_services
from occasions.extras_forms import EXTRAS_FORMS, ExtrasForm, RafflePermitForm
from occasions.models import Occasion, RafflePermit
from occasions.views import RUNS_THE_NIGHT, get_occasion
from organizations.access import OrgAccess, OrgRequest, get_for_org, org_view
from organizations.forms import submit


def _sell_raffle_tickets(*, occasion: Occasion, **values: Any) -> Any:
    return raffle_services.sell_raffle_tickets(**values)


def _draw_raffle(*, occasion: Occasion, **values: Any) -> Any:
    return raffle_services.draw_raffle(**values)


#: Each form's service and what the member in charge is told when it is recorded.
SERVICES: dict[str, tuple[Callable[..., Any], str]] = {
    "varying": (extras_services.announce_varying_prizes, "The announcement is recorded."),
    "refund": (extras_services.record_refund, "The refund is recorded."),
    "door-prize": (extras_services.award_door_prize, "The door prize is recorded."),
    "gift": (extras_services.give_gift, "The gift is recorded with its authorization."),
    "raffle": (raffle_services.hold_raffle, "The raffle is recorded."),
    "raffle-tickets": (_sell_raffle_tickets, "The raffle tickets are recorded."),
    "raffle-drawing": (_draw_raffle, "The raffle's drawing is recorded."),
    "charity-sale": (raffle_services.sell_charity_tickets, "The charity ticket sale is recorded."),
    "charity-redemption": (raffle_services.redeem_charity_ticket, "The redemption is recorded."),
    "other-sale": (extras_services.record_other_sale, "The sale is recorded."),
    "police": (extras_services.record_police_detail, "The police detail is recorded."),
    "transportation": (
        extras_services.arrange_transportation,
        "The transportation is recorded with its authorization.",
    ),
}


def url_name(kind: str) -> str:
    return "extras_" + kind.replace("-", "_")


@dataclass(frozen=True)
class FormSlot:
    kind: str
    form: ExtrasForm
    url: str


def _shown(kind: str, summary: selectors.ExtrasSummary) -> bool:
    """Refunds follow a varying-prizes announcement, which is made once; tickets need a raffle,
    and its drawing tickets sold."""
    if kind == "varying":
        return summary.varying_prizes is None
    if kind == "refund":
        return summary.varying_prizes is not None
    if kind == "raffle-tickets":
        return bool(summary.raffles)
    if kind == "raffle-drawing":
        return any(r.tickets and r.raffle.drawn_at is None for r in summary.raffles)
    return True


def _page(request: OrgRequest, occasion: Occasion, bound: FormSlot | None = None) -> HttpResponse:
    access: OrgAccess = request.access
    opened = occasion.opened_at is not None and occasion.status in (
        Occasion.Status.OPEN,
        Occasion.Status.CLOSED,
    )
    can_record = opened and access.has_role(*RUNS_THE_NIGHT)
    summary = selectors.extras_summary(occasion)
    slots: dict[str, FormSlot] = {}
    for kind, form_class in EXTRAS_FORMS.items():
        if can_record and _shown(kind, summary):
            url = reverse(url_name(kind), args=[access.organization.pk, occasion.pk])
            slots[kind.replace("-", "_")] = FormSlot(kind, form_class(occasion=occasion), url)
    if bound is not None:  # a refused form is shown with its messages, whatever else is shown
        slots[bound.kind.replace("-", "_")] = bound
    return render(
        request,
        "occasions/extras.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "summary": summary,
            "slots": slots,
            "can_record": can_record,
            "bound_kind": bound.kind if bound else "",
        },
    )


@org_view()
def extras_page(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    return _page(request, get_occasion(access, pk))


@org_view()
@require_POST
def record_extra(request: OrgRequest, pk: int, kind: str) -> HttpResponse:
    """One of the page's forms: the service decides; a refusal comes back on the form."""
    access = request.access
    occasion = get_occasion(access, pk)
    form = EXTRAS_FORMS[kind](request.POST, occasion=occasion)
    slot = FormSlot(kind, form, request.path)
    service, done = SERVICES[kind]

    def recorded(_: Any) -> HttpResponse:
        messages.success(request, done)
        return redirect("occasion_extras", org_id=access.organization.pk, pk=occasion.pk)

    return submit(
        form,
        lambda _: service(occasion=occasion, by=request.user, **form.service_values()),
        done=recorded,
        again=lambda: _page(request, occasion, bound=slot),
    )


@org_view()
def raffle_permits(request: OrgRequest) -> HttpResponse:
    """The organization's raffle permits from the city or town clerk (3.04(9)(a))."""
    access = request.access
    org = access.organization
    can_edit = access.has_role(*RUNS_THE_NIGHT)
    post = request.method == "POST"
    form = RafflePermitForm(
        request.POST if post else None,
        request.FILES if post else None,
        initial={"town": org.town},
    )

    def page() -> HttpResponse:
        return render(
            request,
            "occasions/raffle_permits.html",
            {
                "org": org,
                "access": access,
                "tab": "occasions",
                "permits": selectors.raffle_permits(org),
                "today": timezone.localdate(),
                "form": form if can_edit else None,
            },
        )

    def done(_: object) -> HttpResponse:
        messages.success(request, "The raffle permit is recorded.")
        return redirect("raffle_permits", org_id=org.pk)

    return submit(
        form,
        lambda data: raffle_services.record_raffle_permit(
            organization=org, by=request.user, **data
        ),
        done=done,
        again=page,
    )


@org_view()
def raffle_permit_document(request: OrgRequest, pk: int) -> FileResponse:
    """The scanned permit, served only after the organization's access check."""
    permit = get_for_org(RafflePermit.objects.all(), request.access, pk=pk)
    return serve_document(permit.document, missing="No scanned permit is on record.")

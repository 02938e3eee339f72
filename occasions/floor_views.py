"""The floor pages for the hall laptop: the opening checklist and the Open button, the workers
present (sign in, sign out, hand over) and the close. Each write is one service call; a refusal
is shown with its citations. htmx requests get the changed part of the page back."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from beano import rules
from beano.rules.workers import WorkerRole
from occasions import floor_selectors as floor
from occasions import floor_services
from occasions.confirm import Confirmation, confirmed
from occasions.final_acts import close_summary, open_summary
from occasions.floor_bar import floor_bar
from occasions.floor_forms import CheckForm, HandoverForm, SignInForm
from occasions.models import Occasion, WorkerPresence
from occasions.views import RUNS_THE_NIGHT, get_occasion
from organizations.access import OrgAccess, OrgRequest, org_view
from organizations.access_matrix import ENTERS as CLOSES_LATE
from organizations.forms import submit

#: Who records a forgotten close after the fact (the bookkeeper finds the night still open).


def problems(error: ValidationError) -> list[dict[str, str]]:
    """A refusal as the pages show it: each message with its citation, where a rule gave one."""
    if isinstance(error, rules.RuleViolation):
        return [{"citation": v.citation, "message": v.message} for v in error.violations]
    return [{"citation": "", "message": m} for m in error.messages]


def _form_problems(form: Any) -> list[dict[str, str]]:
    return [{"citation": "", "message": m} for errors in form.errors.values() for m in errors]


def _base(access: OrgAccess, occasion: Occasion, page: str) -> dict[str, Any]:
    return {
        "org": access.organization,
        "access": access,
        "occasion": occasion,
        "page": page,
        "can_run": access.has_role(*RUNS_THE_NIGHT),
        "on_the_day": occasion.records_on(timezone.localdate()),
        "floor": floor_bar(occasion, page),
    }


# The opening checklist


def _htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _checklist_context(
    access: OrgAccess,
    occasion: Occasion,
    refusals: list[dict[str, str]] | None = None,
    refused_at: str = "",
    confirm: Confirmation | None = None,
) -> dict[str, Any]:
    """The checklist; before opening, also what the rules would say to opening now, each record
    problem (no price list, equipment out of repair, …) shown under its item. ``refused_at``
    places a refusal where it was pressed (an item's code, or "open"), so an htmx swap shows it
    in view; otherwise it is shown at the top."""
    rows = floor.checklist(occasion)
    notes: dict[str, list[rules.Violation]] = {}
    outstanding: list[rules.Violation] = []
    if occasion.status == Occasion.Status.SCHEDULED:
        by = access.user if access.can_write else None
        outstanding = floor.opening_decision(occasion, timezone.now(), by).violations
        for v in outstanding:
            if not v.message.startswith("Not confirmed:"):
                notes.setdefault(v.code, []).append(v)
    return _base(access, occasion, "opening") | {
        "items": [{"row": r, "notes": notes.get(r.item.rule_code, [])} for r in rows],
        "confirmed_count": sum(1 for r in rows if r.check),
        "outstanding": outstanding,
        "in_charge": floor.in_charge(occasion),
        "refusals": refusals,
        "refused_at": refused_at,
        "confirm": confirm,
    }


def _checklist_response(
    request: HttpRequest, access: OrgAccess, occasion: Occasion, **extra: Any
) -> HttpResponse:
    template = "occasions/_opening_checklist.html" if _htmx(request) else "occasions/opening.html"
    return render(request, template, _checklist_context(access, occasion, **extra))


@org_view()
def opening_checklist(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    return _checklist_response(request, access, get_occasion(access, pk))


@org_view()
@require_POST
def opening_check(request: OrgRequest, pk: int) -> HttpResponse:
    """Confirm an item (``confirmed`` on) or withdraw its confirmation."""
    access = request.access
    occasion = get_occasion(access, pk)
    form = CheckForm(request.POST)

    def check(data: dict[str, Any]) -> None:
        service = (
            floor_services.confirm_check if data["confirmed"] else floor_services.unconfirm_check
        )
        service(occasion=occasion, item=data["item"], by=request.user)

    def answer(refusals: list[dict[str, str]] | None) -> HttpResponse:
        if _htmx(request):
            where = form.cleaned_data["item"] if refusals and form.is_valid() else ""
            return _checklist_response(
                request, access, occasion, refusals=refusals, refused_at=where
            )
        for r in refusals or []:
            messages.error(
                request, f"{r['citation']}: {r['message']}" if r["citation"] else r["message"]
            )
        return redirect("opening_checklist", org_id=access.organization.pk, pk=occasion.pk)

    return submit(
        form,
        check,
        done=lambda _: answer(None),
        again=lambda: answer(_form_problems(form)),
        refused=lambda error: answer(problems(error)),
    )


@org_view()
@require_POST
def occasion_open(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    if not confirmed(request):
        # Nothing is done yet: what the opening will do and what the rules would say to it.
        return _checklist_response(
            request, access, occasion, confirm=open_summary(occasion, request.user)
        )

    def refused(error: ValidationError) -> HttpResponse:
        occasion.refresh_from_db()
        where = "open" if _htmx(request) else ""
        return _checklist_response(
            request, access, occasion, refusals=problems(error), refused_at=where
        )

    def done(_: object) -> HttpResponse:
        messages.success(request, "The occasion is open. Good luck to the players!")
        url = reverse("occasion_detail", kwargs={"org_id": access.organization.pk, "pk": pk})
        return HttpResponseClientRedirect(url) if _htmx(request) else redirect(url)

    return submit(
        None,
        lambda _: floor_services.open_occasion(occasion=occasion, by=request.user),
        done=done,
        refused=refused,
    )


# Workers present


def _workers_context(
    access: OrgAccess,
    occasion: Occasion,
    *,
    refusals: list[dict[str, str]] | None = None,
    done: str = "",
    handover_form: HandoverForm | None = None,
    refused_entry: int | None = None,
    refused_presence: int | None = None,
) -> dict[str, Any]:
    """The panel; a refused sign-in or sign-out is shown by the row that was pressed, so an
    htmx swap shows it in view; anything else at the top."""
    everyone = list(floor.presences(occasion))
    present = [p for p in everyone if p.is_present]
    current = floor.in_charge(occasion)
    present_people = {p.entry.person_id for p in present}
    roles = dict(WorkerRole.choices)
    can_sign = occasion.status in (Occasion.Status.SCHEDULED, Occasion.Status.OPEN)
    waiting = [
        {
            "entry": e,
            "roles": [(r, roles.get(r, r)) for r in e.roles],
        }
        for e in floor.list_entries(occasion)
        if e.person_id not in present_people
    ]
    return _base(access, occasion, "workers") | {
        "present": present,
        "left": [p for p in everyone if not p.is_present],
        "in_charge": current,
        "waiting": waiting if can_sign else [],
        "can_sign": can_sign,
        "handovers": list(floor.handovers(occasion)),
        "handover_form": handover_form or HandoverForm(occasion=occasion, current=current),
        "refusals": refusals,
        "refused_entry": refused_entry,
        "refused_presence": refused_presence,
        "refused_in_row": refused_entry is not None or refused_presence is not None,
        "done": done,
    }


def _workers_response(
    request: HttpRequest, access: OrgAccess, occasion: Occasion, **extra: Any
) -> HttpResponse:
    if not _htmx(request):
        extra.pop("refused_entry", None)
        extra.pop("refused_presence", None)
    if _htmx(request) or extra.get("refusals"):
        template = "occasions/_workers_panel.html" if _htmx(request) else "occasions/workers.html"
        return render(request, template, _workers_context(access, occasion, **extra))
    if extra.get("done"):
        messages.success(request, extra["done"])
    return redirect("workers_present", org_id=access.organization.pk, pk=occasion.pk)


@org_view()
def workers_present(request: OrgRequest, pk: int) -> HttpResponse:
    """Who is present now; POST signs a person of the worker list in."""
    access = request.access
    occasion = get_occasion(access, pk)
    if request.method != "POST":
        return render(request, "occasions/workers.html", _workers_context(access, occasion))
    form = SignInForm(request.POST, occasion=occasion)

    def signed_in(presence: WorkerPresence) -> HttpResponse:
        done = f"{presence.entry.person.legal_name} is signed in as {presence.get_role_display()}."
        return _workers_response(request, access, occasion, done=done)

    return submit(
        form,
        lambda data: floor_services.sign_in_worker(occasion=occasion, by=request.user, **data),
        done=signed_in,
        again=lambda: _workers_response(request, access, occasion, refusals=_form_problems(form)),
        refused=lambda error: _workers_response(
            request,
            access,
            occasion,
            refusals=problems(error),
            refused_entry=form.cleaned_data["entry"].pk,
        ),
    )


@org_view()
@require_POST
def worker_sign_out(request: OrgRequest, pk: int, presence_pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    presence = get_object_or_404(floor.presences(occasion), pk=presence_pk)
    done = f"{presence.entry.person.legal_name} is signed out."
    return submit(
        None,
        lambda _: floor_services.sign_out_worker(presence=presence, by=request.user),
        done=lambda _: _workers_response(request, access, occasion, done=done),
        refused=lambda error: _workers_response(
            request, access, occasion, refusals=problems(error), refused_presence=presence.pk
        ),
    )


@org_view()
@require_POST
def worker_hand_over(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    form = HandoverForm(request.POST, occasion=occasion, current=floor.in_charge(occasion))

    def handed_over(handover: Any) -> HttpResponse:
        done = f"{handover.to_presence.entry.person.legal_name} is now in charge."
        return _workers_response(request, access, occasion, done=done)

    return submit(
        form,
        lambda data: floor_services.hand_over(occasion=occasion, by=request.user, **data),
        done=handed_over,
        again=lambda: _workers_response(
            request, access, occasion, refusals=_form_problems(form), handover_form=form
        ),
        refused=lambda error: _workers_response(
            request, access, occasion, refusals=problems(error), handover_form=form
        ),
    )


# The close


@org_view()
def occasion_close(request: OrgRequest, pk: int) -> HttpResponse:
    """The night's summary; POST closes the open occasion."""
    access = request.access
    occasion = get_occasion(access, pk)

    def page(refusals: Any = None, confirm: Any = None) -> HttpResponse:
        everyone = list(floor.presences(occasion))
        return render(
            request,
            "occasions/close.html",
            _base(access, occasion, "close")
            | {
                "everyone": everyone,
                "present_count": sum(1 for p in everyone if p.is_present),
                "in_charge": floor.in_charge(occasion),
                "handovers": list(floor.handovers(occasion)),
                "bookkeepers": floor.bookkeeper_review(occasion),
                "can_close_late": access.has_role(*CLOSES_LATE),
                "refusals": refusals,
                "confirm": confirm,
            },
        )

    if request.method != "POST":
        return page()
    if not confirmed(request):
        # Nothing is done until it is confirmed.
        return page(confirm=close_summary(occasion, request.user))

    def refused(error: ValidationError) -> HttpResponse:
        # The summary says it again with where each is put right, and what else is left.
        confirm = close_summary(occasion, request.user)
        return page(refusals=None if confirm.refused else problems(error), confirm=confirm)

    def done(_: object) -> HttpResponse:
        messages.success(request, "The occasion is closed. The bookkeeper can close it out.")
        return redirect("occasion_detail", org_id=access.organization.pk, pk=occasion.pk)

    return submit(
        None,
        lambda _: floor_services.close_occasion(occasion=occasion, by=request.user),
        done=done,
        refused=refused,
    )

"""The door-sales screen of the hall laptop and its actions. Workers, the member in charge and
the head sell; voids, the attendance and the halves are the member in charge's or the head's.
Every refusal is shown with its citation (status 200, or an htmx partial) and saves nothing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST
from django_htmx.http import trigger_client_event

from occasions import door_acts
from occasions import sales_selectors as selectors
from occasions import sales_services as services
from occasions.floor_bar import floor_bar
from occasions.models import Occasion, PriceListItem, Sale
from occasions.sales_forms import AttendanceForm, ReceiptsForm, SaleForm, VoidForm
from occasions.second_person import put_on_fields, users_of, who_can_confirm
from occasions.views import RUNS_THE_NIGHT, get_occasion
from organizations.access import OrgAccess, OrgRequest, org_view
from organizations.access_matrix import ON_THE_FLOOR as SELLS
from organizations.forms import show_above, submit


def _items(occasion: Occasion) -> list[PriceListItem]:
    return list(PriceListItem.objects.filter(occasion=occasion).order_by("pk"))


def _new_sale_form(items: list[PriceListItem]) -> SaleForm:
    """A fresh form for the next player: one admission, nothing else yet."""
    initial = {f"qty_{i.pk}": 1 for i in items if i.category == PriceListItem.Category.ADMISSION}
    return SaleForm(items=items, initial=initial)


def _witnesses(access: OrgAccess, occasion: Occasion) -> list[Any]:
    """Who could witness a void now, for those who void while the occasion is open."""
    if not access.has_role(*RUNS_THE_NIGHT) or occasion.status != Occasion.Status.OPEN:
        return []
    return who_can_confirm(occasion, access.user, timezone.now())


def _context(access: OrgAccess, occasion: Occasion, **extra: Any) -> dict[str, Any]:
    items = extra.pop("items", None) or _items(occasion)
    counts = selectors.door_figures(occasion)  # a closed night's as kept with its figures
    can_run = access.has_role(*RUNS_THE_NIGHT)
    return {
        "org": access.organization,
        "access": access,
        "occasion": occasion,
        "items": items,
        "counts": counts,
        "attendance": selectors.attendance_check(occasion, counts),
        "receipts": extra.pop("receipts", None) or selectors.door_receipts(occasion),
        "receipts_form": extra.pop("receipts_form", None) or ReceiptsForm(),
        "witnesses": _witnesses(access, occasion),
        "can_sell": access.has_role(*SELLS),
        "can_run": can_run,
        "is_open": occasion.status == Occasion.Status.OPEN,
        "page": "door",
        "on_the_day": occasion.records_on(timezone.localdate()),
        "sale_form": extra.pop("sale_form", None) or _new_sale_form(items),
        "attendance_form": extra.pop("attendance_form", None)
        or AttendanceForm(initial={"players": counts.admissions}),
        **extra,
    }


def _page(request: OrgRequest, occasion: Occasion, **extra: Any) -> HttpResponse:
    access = request.access
    context = _context(access, occasion, **extra) | {"floor": floor_bar(occasion, "door")}
    return render(request, "occasions/door/door_sales.html", context)


def _back(occasion: Occasion) -> HttpResponse:
    return redirect("door_sales", org_id=occasion.organization_id, pk=occasion.pk)


def _sale_summary(sale: Sale, request: HttpRequest | None = None) -> str:
    """The receipt's answer; at a laptop handed to a worker (``occasions.laptop``), it names
    them, the seller recorded, where the one selling looks."""
    summary = door_acts.sale_words(sale)
    if request is not None and getattr(request, "laptop_login", None) is not None:
        seller = request.user
        summary += f" Sold by {seller.get_full_name() or seller.get_username()}."
    return summary


def _read_only(request: HttpRequest) -> HttpResponse | None:
    """Pages that only read answer other methods with 405, once the occasion is known to be
    the organization's (another organization's is a 404 whatever the method)."""
    if request.method in ("GET", "HEAD"):
        return None
    return HttpResponseNotAllowed(["GET", "HEAD"])


def _receipts_asked(request: HttpRequest, occasion: Occasion) -> dict[str, Any]:
    """The receipts the door lists, as the address asks: ``?receipt=N`` the one numbered N,
    ``?before=N`` a page of older ones, neither the latest. A number mistyped is said in the
    list, which then shows the latest."""
    form = ReceiptsForm(request.GET or None)
    asked = form.cleaned_data if form.is_valid() else {}
    receipts = selectors.door_receipts(
        occasion, found=asked.get("receipt"), before=asked.get("before")
    )
    return {"receipts": receipts, "receipts_form": form}


@org_view()
def door_sales(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    return _read_only(request) or _page(request, occasion, **_receipts_asked(request, occasion))


@org_view()
def sale_receipts(request: OrgRequest, pk: int) -> HttpResponse:
    """Any receipt of the night, found by its number, or the receipts a page at a time: for
    htmx, the door's list alone, each receipt with its "+ extras" and its void as in the latest
    (for those who may); else the door page listing them."""
    access = request.access
    occasion = get_occasion(access, pk)
    if refused := _read_only(request):
        return refused
    asked = _receipts_asked(request, occasion)
    if not request.htmx:
        return _page(request, occasion, **asked)
    can_run = access.has_role(*RUNS_THE_NIGHT)
    context = {
        "org": access.organization,
        "occasion": occasion,
        "witnesses": _witnesses(access, occasion),
        "can_sell": access.has_role(*SELLS),
        "can_run": can_run,
        "is_open": occasion.status == Occasion.Status.OPEN,
        **asked,
    }
    return render(request, "occasions/door/_recent_sales.html", context)


@org_view()
def sale_counts(request: OrgRequest, pk: int) -> HttpResponse:
    """The counts by category and the attendance, for htmx to refresh beside the sale form: from
    the copy kept for every door screen of the night until a sale, a void, a tally or the
    attendance changes them (``selectors.kept_counts``)."""
    access = request.access
    occasion = get_occasion(access, pk)
    if refused := _read_only(request):
        return refused
    counts, attendance = selectors.kept_counts(occasion)  # the kept copy, not read again
    return render(
        request,
        "occasions/door/_counts.html",
        {
            "org": access.organization,
            "occasion": occasion,
            "counts": counts,
            "attendance": attendance,
        },
    )


def _sold(request: OrgRequest, sale: Sale) -> HttpResponse:
    """The door's answer to a sale recorded: its delta (the receipt, the counts, the attendance
    step, the receipt's line in the recent sales), swapped out of band."""
    access = request.access
    occasion = sale.occasion
    counts = occasion.counts  # read under the service's lock, this sale added
    can_run = access.has_role(*RUNS_THE_NIGHT)
    context = {
        "org": access.organization,
        "occasion": occasion,
        "counts": counts,
        "attendance": selectors.attendance_check(occasion, counts, read=False),
        "attendance_form": AttendanceForm(initial={"players": counts.admissions}),
        "s": sale,
        "sold": _sale_summary(sale, request),
        "witnesses": _witnesses(access, occasion),
        "can_sell": True,
        "can_run": can_run,
        "is_open": occasion.status == Occasion.Status.OPEN,
    }
    response = render(request, "occasions/door/_sold.html", context)
    return trigger_client_event(
        response, "doorSaleRecorded", {"receipt": sale.number}, after="swap"
    )


@org_view()
@require_POST
def sale_record(request: OrgRequest, pk: int) -> HttpResponse:
    """A sale at the door. The boxes are read against the price list the door's form was made
    from (kept in the cache); the occasion is read once, under the service's lock (another
    organization's is a 404 there), and judged against the list read there."""
    access = request.access
    form = door_acts.sale_form(access.organization, pk, request.POST)
    if not form.items:  # none posted, or not this organization's occasion (a 404 here)
        form = SaleForm(request.POST, items=_items(get_occasion(access, pk)))
    items = form.items

    def record(data: dict[str, Any]) -> Sale:
        try:
            return door_acts.record_sale_of(
                form, organization=access.organization, occasion_id=pk, by=request.user
            )
        except Occasion.DoesNotExist:
            raise Http404 from None

    return submit(
        form,
        record,
        done=lambda recorded: _after_sale(request, access, pk, items, form, recorded),
        again=lambda: _after_sale(request, access, pk, items, form, None),
        show=show_above,
    )


def _after_sale(
    request: OrgRequest,
    access: OrgAccess,
    pk: int,
    items: Any,
    form: SaleForm,
    recorded: Sale | None,
) -> HttpResponse:
    """The answer to a sale: its receipt, or the form with why it was refused."""
    if recorded is not None and not request.htmx:
        messages.success(request, _sale_summary(recorded, request))
        return _back(recorded.occasion)
    if recorded is not None and hasattr(recorded, "_prefetched_objects_cache"):
        return _sold(request, recorded)
    occasion = get_occasion(access, pk)
    context = _context(access, occasion, items=items, sale_form=form)
    if not request.htmx:
        return render(request, "occasions/door/door_sales.html", context)
    # The boxes stay as they are in the browser: what was typed there while this sale was
    # saving is the next player's. The answer is the receipt (or the refusal), the counts and
    # the recent sales; door.js readies the boxes the sale used for the next player.
    context["sold"] = _sale_summary(recorded, request) if recorded is not None else ""
    response = render(request, "occasions/door/_after_sale.html", context)
    if recorded is not None:
        trigger_client_event(
            response, "doorSaleRecorded", {"receipt": recorded.number}, after="swap"
        )
    return response


def _receipts_after_void(occasion: Occasion, sale: Sale | None) -> selectors.DoorReceipts:
    """The list after a void (or its refusal): the latest, or the receipt itself if it is older
    than those (found by its number), so that it stays in sight, struck out or still voidable."""
    latest = selectors.door_receipts(occasion)
    if sale is None or any(row.pk == sale.pk for row in latest.rows):
        return latest
    return selectors.door_receipts(occasion, found=sale.number)


@org_view()
@require_POST
def sale_void(request: OrgRequest, pk: int) -> HttpResponse:
    """A void before its witness. A refusal comes back in the receipt's void form, open, with
    the reason and the witness as given (never the password or PIN) and each refusal on the
    field it is about, where the cursor goes; the receipt stays in sight (found by its number
    if older than the latest). A number of no receipt is said above the list."""
    access = request.access
    occasion = get_occasion(access, pk)
    form = VoidForm(request.POST, witnesses=users_of(occasion.organization_id))
    found: list[Sale] = []

    def void(data: dict[str, Any]) -> Sale:
        number = data["receipt"]
        sale = Sale.objects.filter(occasion=occasion, number=number).first()
        if sale is None:
            raise ValidationError({"receipt": f"No receipt {number} at this occasion."})
        found.append(sale)
        return services.void_sale(
            sale=sale,
            reason=data["reason"],
            witness=data["witness"],
            witness_secret=data["witness_secret"],
            by=request.user,
        )

    return submit(
        form,
        void,
        done=lambda voided: _after_void(request, access, occasion, form, found, voided),
        again=lambda: _after_void(request, access, occasion, form, found, None),
        show=lambda form, error: put_on_fields(
            form, error, person="witness", secret="witness_secret", reason="reason"
        ),
    )


def _after_void(
    request: OrgRequest,
    access: OrgAccess,
    occasion: Occasion,
    form: VoidForm,
    found: list[Sale],
    voided: Sale | None,
) -> HttpResponse:
    """The answer to a void: done, or its form open again on its receipt's row."""
    sale = found[0] if found else None
    receipts = _receipts_after_void(occasion, sale)
    extra: dict[str, Any] = {"receipts": receipts}
    if voided is not None:
        done = f"Receipt {voided.number} is voided."
        if not request.htmx:
            messages.success(request, done)
            return _back(occasion)
        extra["void_done"] = done
    elif sale is not None and any(row.pk == sale.pk for row in receipts.rows):
        extra["void_form"] = form  # its row shows it again, open
    else:
        extra["void_errors"] = form.all_messages()
    if request.htmx:
        context = _context(access, occasion, **extra)
        return render(request, "occasions/door/_after_void.html", context)
    return _page(request, occasion, **extra)


@org_view()
@require_POST
def attendance_announce(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    form = AttendanceForm(request.POST)

    def done(announced: Any) -> HttpResponse:
        messages.success(request, f"{announced.players} players in attendance, announced.")
        return _back(occasion)

    return submit(
        form,
        lambda data: services.announce_attendance(
            occasion=occasion, players=data["players"], by=request.user
        ),
        done=done,
        again=lambda: _page(request, occasion, attendance_form=form),
        show=show_above,
    )


def _halves(request: OrgRequest, pk: int, start: Any, done: str) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)

    def refused(error: ValidationError) -> HttpResponse:
        occasion.refresh_from_db()
        return _page(request, occasion, halves_errors=error.messages)

    def started(_: object) -> HttpResponse:
        messages.success(request, done)
        return _back(occasion)

    return submit(
        None, lambda _: start(occasion=occasion, by=request.user), done=started, refused=refused
    )


@org_view()
@require_POST
def start_play(request: HttpRequest, pk: int) -> HttpResponse:
    return _halves(request, pk, services.start_play, "Play has started: the first half is on.")


@org_view()
@require_POST
def start_second_half(request: HttpRequest, pk: int) -> HttpResponse:
    return _halves(request, pk, services.start_second_half, "The second half has started.")

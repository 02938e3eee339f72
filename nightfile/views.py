"""The control-sheet entry pages: a night, or the part of it kept on paper, typed in from its
sheets top to bottom (sign-in sheet, opening checklist, door tally, attendance, each game's
sheet, extras, close), by the bookkeeper, the member in charge or the head. Each page records
what its sheet says through the floor's services, at the times written on it; a refusal comes
back on the page with everything typed kept, the plain sentence first and its citation after."""

from __future__ import annotations

from typing import Any

from django import forms as django_forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from beano import rules
from games.models import Game
from nightfile import (
    acts,
    extras_acts,
    extras_forms,
    floor_acts,
    forms,
    game_acts,
    game_forms,
    late_close,
)
from nightfile import format as fmt
from occasions import paper
from occasions.models import (
    Occasion,
    PaperRecord,
    PriceListItem,
    RafflePermit,
    WorkerPresence,
)
from occasions.night_time import cleaned_clocks, readings
from occasions.views import get_occasion
from organizations.access import OrgAccess, org_view
from organizations.access_matrix import ENTERS
from organizations.models import WorkerListEntry

#: The sections in the order of the sheets, so the paper is typed in top to bottom.
SECTIONS = [
    ("workers", "Sign-in sheet"),
    ("prices", "Price list"),
    ("program", "Program"),
    ("opening", "Opening checklist"),
    ("door", "Door tally"),
    ("games", "Game sheets"),
    ("extras", "Extras"),
    ("close", "Close"),
]
#: The attendance is announced at the intermission: its page comes between the halves' games.
TITLES = dict(SECTIONS) | {"attendance": "Attendance and the second half"}


def access_of(request: HttpRequest) -> OrgAccess:
    return request.access


def paper_records(occasion: Occasion) -> list[PaperRecord]:
    return list(
        PaperRecord.objects.filter(occasion=occasion).select_related("entered_by").order_by("pk")
    )


def _next(section: str) -> str | None:
    if section == "attendance":
        return "games"
    names = [name for name, _ in SECTIONS]
    i = names.index(section)
    return names[i + 1] if i + 1 < len(names) else None


def _after_attendance(occasion: Occasion) -> Game | None:
    """The first game of the second half not yet finished: the sheet typed after the
    intermission."""
    return (
        Game.objects.filter(occasion=occasion, half=2)
        .exclude(status=Game.Status.FINISHED)
        .order_by("number")
        .first()
    )


def _refusal(error: ValidationError) -> dict[str, Any]:
    """A refusal as the page shows it: where on the sheets, then each reason."""
    if isinstance(error, acts.NightRefused):
        act = error.act
        when = f" at {act.at:%-I:%M %p}" if act.at else ""
        return {
            "where": f"{act.sheet}, {act.what}{when}",
            "reasons": [{"message": m, "citation": c} for c, m in error.reasons],
        }
    if isinstance(error, rules.RuleViolation):
        reasons = [{"message": v.message, "citation": v.citation} for v in error.violations]
    else:
        reasons = [{"message": m, "citation": ""} for m in error.messages]
    return {"where": "", "reasons": reasons}


def record_acts(
    request: HttpRequest, occasion: Occasion, record: PaperRecord, entries: list[acts.Act]
) -> dict[str, Any] | None:
    """Record ``entries`` from ``record``'s sheets, all or nothing; the refusal if any."""
    if not entries:
        return {
            "where": "",
            "reasons": [{"message": "Nothing to enter: the sheet is blank.", "citation": ""}],
        }
    try:
        with rules.atomic():
            state = acts.Night(occasion=occasion, by=request.user, record=record)
            state.refresh()
            acts.run(state, entries)
    except ValidationError as error:
        return _refusal(error)
    return None


# The hub ------------------------------------------------------------------------------------


def _home_context(access: OrgAccess, occasion: Occasion, form: Any = None) -> dict[str, Any]:
    records = paper_records(occasion)
    return {
        "org": access.organization,
        "access": access,
        "occasion": occasion,
        "page": "paper",
        "records": records,
        "record": records[-1] if records else None,
        "sections": SECTIONS,
        "can_enter": access.has_role(*ENTERS) and not occasion.is_sealed,
        "form": form
        or forms.BeginForm(
            initial={"scope": "whole" if occasion.status == "scheduled" else "part"}
        ),
        "games": list(Game.objects.filter(occasion=occasion).order_by("number")),
    }


@org_view()
def paper_home(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's paper records and the sections to enter; POST says which part of the night
    comes from paper (the whole night, or from one time to another)."""
    access = access_of(request)
    occasion = get_occasion(access, pk)
    if request.method != "POST":
        return render(request, "nightfile/home.html", _home_context(access, occasion))
    form = forms.BeginForm(request.POST)
    refusal = None
    if form.is_valid():
        data = form.cleaned_data
        whole = data["scope"] == "whole"
        try:
            paper.begin(
                occasion=occasion,
                sheets=data["sheets"],
                reason=data["reason"],
                starts_at=None if whole else forms.moment(occasion, data["starts_at"]),
                ends_at=None if whole else forms.moment(occasion, data["ends_at"]),
                by=request.user,
            )
        except ValidationError as error:
            refusal = _refusal(error)
        else:
            messages.success(
                request, entered("Now type in the sheets, top to bottom", occasion, {"form": form})
            )
            return redirect(
                "paper_section", org_id=access.organization.pk, pk=pk, section="workers"
            )
    context = _home_context(access, occasion, form) | {"refusal": refusal}
    return render(request, "nightfile/home.html", context, status=200)


# The sections -------------------------------------------------------------------------------


def night_presences(occasion: Occasion) -> Any:
    return WorkerPresence.objects.filter(occasion=occasion).select_related("entry__person")


def _items(occasion: Occasion) -> list[PriceListItem]:
    return list(PriceListItem.objects.filter(occasion=occasion).order_by("pk"))


def _section_forms(occasion: Occasion, section: str, data: Any = None) -> dict[str, Any]:
    """The forms of one section, bound to ``data`` when posted."""
    if section == "workers":
        entries = WorkerListEntry.objects.filter(
            worker_list__organization=occasion.organization,
            worker_list__year=occasion.date.year,
        ).select_related("person")
        rows = django_forms.formset_factory(forms.WorkerRowForm, extra=8)
        return {"rows": rows(data, prefix="w", form_kwargs={"entries": entries})}
    if section == "prices":
        rows = django_forms.formset_factory(forms.PriceRowForm, extra=6)
        return {"rows": rows(data, prefix="p")}
    if section == "program":
        rows = django_forms.formset_factory(game_forms.ProgramRowForm, extra=16)
        return {"rows": rows(data, prefix="g")}
    if section == "opening":
        return {
            "form": forms.OpeningForm(data, occasion=occasion),
            "varying": forms.VaryingPrizesSheetForm(data),
        }
    if section == "door":
        items = _items(occasion)
        voids = django_forms.formset_factory(forms.VoidRowForm, extra=3)
        return {
            "form": forms.DoorForm(data, items=items),
            "voids": voids(
                data,
                prefix="v",
                form_kwargs={"items": items, "presences": night_presences(occasion)},
            ),
        }
    if section == "attendance":
        return {"form": forms.AttendanceSheetForm(data)}
    if section == "extras":
        permits = RafflePermit.objects.filter(organization=occasion.organization)
        out = {}
        for name, form, extra in (
            ("door_prizes", extras_forms.DoorPrizeRowForm, 3),
            ("refunds", extras_forms.RefundRowForm, 2),
            ("charity", extras_forms.CharityRowForm, 2),
            ("redemptions", extras_forms.RedemptionRowForm, 2),
            ("other_sales", extras_forms.OtherSaleRowForm, 2),
            ("police", extras_forms.PoliceRowForm, 1),
        ):
            out[name] = django_forms.formset_factory(form, extra=extra)(data, prefix=name)
        out["raffles"] = django_forms.formset_factory(extras_forms.RaffleRowForm, extra=1)(
            data, prefix="raffles", form_kwargs={"permits": permits}
        )
        return out
    if section == "close":
        present = [p for p in night_presences(occasion) if p.is_present]
        return {"form": forms.CloseSheetForm(data, presences=present)}
    raise Http404


def entered(words: str, occasion: Occasion, bound: dict[str, Any]) -> str:
    """A sheet's "entered", saying back how each time written without AM or PM was read."""
    read = readings(occasion, cleaned_clocks(bound.values()))
    return f"{words} ({'; '.join(read)})." if read else f"{words}."


def valid_forms(bound: dict[str, Any]) -> bool:
    """Every form validated (not only up to the first invalid one), so each shows its errors."""
    results = [b.is_valid() for b in bound.values()]
    return all(results)


def _rows(formset: Any, occasion: Occasion) -> list[Any]:
    return [r for r in (f.row(occasion) for f in formset.forms if f.cleaned_data) if r]


def _section_acts(occasion: Occasion, section: str, bound: dict[str, Any]) -> list[acts.Act]:
    if section == "workers":
        rows = [r for r in (f.row(occasion) for f in bound["rows"].forms if f.cleaned_data) if r]
        return floor_acts.worker_acts(rows)
    if section == "prices":
        return floor_acts.price_acts(_rows(bound["rows"], occasion))
    if section == "program":
        filled = [f.cleaned_data for f in bound["rows"].forms if f.cleaned_data and f.filled]
        return game_acts.program_acts(game_forms.program_sheets(filled))
    if section == "opening":
        d = bound["form"].cleaned_data
        checked = forms.moment(occasion, d["checked_at"]) if d.get("checked_at") else None
        opened = forms.moment(occasion, d["opened_at"]) if d.get("opened_at") else None
        return (
            floor_acts.checklist_acts(
                checked, d["items"] if checked else None, d.get("attested_by")
            )
            + floor_acts.open_acts(opened)
            + floor_acts.varying_acts(bound["varying"].announcement(occasion))
        )
    if section == "door":
        tally = bound["form"].tally(occasion)
        voids = [v for v in (f.void(occasion) for f in bound["voids"].forms if f.cleaned_data) if v]
        return floor_acts.door_acts((tally,) if tally else (), voids)
    if section == "attendance":
        d = bound["form"].cleaned_data
        second = forms.moment(occasion, d["second_half_at"]) if d.get("second_half_at") else None
        return floor_acts.attendance_acts(
            d["players"], forms.moment(occasion, d["announced_at"]), second
        )
    if section == "extras":
        night = fmt.Night(
            license=occasion.license.number,
            date=occasion.date,
            door_prizes=tuple(_rows(bound["door_prizes"], occasion)),
            refunds=tuple(_rows(bound["refunds"], occasion)),
            charity_sales=tuple(_rows(bound["charity"], occasion)),
            redemptions=tuple(_rows(bound["redemptions"], occasion)),
            other_sales=tuple(_rows(bound["other_sales"], occasion)),
            police=tuple(_rows(bound["police"], occasion)),
            raffles=tuple(_rows(bound["raffles"], occasion)),
        )
        return extras_acts.extras_acts(night)
    if section == "close":
        form = bound["form"]
        closed = forms.moment(occasion, form.cleaned_data["closed_at"])
        out_acts = []
        for p in form.presences:
            out = form.cleaned_data.get(f"out_{p.pk}")
            if out is not None:
                row = fmt.WorkerRow(
                    p.entry.person.legal_name,
                    p.role,
                    "",
                    p.signed_in_at,
                    forms.moment(occasion, out),
                )
                out_acts += [a for a in floor_acts.worker_acts([row]) if a.kind == "sign_out"]
        return out_acts + floor_acts.close_acts(closed)
    raise Http404


def _recorded(occasion: Occasion, section: str) -> dict[str, Any]:
    """What the night already holds for this section, shown above its form."""
    from occasions.sales_selectors import door_counts

    if section in ("workers", "close"):
        presences = list(night_presences(occasion).order_by("signed_in_at"))
        if section == "close" and occasion.status == Occasion.Status.OPEN:
            # Judged as the close entered from the sheet will be: its games are finished on
            # their own sheets, its winners paid there.
            left = late_close.left_at_close(occasion, finishes_games=False)
            return {"presences": presences, "left": left}
        return {"presences": presences}
    if section == "prices":
        return {"price_items": _items(occasion)}
    if section == "program":
        return {
            "games": list(
                Game.objects.filter(occasion=occasion)
                .prefetch_related("parts__arrangement")
                .order_by("number")
            )
        }
    if section == "opening":
        return {"checks": occasion.opening_checks.count(), "price_items": _items(occasion)}
    if section == "door":
        return {"counts": door_counts(occasion)}
    if section == "attendance":
        return {"announcement": getattr(occasion, "attendance_announcement", None)}
    if section == "extras":
        return {
            "door_prizes": list(occasion.door_prizes.all()),
            "refunds": list(occasion.refunds.all()),
            "charity": list(occasion.charity_ticket_sales.all()),
            "other_sales": list(occasion.other_sales.all()),
            "police": list(occasion.police_details.all()),
        }
    return {}


def _section_context(
    access: OrgAccess, occasion: Occasion, section: str, bound: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    records = paper_records(occasion)
    return {
        "org": access.organization,
        "access": access,
        "occasion": occasion,
        "page": "paper",
        "section": section,
        "title": TITLES[section],
        "sections": SECTIONS,
        "record": records[-1] if records else None,
        "forms": bound,
        "recorded": _recorded(occasion, section),
        "next": _next(section),
        **extra,
    }


@org_view()
def paper_section(request: HttpRequest, pk: int, section: str) -> HttpResponse:
    access = access_of(request)
    occasion = get_occasion(access, pk)
    if section not in TITLES:
        raise Http404
    if section == "games":
        return redirect("paper_games", org_id=access.organization.pk, pk=pk)
    records = paper_records(occasion)
    if not records:
        messages.info(request, "First say which part of the night comes from paper.")
        return redirect("paper_home", org_id=access.organization.pk, pk=pk)
    if request.method != "POST":
        bound = _section_forms(occasion, section)
        return render(
            request,
            "nightfile/section.html",
            _section_context(access, occasion, section, bound),
        )
    bound = _section_forms(occasion, section, request.POST)
    refusal = None
    if valid_forms(bound):
        refusal = record_acts(
            request, occasion, records[-1], _section_acts(occasion, section, bound)
        )
        if refusal is None:
            messages.success(request, entered(f"{TITLES[section]}: entered", occasion, bound))
            if section == "attendance" and (game := _after_attendance(occasion)) is not None:
                return redirect(
                    "paper_game", org_id=access.organization.pk, pk=pk, number=game.number
                )
            following = _next(section)
            if following is None:
                return redirect("paper_home", org_id=access.organization.pk, pk=pk)
            return redirect(
                "paper_section", org_id=access.organization.pk, pk=pk, section=following
            )
    occasion.refresh_from_db()
    context = _section_context(access, occasion, section, bound, refusal=refusal)
    return render(request, "nightfile/section.html", context)

"""The control-sheet entry pages' forms: what each sheet says, in its order and words. They only
shape input into the night format's rows (``nightfile.format``); the engine records them
through the floor's services and the rules judge each act as of the moment written on the sheet.

A time is typed as on the sheet, "19:05", "7:05 PM" or "7:05", read in the night's context
(``occasions.night_time``); one before 6:00 AM is the morning after."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils import timezone

from beano.rules.money import PRICE, AmountKind, MoneyField, QuantityField
from beano.rules.opening import CHECKLIST
from beano.rules.workers import WorkerRole
from nightfile import format as fmt
from occasions.models import Occasion, PriceListItem, WorkerPresence
from occasions.night_time import NightTimeField, moment
from organizations.models import WorkerListEntry

SERIALS = re.compile(r"^[\d,\s]*$", re.ASCII)


def money_field(label: str, kind: AmountKind) -> MoneyField:
    """An amount of a sheet's row (blank while the row is), with the ceiling of its kind."""
    field = MoneyField(kind=kind, label=label, required=False)
    field.widget.attrs["size"] = 9
    return field


def count_field(label: str = "", **kwargs: Any) -> QuantityField:
    kwargs.setdefault("required", False)
    field = QuantityField(label=label, min_value=0, max_value=99_999, **kwargs)
    field.widget.attrs["size"] = 6
    return field


def _serials(text: str) -> tuple[int, ...]:
    if not SERIALS.match(text or ""):
        raise forms.ValidationError("List the serials not sold as numbers, e.g. 1050, 1077.")
    return tuple(int(n) for n in re.split(r"[,\s]+", text.strip()) if n)


# Beginning: which part of the night comes from paper ---------------------------------------------


class BeginForm(forms.Form):
    scope = forms.ChoiceField(
        label="What is entered from paper",
        choices=[
            ("whole", "The whole night (nothing of it was recorded live)"),
            ("part", "Part of the night (an outage, a paper door): from one time to another"),
        ],
        widget=forms.RadioSelect,
    )
    starts_at = NightTimeField(label="From", required=False)
    ends_at = NightTimeField(label="To", required=False)
    sheets = forms.CharField(
        label="Control sheets entered",
        max_length=300,
        help_text="As they are filed for inspection, e.g. door tally, game sheets 1–12, payouts.",
    )
    reason = forms.CharField(
        label="Why the night was not recorded live", max_length=300, help_text="E.g. Wi-Fi down."
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("scope") == "part" and not (data.get("starts_at") and data.get("ends_at")):
            raise forms.ValidationError("Give the time the paper part starts and when it ends.")
        return data


# The sign-in sheet ----------------------------------------------------------------------------


class WorkerRowForm(forms.Form):
    entry = forms.ModelChoiceField(
        label="Worker", queryset=WorkerListEntry.objects.none(), required=False
    )
    role = forms.ChoiceField(label="Role", choices=[("", "—"), *WorkerRole.choices], required=False)
    identification = forms.CharField(label="ID shown", max_length=60, required=False)
    signed_in = NightTimeField(label="Time in", required=False)

    def __init__(self, *args: Any, entries: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = (
            entries if entries is not None else self.fields["entry"].queryset
        )
        self.fields["entry"].label_from_instance = lambda e: e.person.legal_name
        style(self)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        filled = [data.get(k) for k in ("entry", "role", "signed_in")]
        if any(filled) and not all(filled):
            raise forms.ValidationError("Give the worker, their role and the time in.")
        return data

    def row(self, occasion: Occasion) -> fmt.WorkerRow | None:
        data = self.cleaned_data
        if not data.get("entry"):
            return None
        return fmt.WorkerRow(
            name=data["entry"].person.legal_name,
            role=data["role"],
            identification=data.get("identification", ""),
            signed_in=moment(occasion, data["signed_in"]),
        )


def style(form: forms.Form) -> None:
    """Bootstrap's classes on each widget, for forms laid out as a sheet's table (each cell a
    bare input with a hidden label) rather than by crispy's field layout."""
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, forms.CheckboxInput):
            css = "form-check-input"
        elif isinstance(widget, forms.Select):
            css = "form-select"
        else:
            css = "form-control"
        widget.attrs["class"] = f"{widget.attrs.get('class', '')} {css}".strip()


class RowForm(forms.Form):
    """A row of a sheet's table: blank rows are skipped; a row begun needs its ``needs``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        style(self)

    key = ""
    needs: tuple[str, ...] = ()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get(self.key) not in (None, ""):
            missing = [
                str(self.fields[n].label).lower() for n in self.needs if data.get(n) in (None, "")
            ]
            if missing:
                raise forms.ValidationError("Also give: " + ", ".join(missing) + ".")
        return data

    @property
    def filled(self) -> bool:
        return self.cleaned_data.get(self.key) not in (None, "")


# The price list and the program ----------------------------------------------------------------


class PriceRowForm(RowForm):
    key = "label"
    needs = ("category", "price")

    category = forms.ChoiceField(
        label="Category", choices=[("", "—"), *PriceListItem.Category.choices], required=False
    )
    label = forms.CharField(label="As posted", max_length=100, required=False)
    price = money_field("Price ($)", PRICE)
    package_contents = forms.CharField(label="Package contents", max_length=200, required=False)

    def row(self, occasion: Occasion) -> fmt.PriceRow | None:
        d = self.cleaned_data
        if not self.filled:
            return None
        return fmt.PriceRow(d["category"], d["label"], d["price"], d.get("package_contents", ""))


# The opening checklist ------------------------------------------------------------------------


class OpeningForm(forms.Form):
    """The opening checklist as attested on the sheet: the items ticked, who signed it (a member
    in charge of the night, from the sign-in sheet) and the times written, not confirmed live."""

    items = forms.MultipleChoiceField(
        label="Items checked on the sheet",
        choices=[(i.code, f"{i.title} ({i.citation.removeprefix('961 CMR ')})") for i in CHECKLIST],
        widget=forms.CheckboxSelectMultiple,
        initial=[i.code for i in CHECKLIST],
        required=False,
    )
    attested_by = forms.ModelChoiceField(
        label="Attested by (signed on the sheet)",
        queryset=WorkerPresence.objects.none(),
        required=False,
        empty_label="— no signature on the sheet",
        help_text="A member in charge of the night, as signed in on the sign-in sheet.",
    )
    checked_at = NightTimeField(label="Checklist confirmed at", required=False)
    opened_at = NightTimeField(label="Occasion opened at", required=False)

    def __init__(self, *args: Any, occasion: Occasion | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.occasion = occasion
        field = self.fields["attested_by"]
        if occasion is not None:
            field.queryset = (
                WorkerPresence.objects.filter(occasion=occasion, role=WorkerRole.MEMBER_IN_CHARGE)
                .select_related("entry__person")
                .order_by("signed_in_at", "pk")
            )
            first = field.queryset.first()
            if first is not None:
                field.initial = first.pk
        field.label_from_instance = lambda p: (
            f"{p.entry.person.legal_name}, in at {timezone.localtime(p.signed_in_at):%-I:%M %p}"
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("items") and not data.get("checked_at"):
            raise forms.ValidationError("Give the time the checklist was confirmed.")
        if not data.get("items") and not data.get("opened_at"):
            raise forms.ValidationError("Tick the items checked, or give the opening time.")
        if (
            data.get("opened_at")
            and data.get("checked_at")
            and moment(self.occasion, data["checked_at"]) > moment(self.occasion, data["opened_at"])
        ):
            raise forms.ValidationError("The checklist is confirmed before the occasion opens.")
        return data


class VaryingPrizesSheetForm(forms.Form):
    """Prizes varying with the number of players, announced before any game (3.04(8)(d))."""

    announced_at = NightTimeField(label="Varying prizes announced at", required=False)
    persons_entitled_to_play = QuantityField(
        label="Persons entitled to play announced", min_value=0, max_value=100_000, required=False
    )
    prizes_announced = forms.CharField(
        label="Prizes announced",
        max_length=1000,
        required=False,
        widget=forms.Textarea({"rows": 2}),
    )
    refunds_offered = forms.BooleanField(label="Refunds offered to paid patrons", required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        keys = ("announced_at", "persons_entitled_to_play", "prizes_announced")
        if any(data.get(k) not in (None, "") for k in keys) and not all(
            data.get(k) not in (None, "") for k in keys
        ):
            raise forms.ValidationError(
                "An announcement of varying prizes needs its time, the persons entitled to play "
                "and the prizes announced."
            )
        return data

    def announcement(self, occasion: Occasion) -> fmt.VaryingPrizes | None:
        d = self.cleaned_data
        if not d.get("announced_at"):
            return None
        return fmt.VaryingPrizes(
            at=moment(occasion, d["announced_at"]),
            persons_entitled_to_play=d["persons_entitled_to_play"],
            prizes_announced=d["prizes_announced"],
            refunds_offered=bool(d.get("refunds_offered")),
        )


# The door tally -------------------------------------------------------------------------------


class DoorForm(forms.Form):
    """One row per posted item: a count, or the first and last serial sold and those not sold."""

    counted_at = NightTimeField(label="Counted at (the time on the tally)")

    def __init__(self, *args: Any, items: list[PriceListItem], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.items = items
        for item in items:
            self.fields[f"qty_{item.pk}"] = count_field("Quantity")
            self.fields[f"first_{item.pk}"] = count_field("First serial")
            self.fields[f"last_{item.pk}"] = count_field("Last serial")
            self.fields[f"excluded_{item.pk}"] = forms.CharField(
                label="Serials not sold", required=False, max_length=300
            )
        style(self)

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "item": item,
                "qty": self[f"qty_{item.pk}"],
                "first": self[f"first_{item.pk}"],
                "last": self[f"last_{item.pk}"],
                "excluded": self[f"excluded_{item.pk}"],
            }
            for item in self.items
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for item in self.items:
            try:
                data[f"excluded_{item.pk}"] = _serials(data.get(f"excluded_{item.pk}", ""))
            except forms.ValidationError as error:
                self.add_error(f"excluded_{item.pk}", error)
        return data

    def tally(self, occasion: Occasion) -> fmt.DoorTally | None:
        data = self.cleaned_data
        lines = []
        for item in self.items:
            qty, first, last = (data.get(f"{k}_{item.pk}") for k in ("qty", "first", "last"))
            if qty is None and first is None and last is None:
                continue
            lines.append(
                fmt.CountLine(
                    category=item.category,
                    quantity=qty,
                    first_serial=first,
                    last_serial=last,
                    excluded=data.get(f"excluded_{item.pk}", ()),
                )
            )
        if not lines:
            return None
        return fmt.DoorTally(at=moment(occasion, data["counted_at"]), lines=tuple(lines))


class VoidRowForm(forms.Form):
    category = forms.ChoiceField(label="Category", required=False)
    quantity = count_field("Quantity")
    reason = forms.CharField(label="Reason", max_length=300, required=False)
    witness = forms.ModelChoiceField(
        label="Witness (signed)", queryset=WorkerPresence.objects.none(), required=False
    )
    sold_at = NightTimeField(label="Sold at", required=False)
    voided_at = NightTimeField(label="Voided at", required=False)

    def __init__(self, *args: Any, items: Any = (), presences: Any = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [("", "—")] + [(i.category, i.label) for i in items]
        if presences is not None:
            self.fields["witness"].queryset = presences
        self.fields["witness"].label_from_instance = lambda p: p.entry.person.legal_name
        style(self)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        keys = ("category", "quantity", "reason", "witness", "voided_at")
        if any(data.get(k) for k in keys) and not all(data.get(k) for k in keys):
            raise forms.ValidationError(
                "A void needs its category, quantity, reason, witness and the time voided."
            )
        return data

    def void(self, occasion: Occasion) -> fmt.DoorVoid | None:
        data = self.cleaned_data
        if not data.get("category"):
            return None
        sold = data.get("sold_at") or data["voided_at"]
        return fmt.DoorVoid(
            at=moment(occasion, data["voided_at"]),
            sold_at=moment(occasion, sold),
            lines=(fmt.CountLine(data["category"], quantity=data["quantity"]),),
            reason=data["reason"],
            witness=data["witness"].entry.person.legal_name,
        )


# Attendance ---------------------------------------------------------------------------------


class AttendanceSheetForm(forms.Form):
    players = QuantityField(label="Players announced", min_value=0, max_value=100_000)
    announced_at = NightTimeField(label="Announced at")
    second_half_at = NightTimeField(label="Second half started at", required=False)


# The close ----------------------------------------------------------------------------------


class CloseSheetForm(forms.Form):
    closed_at = NightTimeField(label="Occasion closed at")

    def __init__(self, *args: Any, presences: list[WorkerPresence] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.presences = list(presences)
        for p in self.presences:
            self.fields[f"out_{p.pk}"] = NightTimeField(
                label=f"{p.entry.person.legal_name} left at",
                required=False,
                help_text="Blank: at the close.",
            )

"""The acts of the floor's sheets: the sign-in sheet, the price list, the opening checklist and
the opening, the door tally and its voids, the attendance and the halves, the close, and the
bookkeeper's close-out."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from django.core.exceptions import ValidationError

from beano.rules.opening import CHECKLIST
from nightfile import format as fmt
from nightfile.acts import Act, Night, key, listed_entry
from occasions import extras_services, floor_services, sales_services, tally_services
from occasions import services as occasion_services
from occasions.models import Occasion, PriceListItem, Sale, WorkerPresence
from occasions.tally_services import TallyLine


def worker_acts(rows: Sequence[fmt.WorkerRow], *, sign_outs: bool = True) -> list[Act]:
    acts = []
    for row in rows:

        def sign_in(n: Night, row: fmt.WorkerRow = row) -> None:
            entry = listed_entry(n.occasion, row.name, by=n.by, role=row.role)
            n.presences[key(row.name)] = floor_services.sign_in_worker(
                occasion=n.occasion,
                entry=entry,
                role=row.role,
                identification=row.identification,
                by=n.by,
                at=n.at(row.signed_in),
            )

        acts.append(Act(row.signed_in, "sign_in", "Sign-in sheet", f"{row.name} in", sign_in))
        if sign_outs and row.signed_out is not None:

            def sign_out(n: Night, row: fmt.WorkerRow = row) -> None:
                presence = n.worker(row.name, what="Signing out")
                presence.refresh_from_db()
                if presence.signed_out_at is None:
                    floor_services.sign_out_worker(
                        presence=presence, by=n.by, at=n.at(row.signed_out)
                    )

            acts.append(
                Act(row.signed_out, "sign_out", "Sign-in sheet", f"{row.name} out", sign_out)
            )
    return acts


def checklist_acts(
    at: dt.datetime | None,
    items: Sequence[str] | None,
    attested_by: WorkerPresence | None = None,
) -> list[Act]:
    """The opening checklist as the sheet has it: the items ticked, at the time written, and
    (on the pages) the member in charge whose signature attests it."""
    if at is None:
        return []
    codes = list(items) if items is not None else [item.code for item in CHECKLIST]

    def confirm(n: Night) -> None:
        for code in codes:
            floor_services.confirm_check(
                occasion=n.occasion, item=code, by=n.by, at=n.at(at), attested_by=attested_by
            )

    return [Act(at, "checklist", "Opening checklist", "checklist confirmed", confirm)]


def price_acts(rows: Sequence[fmt.PriceRow]) -> list[Act]:
    if not rows:
        return []

    def post(n: Night) -> None:
        occasion_services.set_price_list(
            occasion=n.occasion,
            items=[
                {
                    "category": r.category,
                    "label": r.label,
                    "price": str(r.price),
                    "package_contents": r.package_contents,
                }
                for r in rows
            ],
            by=n.by,
        )

    return [Act(None, "sign_in", "Price list", "price list posted", post)]


def open_acts(at: dt.datetime | None) -> list[Act]:
    if at is None:
        return []
    return [
        Act(
            at,
            "open",
            "Opening checklist",
            "occasion opened",
            lambda n: floor_services.open_occasion(occasion=n.occasion, by=n.by, at=n.at(at)),
        )
    ]


def _tally_lines(occasion: Occasion, lines: Sequence[fmt.CountLine]) -> list[TallyLine]:
    items = {}
    for item in PriceListItem.objects.filter(occasion=occasion).order_by("pk"):
        items.setdefault(item.category, item)
    out = []
    for line in lines:
        item = items.get(line.category)
        if item is None:  # not posted: the rules refuse it (3.04(4)(c)), as a live sale's
            category = PriceListItem.Category(line.category)
            item = PriceListItem(category=category, label=category.label, price=Decimal("0.00"))
        out.append(
            TallyLine(
                item=item,
                quantity=line.quantity,
                serial_first=line.first_serial,
                serial_last=line.last_serial,
                serials_excluded=tuple(line.excluded),
            )
        )
    return out


def door_acts(tallies: Sequence[fmt.DoorTally], voids: Sequence[fmt.DoorVoid]) -> list[Act]:
    acts = []
    for i, tally in enumerate(tallies, 1):

        def count(n: Night, tally: fmt.DoorTally = tally) -> None:
            sale = tally_services.record_door_tally(
                occasion=n.occasion,
                lines=_tally_lines(n.occasion, tally.lines),
                by=n.by,
                at=n.at(tally.at),
            )
            if n.admission_receipt is None and sale.has_admission:
                n.admission_receipt = sale.number

        acts.append(Act(tally.at, "tally", "Door tally", f"count {i}", count))
    for i, void in enumerate(voids, 1):
        holder: dict[str, Sale] = {}

        def sell(n: Night, void: fmt.DoorVoid = void, holder: dict = holder) -> None:
            holder["sale"] = tally_services.record_door_tally(
                occasion=n.occasion,
                lines=_tally_lines(n.occasion, void.lines),
                by=n.by,
                at=n.at(void.sold_at or void.at),
            )

        def cancel(n: Night, void: fmt.DoorVoid = void, holder: dict = holder) -> None:
            sales_services.void_sale(
                sale=holder["sale"],
                reason=void.reason,
                witness=None,
                witness_worker=n.worker(void.witness, what="The void's witness"),
                by=n.by,
                at=n.at(void.at),
            )

        acts.append(Act(void.sold_at or void.at, "sold_void", "Door tally", f"void {i}", sell))
        acts.append(Act(void.at, "void", "Door tally", f"void {i}", cancel))
    return acts


def attendance_acts(
    players: int | None, at: dt.datetime | None, second_half: dt.datetime | None
) -> list[Act]:
    acts = []
    if players is not None and at is not None:
        acts.append(
            Act(
                at,
                "attendance",
                "Attendance",
                f"{players} players announced",
                lambda n: sales_services.announce_attendance(
                    occasion=n.occasion, players=players, by=n.by, at=n.at(at)
                ),
            )
        )
    if second_half is not None:
        acts.append(
            Act(
                second_half,
                "second_half",
                "Attendance",
                "second half started",
                lambda n: sales_services.start_second_half(
                    occasion=n.occasion, by=n.by, at=n.at(second_half)
                ),
            )
        )
    return acts


def varying_acts(v: fmt.VaryingPrizes | None) -> list[Act]:
    if v is None:
        return []
    return [
        Act(
            v.at,
            "varying",
            "Extras",
            "prizes varying with attendance announced",
            lambda n: extras_services.announce_varying_prizes(
                occasion=n.occasion,
                persons_entitled_to_play=v.persons_entitled_to_play,
                prizes_announced=v.prizes_announced,
                applies_to_all_games=True,
                refunds_offered=v.refunds_offered,
                by=n.by,
                at=n.at(v.at),
            ),
        )
    ]


def close_acts(at: dt.datetime | None) -> list[Act]:
    if at is None:
        return []
    return [
        Act(
            at,
            "close",
            "Close",
            "occasion closed",
            lambda n: floor_services.close_occasion(occasion=n.occasion, by=n.by, at=n.at(at)),
        )
    ]


def closeout_acts(sheet: fmt.CloseOutSheet | None, closed_at: dt.datetime | None) -> list[Act]:
    """The bookkeeper's close-out after the close: the counts, the cash, the expenses."""
    if sheet is None:
        return []

    def close_out(n: Night) -> None:
        from organizations.models import Equipment
        from reports import closeout_services
        from reports.models import ExpenseKind

        closeout_services.save_closeout(
            occasion=n.occasion,
            opening_bank=sheet.opening_bank,
            cash_counted=sheet.cash_counted,
            counts=sheet.counts,
            explanation=sheet.explanation,
            cash_verified_by_worker=n.worker(sheet.cash_verified_by, what="The count's verifier")
            if sheet.cash_verified_by
            else None,
            by=n.by,
            at=n.at(closed_at),
        )
        for row in sheet.expenses:
            kind = ExpenseKind.objects.filter(code=row.kind).first()
            if kind is None:
                raise ValidationError(f"{row.kind!r} is not a kind of expense.")
            equipment = None
            if row.equipment:
                equipment = Equipment.objects.filter(
                    organization=n.occasion.organization, serial_number=row.equipment
                ).first()
                if equipment is None:
                    raise ValidationError(f"No equipment with serial {row.equipment} is on record.")
            closeout_services.record_expense(
                occasion=n.occasion,
                kind=kind,
                payee=row.payee,
                amount=row.amount,
                description=row.description,
                invoice_reference=row.invoice,
                equipment=equipment,
                worker_entry=listed_entry(n.occasion, row.worker, by=n.by) if row.worker else None,
                by=n.by,
            )

    return [Act(closed_at, "closeout", "Close-out", "the bookkeeper's close-out", close_out)]

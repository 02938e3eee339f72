"""A paper door's tally: the door's count by category from its control sheet, entered after
the fact as one receipt marked as a tally, judged by the rules of every sale as of its moment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Max

from beano import rules
from beano.actors import Actor
from beano.rules.charges import RECORD_SALE, SaleFacts, SaleLineFact
from occasions import live, moments
from occasions.models import Occasion, PriceListItem, Sale, SaleLine
from occasions.sales_selectors import door_counts
from occasions.sales_services import ZERO, line_rows
from occasions.services import lock_occasion, moment_of, open_at
from organizations.audit import record_event


@dataclass(frozen=True)
class TallyLine:
    """One category of a paper door's count: a quantity, or the serials of the cards sold (first
    and last, less those in the range not sold here)."""

    item: PriceListItem
    quantity: int | None = None
    serial_first: int | None = None
    serial_last: int | None = None
    serials_excluded: tuple[int, ...] = ()

    def counted(self) -> int:
        if self.serial_first is None and self.serial_last is None:
            if self.quantity is None:
                raise ValidationError(f"{self.item.label}: give the number sold or the serials.")
            return self.quantity
        if self.serial_first is None or self.serial_last is None:
            raise ValidationError(f"{self.item.label}: give the first and the last serial sold.")
        if self.serial_last < self.serial_first:
            raise ValidationError(f"{self.item.label}: the last serial comes after the first.")
        outside = [
            n for n in self.serials_excluded if not self.serial_first <= n <= self.serial_last
        ]
        if outside:
            raise ValidationError(
                f"{self.item.label}: serial {outside[0]} is not between "
                f"{self.serial_first} and {self.serial_last}."
            )
        if len(set(self.serials_excluded)) != len(self.serials_excluded):
            raise ValidationError(f"{self.item.label}: a serial is left out twice.")
        count = self.serial_last - self.serial_first + 1 - len(self.serials_excluded)
        if self.quantity is not None and self.quantity != count:
            raise ValidationError(
                f"{self.item.label}: serials {self.serial_first}–{self.serial_last} less "
                f"{len(self.serials_excluded)} make {count}, not {self.quantity}."
            )
        return count


#: The most of one category a paper tally may count: a night's door, not a typing slip.
MAX_TALLY = 9999


def _tally_counts(
    occasion: Occasion, lines: Sequence[TallyLine]
) -> dict[Any, tuple[TallyLine, int]]:
    """Each item's count in the tally (item id, or the category of an item never posted → line,
    quantity), those of 0 left out. An item not on this occasion's posted list is counted too:
    the rules refuse it (3.04(4)(c)), and the refusal is logged."""
    counted: dict[Any, tuple[TallyLine, int]] = {}
    for line in lines:
        slot = line.item.pk or ("not posted", line.item.category)
        if slot in counted:
            raise ValidationError(f"{line.item.label} is counted twice in one tally.")
        quantity = line.counted()
        if isinstance(quantity, bool) or not 0 <= quantity <= MAX_TALLY:
            raise ValidationError(f"{line.item.label}: a count is from 0 to {MAX_TALLY}.")
        if quantity:
            counted[slot] = (line, quantity)
    if not counted:
        raise ValidationError("Enter a count for at least one category.")
    return counted


@rules.atomic()
def record_door_tally(
    *, occasion: Occasion, lines: Sequence[TallyLine], by: Actor, at: moments.At
) -> Sale:
    """Entered from paper: the door's count by category from its control sheet (totals, or
    serial ranges less the serials not sold), as one receipt marked as a tally, at the time the
    sheet gives. Judged by the rules of every sale as of that moment: at the posted prices, from
    the posted list, while the occasion was open (3.04(4)(c)), extras only with admissions
    counted (3.04(5)(b))."""
    if moments.paper_of(at) is None:
        raise ValidationError("A door tally is entered from the night's paper control sheet.")
    occasion = lock_occasion(occasion)
    moment = moment_of(occasion, at, by=by, act="entering the door's tally")
    counted = _tally_counts(occasion, lines)
    posted = {i.pk: i for i in PriceListItem.objects.filter(occasion=occasion)}
    rules.enforce(
        RECORD_SALE,
        SaleFacts(
            occasion_open=open_at(occasion, moment),
            lines=tuple(
                SaleLineFact(
                    label=line.item.label,
                    category=line.item.category,
                    quantity=quantity,
                    unit_price=line.item.price,
                    posted_price=posted[line.item.pk].price if line.item.pk in posted else None,
                )
                for line, quantity in counted.values()
            ),
            tally=True,
            admissions_before=door_counts(occasion).admissions,
        ),
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )
    last = Sale.objects.filter(occasion=occasion).aggregate(last=Max("number"))["last"] or 0
    sale = Sale.objects.create(
        occasion=occasion, number=last + 1, sold_by=by, sold_at=moment, tally=True
    )
    created = SaleLine.objects.bulk_create(
        SaleLine(
            sale=sale,
            price_item=posted[item_id],
            category=posted[item_id].category,
            quantity=quantity,
            unit_price=posted[item_id].price,
            amount=SaleLine.amount_for(quantity, posted[item_id].price),
            serial_first=line.serial_first,
            serial_last=line.serial_last,
            serials_excluded=sorted(line.serials_excluded),
        )
        for item_id, (line, quantity) in counted.items()
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.door_tally.recorded",
        target=sale,
        new={
            "number": sale.number,
            "lines": line_rows(created),
            "serials": [
                {"item": c.price_item_id, "first": c.serial_first, "last": c.serial_last}
                for c in created
                if c.serial_first is not None
            ],
            "total": sum((line.amount for line in created), ZERO),
        },
    )
    live.changed(occasion.pk, live.DOOR)
    return sale

"""The report's figures of the door's voids, the drawer and the deposit: the voided receipts
with their reason, who voided them and who witnessed; the drawer counted by denomination, by
whom and verified by whom (against the cash expected, in ``Cash``); and the occasion's deposit
to the gaming account, if recorded by the time of filing. The drawer and the deposit are
read by ``banking.figures`` (``reports.extensions.CASH``)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils import timezone

from beano.rules.money import cents
from occasions.models import Occasion, Sale


@dataclass(frozen=True)
class VoidFigure:
    receipt: int
    amount: Decimal
    voided_at: str
    reason: str
    voided_by: str
    witness: str


@dataclass(frozen=True)
class DrawerLine:
    label: str
    pieces: int
    amount: Decimal


@dataclass(frozen=True)
class DrawerFigure:
    lines: list[DrawerLine]
    total: Decimal
    counted_by: str
    verified_by: str
    counted_at: str


@dataclass(frozen=True)
class DepositFigure:
    amount: Decimal
    deposited_on: str
    due_on: str
    slip_reference: str
    days_late: int
    late_reason: str


def person_name(user: object) -> str:
    """A user's full name (or username) as the report prints it; empty for none."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()  # type: ignore[attr-defined]


def _witness(sale: Sale) -> str:
    if sale.void_witness_worker_id:
        return f"{sale.void_witness_worker.entry.person.legal_name} (attested on paper)"
    return person_name(sale.void_witness)


def voids(occasion: Occasion) -> list[VoidFigure]:
    """The voided receipts of the door, each with its amount, reason, voider and witness."""
    sales = (
        Sale.objects.filter(occasion=occasion, voided_at__isnull=False)
        .select_related("voided_by", "void_witness", "void_witness_worker__entry__person")
        .prefetch_related("lines")
        .order_by("number")
    )
    return [
        VoidFigure(
            receipt=s.number,
            amount=cents(sum((line.amount for line in s.lines.all()), Decimal(0))),
            voided_at=timezone.localtime(s.voided_at).isoformat(),
            reason=s.void_reason,
            voided_by=person_name(s.voided_by),
            witness=_witness(s),
        )
        for s in sales
    ]

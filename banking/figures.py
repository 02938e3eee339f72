"""The report's figures of the drawer and the deposit (their shapes are the report's,
``reports.cash_figures``): the drawer counted by denomination, by whom and verified by whom, and
the occasion's deposit to the gaming account, if recorded by the time of filing."""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone

from banking.models import Deposit, DrawerCount
from beano.rules.money import cents
from occasions.models import Occasion
from reports.cash_figures import DepositFigure, DrawerFigure, DrawerLine, person_name
from reports.models import CloseOut


def drawer(occasion: Occasion) -> DrawerFigure | None:
    """The occasion's drawer as counted by denomination, or None."""
    count = (
        DrawerCount.objects.filter(closeout__occasion=occasion)
        .select_related("counted_by", "verified_by")
        .first()
    )
    if count is None:
        return None
    return DrawerFigure(
        lines=[DrawerLine(label, n, cents(amount)) for label, n, amount in count.lines()],
        total=cents(count.total),
        counted_by=person_name(count.counted_by),
        verified_by=person_name(count.verified_by),
        counted_at=timezone.localtime(count.counted_at).isoformat(),
    )


def deposit(occasion: Occasion) -> DepositFigure | None:
    """The occasion's deposit to the gaming account, if recorded yet, or None."""
    made = Deposit.objects.filter(occasion=occasion).first()
    if made is None:
        return None
    return DepositFigure(
        amount=cents(made.amount),
        deposited_on=made.deposited_on.isoformat(),
        due_on=made.due_on.isoformat(),
        slip_reference=made.slip_reference,
        days_late=made.days_late,
        late_reason=made.late_reason,
    )


def drawer_total(closeout: CloseOut) -> Decimal | None:
    """The drawer's total, or None when it was not counted by denomination."""
    return DrawerCount.objects.filter(closeout=closeout).values_list("total", flat=True).first()

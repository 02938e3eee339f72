"""The drawer counted by denomination after the close. One person counts, a second verifies
for themselves, as the close-out's cash count (3.04(1)(e), rule ``R-1E-CASH-COUNTED-BY-TWO``):
the drawer's total becomes the close-out's cash counted, compared with the cash expected."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from banking.models import DENOMINATIONS, DrawerCount
from beano import rules
from beano.actors import Actor
from beano.rules.money import CASH, cents, money
from occasions.models import Occasion
from organizations.audit import acting_user, record_event
from reports.closeout_services import (
    MAX_COUNT,
    CashVerifier,
    _cash_verifier_name,
    _locked_for_closeout,
    _verify_cash_count,
)


def drawer_total(pieces: Mapping[str, int]) -> Decimal:
    values = {code: value for code, _label, value in DENOMINATIONS}
    return cents(sum((values[code] * n for code, n in pieces.items()), Decimal(0)))


def clean_pieces(pieces: Mapping[str, Any]) -> dict[str, int]:
    """The pieces counted, by denomination: whole numbers, 0 or more; at least one piece."""
    known = {code for code, _label, _value in DENOMINATIONS}
    clean: dict[str, int] = {}
    for code, value in pieces.items():
        if code not in known:
            raise ValidationError(f"Unknown denomination {code!r}.")
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNT:
            raise ValidationError({f"n_{code}": "Give the number of pieces, 0 or more."})
        if value:
            clean[code] = value
    if not clean:
        raise ValidationError("Count at least one piece: the drawer is not empty.")
    return clean


@rules.atomic()
def count_drawer(
    *,
    occasion: Occasion,
    pieces: Mapping[str, Any],
    by: Actor,
    verified_by: Any = None,
    verifier_secret: str = "",
) -> DrawerCount:
    """The drawer counted piece by piece by ``by`` and verified by a second person who confirms
    with their own password or PIN; its total becomes the close-out's cash counted."""
    occasion, closeout = _locked_for_closeout(occasion)
    clean = clean_pieces(pieces)
    total = money(drawer_total(clean), CASH, "total")
    old_cash = closeout.cash_counted
    verifier = CashVerifier(verified_by, verifier_secret, None)
    _verify_cash_count(occasion, closeout, by, verifier, from_paper=False)  # counted at the hall
    closeout.cash_counted = total
    closeout.updated_by = acting_user(by)
    closeout.save()
    drawer = DrawerCount.objects.filter(closeout=closeout).first()
    old = (
        {"pieces": drawer.pieces, "total": str(drawer.total)}
        if drawer is not None
        else {"cash_counted": None if old_cash is None else str(old_cash)}
    )
    drawer = drawer or DrawerCount(closeout=closeout)
    drawer.pieces = clean
    drawer.total = total
    drawer.counted_by = acting_user(by)
    drawer.verified_by = closeout.cash_verified_by
    drawer.counted_at = timezone.now()
    drawer.save()
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.drawer.counted",
        target=drawer,
        old=old,
        new={
            "pieces": clean,
            "total": str(total),
            "counted_by": getattr(drawer.counted_by, "username", None),
            "verified_by": _cash_verifier_name(closeout),
        },
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.closeout.saved",
        target=closeout,
        old={"cash_counted": None if old_cash is None else str(old_cash)},
        new={"cash_counted": str(total), "cash_verified_by": _cash_verifier_name(closeout)},
    )
    return drawer

"""What an amendment may change, written down when it opens and put back when it is withdrawn.

A filed report seals its occasion; an amendment reopens only the close-out: the opening bank,
the cash counted (and the drawer counted by denomination), the explanation, the counts, the
expenses and the cards taken from stock.
Withdrawing it must leave all of these exactly as filed, or the close-out page (and the next
amendment) would carry corrections nobody filed (issue 14: an expense added in a withdrawn
amendment stayed in the net proceeds).

The state is kept in the audit event that opens the amendment, rather than in a column: the
trail is the record that is already vouched for (chained and keyed), and while the report is
sealed nothing but an amendment changes the close-out, so the state at opening is the state
filed. Every row put back or taken away is its own audit event."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError

from beano import locking
from beano.actors import Actor
from equipment.inventory_services import take_back_card_usage
from equipment.models import CardUsage
from occasions.models import Occasion
from organizations.audit import acting_user, record_event, snapshot
from organizations.models import AuditEvent
from reports import extensions
from reports.models import CloseOut, ClosingCount, Expense

#: The key of the amendment's opening event that holds the filed state.
STATE_KEY = "filed_state"
CLOSEOUT_FIELDS = (
    "opening_bank",
    "cash_counted",
    "explanation",
    # who counted the cash filed and who verified it (961 CMR 3.04(1)(e)), with the cash
    "cash_counted_by",
    "cash_verified_by",
    "cash_verified_by_worker",
    "cash_verified_at",
)
OPENED = "reports.amendment.opened"


def _plain(value: Any) -> Any:
    """JSON for the state, to the microsecond (the audit encoder keeps only milliseconds, and
    a row put back must be the row that was filed)."""
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, Decimal | dt.date):
        return str(value)
    return value


def _expense_values(expense: Expense) -> dict[str, Any]:
    """Every column of an expense but its occasion, foreign keys as ids: for its audit events,
    whose encoder keeps times as the trail's reconciliation compares them."""
    return {
        f.attname: getattr(expense, f.attname)
        for f in Expense._meta.concrete_fields
        if f.name != "occasion"
    }


def _expense_row(expense: Expense) -> dict[str, Any]:
    return {k: _plain(v) for k, v in _expense_values(expense).items()}


def _usages(occasion: Occasion) -> Any:
    return CardUsage.objects.filter(occasion=occasion)


def filed_state(occasion: Occasion, closeout: CloseOut) -> dict[str, Any]:
    """The close-out as the amendment finds it, for ``restore_filed_state`` to put back."""
    return {
        "closeout": closeout_values(closeout),
        "counts": {c.category: c.counted for c in closeout.counts.all()},
        "expenses": [_expense_row(e) for e in Expense.objects.filter(occasion=occasion)],
        "stock": sorted(_usages(occasion).values_list("pk", flat=True)),
        "drawer": extensions.cash().drawer_state(closeout),
    }


def _restore_drawer(occasion: Occasion, closeout: CloseOut, state: dict, by: Actor) -> str:
    """The drawer as filed (``reports.extensions.CASH``): what was done, for the withdrawal's
    event."""
    if "drawer" not in state:  # an amendment opened before the drawer was kept with the state
        return "not kept with the amendment"
    return extensions.cash().restore_drawer(occasion, closeout, state["drawer"], by)


def state_at_opening(closeout: CloseOut) -> dict[str, Any]:
    """The filed state kept by the open amendment's opening event."""
    event = (
        AuditEvent.objects.filter(
            action=OPENED, target_type=CloseOut._meta.label_lower, target_id=str(closeout.pk)
        )
        .order_by("-sequence")
        .first()
    )
    state = event.new_values.get(STATE_KEY) if event is not None else None
    if state is None:
        raise ValidationError(
            "This amendment was opened before a withdrawal could put the filed close-out back: "
            "correct the close-out to the filed figures and file the amendment instead."
        )
    return state


def closeout_values(closeout: CloseOut) -> dict[str, Any]:
    """The close-out's fields an amendment may change, as the filed state keeps them."""
    return {k: _plain(v) for k, v in snapshot(closeout, CLOSEOUT_FIELDS).items()}


def _restore_closeout(occasion: Occasion, closeout: CloseOut, state: dict, by: Actor) -> bool:
    old = closeout_values(closeout)
    old["counts"] = {c.category: c.counted for c in closeout.counts.all()}
    new = dict(state["closeout"]) | {"counts": state["counts"]}
    if old == new:
        return False
    for name, value in state["closeout"].items():
        field = CloseOut._meta.get_field(name)
        setattr(closeout, field.attname, field.to_python(value))
    closeout.updated_by = acting_user(by)
    closeout.save()
    ClosingCount.objects.filter(closeout=closeout).exclude(category__in=state["counts"]).delete()
    for category, counted in state["counts"].items():
        ClosingCount.objects.update_or_create(
            closeout=closeout, category=category, defaults={"counted": counted}
        )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.closeout.restored",
        target=closeout,
        old=old,
        new=new,
    )
    return True


def _restore_expenses(occasion: Occasion, state: dict, by: Actor) -> tuple[list[int], list[int]]:
    filed = {row["id"]: row for row in state["expenses"]}
    removed: list[int] = []
    for expense in locking.lock(Expense.objects).filter(occasion=occasion):
        if expense.pk in filed:
            continue
        record_event(
            organization=occasion.organization,
            actor=by,
            action="reports.expense.undone",
            target=expense,
            old=_expense_values(expense),
        )
        removed.append(expense.pk)
        expense.delete()
    present = set(Expense.objects.filter(pk__in=filed).values_list("pk", flat=True))
    restored: list[int] = []
    for pk, row in filed.items():
        if pk in present:
            continue
        expense = Expense(
            occasion=occasion,
            **{
                f.attname: f.to_python(row[f.attname])
                for f in Expense._meta.concrete_fields
                if f.attname in row
            },
        )
        expense.save(force_insert=True)
        record_event(
            organization=occasion.organization,
            actor=by,
            action="reports.expense.restored",
            target=expense,
            new=_expense_values(expense),
        )
        restored.append(pk)
    return removed, restored


def restore_filed_state(occasion: Occasion, closeout: CloseOut, by: Actor) -> dict[str, Any]:
    """Put the close-out back as the open amendment found it, each change an audit event; what
    was undone, for the withdrawal's own event. The caller holds the occasion and the close-out
    locked."""
    state = state_at_opening(closeout)
    closeout_restored = _restore_closeout(occasion, closeout, state, by)
    drawer = _restore_drawer(occasion, closeout, state, by)
    removed, restored = _restore_expenses(occasion, state, by)
    taken_back = []
    for usage in _usages(occasion).exclude(pk__in=state["stock"]):
        take_back_card_usage(usage=usage, by=by, reason="The amendment was withdrawn.")
        taken_back.append(usage.pk)
    return {
        "closeout_restored": closeout_restored,
        "expenses_undone": removed,
        "expenses_restored": restored,
        "card_usages_taken_back": taken_back,
        "drawer": drawer,
    }

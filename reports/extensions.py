"""What reports offers the apps above it (filled from their ``AppConfig.ready()``; reports never
imports them).

``CASH``: the drawer counted by denomination after the close and the occasion's deposit to the
gaming bank account (``banking``). The report's figures print both; the filing compares the
drawer's total with the close-out's cash counted (rule ``R-1E-DRAWER-AGREES``); an amendment keeps
the drawer as filed when it opens and puts it back when it is withdrawn. Without it, an occasion
has no drawer counted and no deposit.

``DAY_WAY_IN``: what the reports owed say of a past authorized day with nothing recorded and what
the viewer may do about it (the night file's ``nightfile.way_in``: enter it from paper, report it
not played). Without one, the day is listed as owed and nothing more."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from beano.actors import Actor
from occasions.models import Occasion
from organizations.models import Organization

if TYPE_CHECKING:
    from reports.cash_figures import DepositFigure, DrawerFigure
    from reports.models import CloseOut


@dataclass(frozen=True)
class DrawerAndDeposit:
    """The drawer and the deposit of an occasion, as the app that keeps them reads and writes
    them."""

    #: The drawer counted, for the report's figures, or None.
    drawer_figure: Callable[[Occasion], DrawerFigure | None]
    #: The occasion's deposit to the gaming account, for the report's figures, or None.
    deposit_figure: Callable[[Occasion], DepositFigure | None]
    #: The drawer's total for the close-out, or None when it was not counted by denomination.
    drawer_total: Callable[[CloseOut], Decimal | None]
    #: The drawer as an amendment finds it (plain JSON), or None.
    drawer_state: Callable[[CloseOut], dict[str, Any] | None]
    #: Puts the drawer back as the amendment found it (the state above), each change an audit
    #: event; says what was done ("unchanged", "restored", "taken away").
    restore_drawer: Callable[[Occasion, CloseOut, dict[str, Any] | None, Actor], str]


NO_CASH = DrawerAndDeposit(
    drawer_figure=lambda occasion: None,
    deposit_figure=lambda occasion: None,
    drawer_total=lambda closeout: None,
    drawer_state=lambda closeout: None,
    restore_drawer=lambda occasion, closeout, state, by: "unchanged",
)
CASH: list[DrawerAndDeposit] = []


def set_cash(cash: DrawerAndDeposit) -> None:
    """Registers the drawer and the deposit (again harmlessly: the last one counts)."""
    CASH[:] = [cash]


def cash() -> DrawerAndDeposit:
    return CASH[0] if CASH else NO_CASH


#: ``(organization, roles, day, occasion)`` → an object with ``label``, ``paper_url`` and
#: ``not_played_url``, or None when the day needs no way in. Runs no query.
DayWayIn = Callable[[Organization, Iterable[str], dt.date, Occasion | None], Any]

DAY_WAY_IN: list[DayWayIn] = []


def add_day_way_in(reader: DayWayIn) -> None:
    if reader not in DAY_WAY_IN:
        DAY_WAY_IN.append(reader)


def day_way_in(
    organization: Organization, roles: Iterable[str], day: dt.date, occasion: Occasion | None
) -> Any:
    """The first answer of the apps above, or None (none offered, or no way in needed)."""
    for reader in DAY_WAY_IN:
        way = reader(organization, roles, day, occasion)
        if way is not None:
            return way
    return None

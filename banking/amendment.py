"""The drawer with an amendment (``reports.amendment_state``): kept as filed when the amendment
opens, put back when it is withdrawn. Counted again during the amendment, its filed count is
put back; first counted during it, it is taken away."""

from __future__ import annotations

from typing import Any

from banking.models import DrawerCount
from beano import locking
from beano.actors import Actor
from occasions.models import Occasion
from organizations.audit import record_event
from reports.amendment_state import _plain
from reports.models import CloseOut

#: The drawer's columns kept with the filed state (its close-out is the close-out's own).
DRAWER_FIELDS = ("id", "pieces", "total", "counted_by_id", "verified_by_id", "counted_at")


def _drawer_row(drawer: DrawerCount | None) -> dict[str, Any] | None:
    if drawer is None:
        return None
    return {name: _plain(getattr(drawer, name)) for name in DRAWER_FIELDS}


def drawer_state(closeout: CloseOut) -> dict[str, Any] | None:
    """The drawer as the amendment finds it, or None when it was not counted."""
    return _drawer_row(DrawerCount.objects.filter(closeout=closeout).first())


def _drawer_values(drawer: DrawerCount) -> dict[str, Any]:
    """What the drawer's audit events say of it: the pieces, the total, who counted and who
    verified (by username, as ``reports.drawer.counted`` names them) and when."""
    return {
        "pieces": drawer.pieces,
        "total": str(drawer.total),
        "counted_by": getattr(drawer.counted_by, "username", None),
        "verified_by": getattr(drawer.verified_by, "username", None),
        "counted_at": drawer.counted_at,
    }


def restore_drawer(
    occasion: Occasion, closeout: CloseOut, filed: dict[str, Any] | None, by: Actor
) -> str:
    """The drawer as filed; what was done, for the withdrawal's event. The caller holds the
    occasion and the close-out locked."""
    drawer = locking.lock(DrawerCount.objects).filter(closeout=closeout).first()
    if filed is None and drawer is None:
        return "unchanged"
    org = occasion.organization
    if filed is None:
        assert drawer is not None
        record_event(
            organization=org,
            actor=by,
            action="reports.drawer.undone",
            target=drawer,
            old=_drawer_values(drawer),
        )
        drawer.delete()
        return "taken away"
    if _drawer_row(drawer) == filed:
        return "unchanged"
    old = _drawer_values(drawer) if drawer is not None else None
    drawer = drawer or DrawerCount(closeout=closeout)
    for name in DRAWER_FIELDS:
        field = DrawerCount._meta.get_field(name.removesuffix("_id"))
        setattr(drawer, field.attname, field.to_python(filed[name]))
    drawer.save()
    record_event(
        organization=org,
        actor=by,
        action="reports.drawer.restored",
        target=drawer,
        old=old,
        new=_drawer_values(drawer),
    )
    return "restored"

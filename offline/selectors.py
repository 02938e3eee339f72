"""What the record of an occasion shows of its acts sent from the hall laptop's queue: each
offline stretch of each laptop (the acts one sending of its queue brought), with the first and
last moment claimed, when it was received, how many were recorded and refused, and each refusal
with its citation. One query."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from occasions.models import Occasion
from offline.models import QueuedAct


@dataclass
class Stretch:
    device: str
    first_claimed: dt.datetime
    last_claimed: dt.datetime
    received_at: dt.datetime
    recorded: int = 0
    refused: list[QueuedAct] = field(default_factory=list)
    senders: list[str] = field(default_factory=list)

    @property
    def laptop(self) -> str:
        """The laptop as the record names it: its id's first characters."""
        return self.device[:8]


def offline_stretches(occasion: Occasion) -> list[Stretch]:
    """Each laptop's stretches offline at ``occasion``, in the order they were received."""
    stretches: dict[tuple[str, dt.datetime], Stretch] = {}
    rows = (
        QueuedAct.objects.filter(occasion=occasion)
        .select_related("user")
        .order_by("received_at", "device", "seq")
    )
    for row in rows:
        key = (row.device, row.received_at)
        stretch = stretches.get(key)
        if stretch is None:
            stretch = stretches[key] = Stretch(
                row.device, row.done_at, row.done_at, row.received_at
            )
        stretch.first_claimed = min(stretch.first_claimed, row.done_at)
        stretch.last_claimed = max(stretch.last_claimed, row.done_at)
        if row.state == QueuedAct.State.RECORDED:
            stretch.recorded += 1
        else:
            stretch.refused.append(row)
        name = (row.user.get_full_name() or row.user.get_username()) if row.user else ""
        if name and name not in stretch.senders:
            stretch.senders.append(name)
    return list(stretches.values())

"""The demo door of an open occasion (shared/SAMPLE-NIGHT.md): 118 players, each one admission
with a few extras; one sale rung up wrong and voided before a witness; play started; a handful
buying more cards against their receipt at the intermission; the attendance announced. All of
it goes through the services, so the rules judge it and the audit chain records it. Idempotent:
an occasion that already has sales is left alone."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from occasions import sales_services as services
from occasions.models import Occasion, PriceListItem
from organizations.models import OrganizationRole, Role

PLAYERS = 118
Category = PriceListItem.Category

#: How many of each card a player buys with the admission, and how often (by weight).
EXTRAS = {
    Category.EXTRA_REGULAR: (0, 0, 1, 1, 2, 3),
    Category.BONUS: (0, 1, 1, 2),
    Category.SPECIAL: (0, 1, 1, 1, 2),
    Category.WINNER_TAKE_ALL: (0, 1, 1),
}


def _user(occasion: Occasion, *roles: str) -> Any:
    for role in roles:
        found = (
            OrganizationRole.objects.filter(organization=occasion.organization, role=role)
            .select_related("user")
            .order_by("pk")
            .first()
        )
        if found is not None:
            return found.user
    raise ValueError(f"{occasion.organization} has no user in the roles {', '.join(roles)}.")


def seed_sales(occasion: Occasion, today: dt.date) -> None:
    """Sell the demo night's door at ``occasion``, which must be open, at the times of its
    night: the door from the opening, play 15 minutes later, attendance at the intermission."""
    if occasion.status != Occasion.Status.OPEN:
        raise ValueError("The occasion must be open before its door is seeded.")
    if occasion.sales.exists():
        return
    seller = _user(occasion, Role.WORKER, Role.MEMBER_IN_CHARGE)
    in_charge = _user(occasion, Role.MEMBER_IN_CHARGE, Role.HEAD)
    witness = _user(occasion, Role.HEAD, Role.BOOKKEEPER)
    items = {i.category: i for i in occasion.price_items.order_by("pk")}
    admission = items[Category.ADMISSION]
    rng = random.Random(today.toordinal())

    def extras() -> list[tuple[PriceListItem | int, int]]:
        chosen = {c: rng.choice(weights) for c, weights in EXTRAS.items() if c in items}
        return [(items[c], n) for c, n in chosen.items() if n]

    start = occasion.opened_at

    def clock(seconds: float) -> dt.datetime:
        return start + dt.timedelta(seconds=seconds)

    receipts = []
    for player in range(PLAYERS):
        if player == 40 and Category.SPECIAL in items:
            wrong = services.record_sale(
                occasion=occasion,
                lines=[(admission, 1), (items[Category.SPECIAL], 3)],
                admission_receipt=None,
                by=seller,
                at=clock(player * 7),
            )
            services.void_sale(
                sale=wrong,
                reason="Rang up 3 special game cards instead of 1; resold on the next receipt.",
                witness=witness,
                by=in_charge,
                at=clock(player * 7 + 2),
            )
            lines: list[tuple[PriceListItem | int, int]] = [
                (admission, 1),
                (items[Category.SPECIAL], 1),
            ]
        else:
            lines = [(admission, 1), *extras()]
        sale = services.record_sale(
            occasion=occasion,
            lines=lines,
            admission_receipt=None,
            by=seller,
            at=clock(player * 7 + 4),
        )
        receipts.append(sale.number)
    services.start_play(occasion=occasion, by=in_charge, at=clock(15 * 60))
    for n, number in enumerate(rng.sample(receipts, 9)):
        more = extras()
        if more:
            services.record_sale(
                occasion=occasion,
                lines=more,
                admission_receipt=number,
                by=in_charge,
                at=clock(100 * 60 + n * 40),
            )
    services.announce_attendance(
        occasion=occasion, players=PLAYERS, by=in_charge, at=clock(105 * 60)
    )

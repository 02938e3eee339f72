"""The demo door of an open occasion: 118 players, each one admission
with a few extras; one sale rung up wrong and voided before a witness; play started; then, at
the intermission, a handful buying more cards against their receipt and the attendance
announced. All of it goes through the services, so the rules judge it and the audit chain
records it. The hall's Wi-Fi drops for a minute during the door: six players' sales are kept on
the hall laptop and sent from its queue when it comes back (``offline.services.receive``, as the
laptop sends them), so the inspector's record shows an offline stretch and their audit events
say where they came from. Idempotent: the door is sold once, the intermission recorded once."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from typing import Any

from django.urls import reverse

from beano.demo import DEMO_PASSWORD
from occasions import sales_services as services
from occasions.models import AttendanceAnnouncement, Occasion, PriceListItem
from offline import services as offline_services
from organizations.access import resolve_access
from organizations.models import OrganizationRole, Role

PLAYERS = 118
#: The players sold while the hall laptop had no connection (about 11:40 to 12:20 into the door).
OFFLINE_PLAYERS = range(100, 106)
Category = PriceListItem.Category

#: How many of each card a player buys with the admission, and how often (by weight).
EXTRAS = {
    Category.EXTRA_REGULAR: (3, 6, 6, 9, 12, 15),
    Category.BONUS: (1, 1, 2, 2),
    Category.SPECIAL: (1, 2, 2, 3, 4),
    Category.WINNER_TAKE_ALL: (1, 1, 2, 3),
}


def demo_user(occasion: Occasion, *roles: str) -> Any:
    """The organization's first user in the first of ``roles`` that has one."""
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
    night: the door from the opening, play 15 minutes later, the intermission 100 minutes after
    the opening."""
    seed_door(occasion, today)
    seed_intermission(occasion, today)


def _require_open(occasion: Occasion) -> None:
    if occasion.status != Occasion.Status.OPEN:
        raise ValueError("The occasion must be open before its door is seeded.")


def _items(occasion: Occasion) -> dict[str, PriceListItem]:
    return {i.category: i for i in occasion.price_items.order_by("pk")}


def _extras(
    items: dict[str, PriceListItem], rng: random.Random
) -> list[tuple[PriceListItem | int, int]]:
    chosen = {c: rng.choice(weights) for c, weights in EXTRAS.items() if c in items}
    return [(items[c], n) for c, n in chosen.items() if n]


def seed_door(occasion: Occasion, today: dt.date) -> None:
    """The door from the opening, a sale every seven seconds, and play started 15 minutes
    after the opening. Once: an occasion with sales is left alone."""
    _require_open(occasion)
    if occasion.sales.exists():
        return
    seller = demo_user(occasion, Role.WORKER, Role.MEMBER_IN_CHARGE)
    in_charge = demo_user(occasion, Role.MEMBER_IN_CHARGE, Role.HEAD)
    witness = demo_user(occasion, Role.HEAD, Role.BOOKKEEPER)
    items = _items(occasion)
    admission = items[Category.ADMISSION]
    rng = random.Random(today.toordinal())
    start = occasion.opened_at

    def clock(seconds: float) -> dt.datetime:
        return start + dt.timedelta(seconds=seconds)

    kept: list[offline_services.Act] = []
    for player in range(PLAYERS):
        if player in OFFLINE_PLAYERS:
            kept.append(
                _kept_sale(
                    occasion,
                    len(kept) + 1,
                    [(admission, 1), *_extras(items, rng)],
                    clock(player * 7 + 4),
                )
            )
            continue
        if kept:  # the Wi-Fi is back: the laptop sends what it kept, then sells on
            _send_kept(occasion, seller, kept, received_at=clock(player * 7))
            kept = []
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
                witness_secret=DEMO_PASSWORD,  # the witness types their own password
                by=in_charge,
                at=clock(player * 7 + 2),
            )
            lines: list[tuple[PriceListItem | int, int]] = [
                (admission, 1),
                (items[Category.SPECIAL], 1),
            ]
        else:
            lines = [(admission, 1), *_extras(items, rng)]
        services.record_sale(
            occasion=occasion,
            lines=lines,
            admission_receipt=None,
            by=seller,
            at=clock(player * 7 + 4),
        )
    services.start_play(occasion=occasion, by=in_charge, at=clock(15 * 60))


def seed_intermission(occasion: Occasion, today: dt.date, at: dt.datetime | None = None) -> None:
    """At the intermission (``at``; 100 minutes after the opening by default), nine players buy
    more cards for the second half against their admission receipt, 40 seconds apart, and five
    minutes later the attendance is announced. Once: an occasion whose attendance is announced
    is left alone."""
    _require_open(occasion)
    if AttendanceAnnouncement.objects.filter(occasion=occasion).exists():
        return
    in_charge = demo_user(occasion, Role.MEMBER_IN_CHARGE, Role.HEAD)
    items = _items(occasion)
    start = at or occasion.opened_at + dt.timedelta(minutes=100)
    rng = random.Random(today.toordinal() + 1)
    receipts = list(
        occasion.sales.filter(voided_at__isnull=True, admission_sale__isnull=True)
        .order_by("number")
        .values_list("number", flat=True)
    )
    # No winner-take-all card: that game is in the first half, its prize its receipts then.
    items.pop(Category.WINNER_TAKE_ALL, None)
    for n, number in enumerate(rng.sample(receipts, min(9, len(receipts)))):
        more = _extras(items, rng)
        if more:
            services.record_sale(
                occasion=occasion,
                lines=more,
                admission_receipt=number,
                by=in_charge,
                at=start + dt.timedelta(seconds=n * 40),
            )
    services.announce_attendance(
        occasion=occasion, players=PLAYERS, by=in_charge, at=start + dt.timedelta(minutes=5)
    )


def _kept_sale(
    occasion: Occasion, seq: int, lines: list[tuple[PriceListItem, int]], at: dt.datetime
) -> offline_services.Act:
    """A sale as the hall laptop keeps it while offline: the door's form fields, its moment."""
    path = reverse("sale_record", args=[occasion.organization_id, occasion.pk])
    fields = tuple((f"qty_{item.pk}", str(n)) for item, n in lines)
    return offline_services.Act(
        seq=seq,
        key=uuid.uuid5(uuid.NAMESPACE_URL, f"{path}#{seq}"),
        path=path,
        fields=fields,
        done_at=at,
        laptop_at=at - dt.timedelta(seconds=41),  # the laptop's clock is 41 seconds behind
        offset_ms=41_000,
    )


def _send_kept(
    occasion: Occasion, seller: Any, acts: list[offline_services.Act], received_at: dt.datetime
) -> None:
    device = str(uuid.uuid5(uuid.NAMESPACE_URL, f"demo-hall-laptop-{occasion.organization_id}"))
    results = offline_services.receive(
        occasion=occasion,
        device=device,
        acts=acts,
        by=seller,
        access=resolve_access(seller, occasion.organization_id),
        received_at=received_at,
    )
    refused = [r.as_dict() for r in results if r.state != "recorded"]
    if refused:
        raise ValueError(f"The demo's queued sales were refused: {refused}")

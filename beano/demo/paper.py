"""Paper by serial in the demo (961 CMR 3.04(4)(d)2, (e)): Post 171's last night had its paper
issued to the door by serial before it opened and counted back after the close, one special game
card torn at the door and voided (the door had counted it sold: the difference is explained);
St. Anne's open night has its admission paper at the door, not yet counted back. A stock-take
(two bonus cards short, witnessed) and a destruction of water-damaged paper (witnessed).
Recorded through the services, at the times of the night. Idempotent."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model

from beano.demo import DEMO_PASSWORD
from equipment import paper_services
from equipment.models import STOCK_CATEGORY, PaperDestruction, PaperIssue, StockTake
from equipment.paper_stock import movements_of
from occasions.models import Occasion
from organizations.models import CardPurchase

#: The invoice of the boxes bought for the night of 2025 (``beano.demo.last_year``).
LAST_YEARS_INVOICE = "BSB-41877"
#: Cards the door takes beyond what it will sell, counted back at the close.
SPARE = 0.1
TORN = "special"
EXPLANATION = (
    "One special game card (Red 6-on) was torn at the door after it was sold; the player was "
    "given another and the torn one voided, so the serials show one card fewer than the door."
)


def this_seasons(purchases: Any) -> Any:
    """Leaving out the boxes of 2025, all sold the night they were bought for
    (``beano.demo.last_year``)."""
    return purchases.exclude(invoice_number=LAST_YEARS_INVOICE)


def _user(username: str) -> Any:
    return get_user_model().objects.filter(username=username).first()


def _purchase(occasion: Occasion, category: str) -> CardPurchase | None:
    types = [t for t, c in STOCK_CATEGORY.items() if c == category]
    return (
        this_seasons(
            CardPurchase.objects.filter(
                organization=occasion.organization, card_type__in=types, serial_from__isnull=False
            )
        )
        .order_by("invoice_date", "pk")
        .first()
    )


def _next_serial(purchase: CardPurchase) -> int:
    """Past everything issued; what left otherwise (used, destroyed) went from the bottom."""
    last = PaperIssue.objects.filter(purchase=purchase).order_by("-serial_to").first()
    if last is not None:
        return last.serial_to + 1
    gone = purchase.quantity - movements_of([purchase.pk])[purchase.pk].on_hand
    return purchase.serial_from + gone


def _issue(occasion: Occasion, category: str, sold: int, at: dt.datetime, by: Any) -> Any:
    purchase = _purchase(occasion, category)
    if purchase is None:
        return None
    first = _next_serial(purchase)
    quantity = min(sold + max(5, int(sold * SPARE)), purchase.serial_to - first + 1)
    if quantity < sold:
        return None
    return paper_services.issue_paper(
        occasion=occasion,
        purchase=purchase,
        serial_from=first,
        serial_to=first + quantity - 1,
        by=by,
        at=at,
    )


def seed_closed_night(occasion: Occasion, door: dict[str, int], books: Any) -> None:
    """The closed night's paper: issued before the door opened, counted back after the close,
    the torn card voided and explained. Before its report is filed."""
    if PaperIssue.objects.filter(occasion=occasion).exists() or occasion.opened_at is None:
        return
    mic = _user("post171-mic")
    issued_at = occasion.opened_at - dt.timedelta(minutes=20)
    counted_at = (occasion.closed_at or occasion.opened_at) + dt.timedelta(minutes=10)
    for category, sold in door.items():
        if not sold:
            continue
        issue = _issue(occasion, category, sold, issued_at, mic)
        if issue is None:
            continue
        voided = 1 if category == TORN else 0
        paper_services.count_back(
            issue=issue, returned=issue.quantity - sold, voided=voided, by=mic, at=counted_at
        )
    paper_services.explain_paper(occasion=occasion, explanation=EXPLANATION, by=books)


def seed_open_night(occasion: Occasion, by: str) -> None:
    """The open night's admission paper at the door, issued before it opened."""
    if PaperIssue.objects.filter(occasion=occasion).exists() or occasion.opened_at is None:
        return
    _issue(occasion, "admission", 60, occasion.opened_at - dt.timedelta(minutes=15), _user(by))


def seed_stock_records(organization: Any, today: dt.date) -> None:
    """A destruction and a stock-take, each witnessed by the head typing their own password."""
    books, head = _user("post171-books"), _user("post171-head")
    purchases = this_seasons(
        CardPurchase.objects.filter(organization=organization, serial_from__isnull=False)
    )
    special = purchases.filter(card_type="special_game").first()
    if special and not PaperDestruction.objects.filter(purchase=special).exists():
        paper_services.destroy_paper(
            purchase=special,
            quantity=12,
            reason=PaperDestruction.Reason.DAMAGED,
            note="Water under the storage closet door; shredded at the hall.",
            destroyed_on=today - dt.timedelta(days=2),
            witness=head,
            witness_secret=DEMO_PASSWORD,
            by=books,
        )
    bonus = purchases.filter(card_type="bonus").first()
    if bonus and not StockTake.objects.filter(purchase=bonus).exists():
        expected = movements_of([bonus.pk])[bonus.pk].on_hand
        paper_services.take_stock(
            purchase=bonus,
            counted=max(expected - 2, 0),
            reason="Two bonus sheets missing from the opened box; none found at the hall.",
            counted_on=today - dt.timedelta(days=1),
            witness=head,
            witness_secret=DEMO_PASSWORD,
            by=books,
        )

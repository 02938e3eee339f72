"""The night's pack (the contract's §1): what the hall laptop keeps of an open night to go on
working offline: the prices and their boxes, the program with the balls called, the workers
present, the last receipt, the pages to keep and who acts at the laptop. Read in a fixed number
of queries whatever the size of the night."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Max, Prefetch
from django.urls import reverse
from django.utils import timezone

from beano.rules.cards import ball_label
from games.models import BallCall, Game, PrizePart
from occasions.models import Occasion, PriceListItem, Sale, WorkerPresence
from occasions.sales_forms import MAX_QUANTITY
from organizations.access import OrgAccess

VERSION = 1
#: The pack's words for a game's status.
STATES = {
    Game.Status.PLANNED: "not_started",
    Game.Status.IN_PLAY: "calling",
    Game.Status.FINISHED: "finished",
}


def _iso(moment: dt.datetime | None) -> str | None:
    return timezone.localtime(moment).isoformat(timespec="milliseconds") if moment else None


def _hours_end(occasion: Occasion) -> str | None:
    """The latest legal moment of the night by the license's hours (past midnight: the morning
    after), None when the license states none."""
    end = occasion.license.end_time if occasion.license_id else None
    if end is None:
        return None
    day = occasion.date
    start = occasion.license.start_time
    if start is not None and end < start:
        day += dt.timedelta(days=1)
    return _iso(timezone.make_aware(dt.datetime.combine(day, end)))


def _name(user: Any) -> str:
    return (user.get_full_name() or user.get_username()) if user else ""


def _games(occasion: Occasion, org_id: int) -> tuple[list[dict[str, Any]], dict, dict, Any]:
    calls = BallCall.objects.filter(voided_at__isnull=True).order_by("sequence")
    parts = PrizePart.objects.select_related("arrangement").order_by("order")
    games = list(
        Game.objects.filter(occasion=occasion)
        .order_by("number")
        .prefetch_related(
            Prefetch("calls", queryset=calls, to_attr="live_calls"),
            Prefetch("parts", queryset=parts, to_attr="ordered_parts"),
        )
    )
    rows, console, claims = [], {}, {}
    current = None
    for game in games:
        args = [org_id, occasion.pk, game.pk]
        console[str(game.pk)] = reverse("draw_console", args=args)
        claims[str(game.pk)] = reverse("game_claims", args=args)
        first = game.ordered_parts[0] if game.ordered_parts else None
        if game.status == Game.Status.IN_PLAY and current is None:
            current = game.pk
        rows.append(
            {
                "id": game.pk,
                "number": game.number,
                "name": game.get_kind_display(),
                "pattern": str(first.arrangement) if first is not None else "",
                "state": STATES.get(game.status, game.status),
                "called": [ball_label(c.number) for c in game.live_calls],
                "call_path": reverse("draw_call", args=args),
                "claim_path": reverse("claim_record", args=args),
            }
        )
    return rows, console, claims, current


def night_pack(access: OrgAccess, occasion: Occasion, user: Any) -> dict[str, Any]:
    """The pack of ``occasion`` for ``user`` at the laptop."""
    org_id = occasion.organization_id
    args = [org_id, occasion.pk]
    games, console, claims, current = _games(occasion, org_id)
    prices = [
        {
            "id": item.pk,
            "category": item.category,
            "label": item.label,
            "price": f"{item.price:.2f}",
            "field": f"qty_{item.pk}",
            "max": MAX_QUANTITY,
        }
        for item in PriceListItem.objects.filter(occasion=occasion).order_by("pk")
    ]
    workers = [
        {
            "id": p.pk,
            "name": p.entry.person.legal_name,
            "role": p.get_role_display(),
            "signed_in": p.signed_out_at is None,
        }
        for p in WorkerPresence.objects.filter(occasion=occasion)
        .select_related("entry__person")
        .order_by("signed_in_at", "pk")
    ]
    last = Sale.objects.filter(occasion=occasion).aggregate(last=Max("number"))["last"]
    return {
        "version": VERSION,
        "server_time": _iso(timezone.now()),
        "occasion": {
            "id": occasion.pk,
            "organization": org_id,
            "date": occasion.date.isoformat(),
            "status": occasion.status,
            "opened_at": _iso(occasion.opened_at),
            "hours_end": _hours_end(occasion),
        },
        "user": {"id": getattr(user, "pk", None), "name": _name(user)},
        "pages": {
            "door": reverse("door_sales", args=args),
            "workers": reverse("workers_present", args=args),
            "draw": reverse("draw_home", args=args),
            "console": console,
            "claims": claims,
            "flashboard": None,
        },
        "prices": prices,
        "games": games,
        "current_game": current,
        "workers": workers,
        "receipts": {"last": last or 0},
    }

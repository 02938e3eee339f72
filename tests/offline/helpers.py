"""Acts as the hall laptop's queue sends them (the contract's §2), for the offline tests."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any

from django.urls import reverse

from tests.fixtures.games import at_night

DEVICE = "1b2c3d4e-0000-4000-8000-00000000a001"
OTHER_DEVICE = "1b2c3d4e-0000-4000-8000-00000000b002"


def acts_url(occasion: Any) -> str:
    return reverse("offline_acts", args=[occasion.organization_id, occasion.pk])


def pack_url(occasion: Any) -> str:
    return reverse("offline_pack", args=[occasion.organization_id, occasion.pk])


def iso(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def act(seq: int, path: str, fields: dict[str, Any], done_at: dt.datetime, **extra: Any) -> dict:
    return {
        "seq": seq,
        "key": extra.pop("key", None) or str(uuid.uuid4()),
        "path": path,
        "fields": [[k, str(v)] for k, v in fields.items()],
        "done_at": iso(done_at),
        "laptop_at": iso(done_at - dt.timedelta(seconds=2)),
        "offset_ms": 2000,
        **extra,
    }


def sale_act(occasion: Any, seq: int, done_at: dt.datetime, **quantities: int) -> dict:
    items = {i.category: i for i in occasion.price_items.all()}
    fields = {f"qty_{items[c].pk}": n for c, n in (quantities or {"admission": 1}).items()}
    path = reverse("sale_record", args=[occasion.organization_id, occasion.pk])
    return act(seq, path, fields, done_at)


def ball_act(game: Any, seq: int, done_at: dt.datetime, ball: int) -> dict:
    path = reverse("draw_call", args=[game.occasion.organization_id, game.occasion_id, game.pk])
    return act(seq, path, {"ball": ball}, done_at)


def claim_act(game: Any, seq: int, done_at: dt.datetime, **fields: Any) -> dict:
    path = reverse("claim_record", args=[game.occasion.organization_id, game.occasion_id, game.pk])
    values = {
        "part": game.parts.get().pk,
        "ball_in_hand": "",
        "calling_begun": "no",
        "player_name": "Mary Costa",
        "table": "7",
    } | fields
    return act(seq, path, values, done_at)


def send(client: Any, occasion: Any, acts: list[dict], device: str = DEVICE) -> Any:
    body = json.dumps({"device": device, "acts": acts})
    return client.post(acts_url(occasion), body, content_type="application/json")


def night(occasion: Any, hour: int, minute: int, second: int = 0) -> dt.datetime:
    return at_night(occasion, hour, minute, second)

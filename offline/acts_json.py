"""The body of the laptop's queue sent (the contract's §2) read into acts, or refused whole with
one sentence saying what is wrong (answered 400, nothing saved)."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any

from django.utils.dateparse import parse_datetime

from offline.services import Act

MAX_ACTS = 500
MAX_BYTES = 1024 * 1024
MAX_FIELDS = 200


class BadShape(ValueError):
    """The body is not the queue's shape: the sentence says why."""


def _moment(value: Any, what: str, *, required: bool = True) -> dt.datetime | None:
    if value is None and not required:
        return None
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        raise BadShape(f"{what} is not a time (ISO 8601, with its offset).")
    if moment.tzinfo is None:
        raise BadShape(f"{what} has no time zone offset.")
    return moment


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise BadShape(f"{what} is not a whole number.")
    return value


def _fields(value: Any, what: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list) or len(value) > MAX_FIELDS:
        raise BadShape(f"{what}: the fields are not a list of [name, value] pairs.")
    pairs = []
    for pair in value:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not isinstance(pair[0], str)
            or not isinstance(pair[1], str | int | float)
            or isinstance(pair[1], bool)
        ):
            raise BadShape(f"{what}: the fields are not a list of [name, value] pairs.")
        pairs.append((pair[0][:100], str(pair[1])[:5000]))
    return tuple(pairs)


def _act(value: Any, i: int) -> Act:
    what = f"Act {i + 1}"
    if not isinstance(value, dict):
        raise BadShape(f"{what} is not an object.")
    try:
        key = uuid.UUID(str(value.get("key", "")))
    except ValueError:
        raise BadShape(f"{what} has no key (a uuid).") from None
    path = value.get("path")
    if not isinstance(path, str) or not path.startswith("/") or len(path) > 300:
        raise BadShape(f"{what} has no path (the form's action).")
    offset = value.get("offset_ms", 0)
    if isinstance(offset, bool) or not isinstance(offset, int) or abs(offset) > 10**12:
        raise BadShape(f"{what}: offset_ms is not a whole number.")
    done_at = _moment(value.get("done_at"), f"{what}: done_at")
    assert done_at is not None
    return Act(
        seq=_int(value.get("seq"), f"{what}: seq"),
        key=key,
        path=path,
        fields=_fields(value.get("fields", []), what),
        done_at=done_at,
        laptop_at=_moment(value.get("laptop_at"), f"{what}: laptop_at", required=False),
        offset_ms=offset,
    )


def read(body: bytes) -> tuple[str, list[Act]]:
    """The device and its acts, or BadShape."""
    if len(body) > MAX_BYTES:
        raise BadShape("The queue sent is over 1 MB: send it in smaller parts.")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadShape("The body is not JSON.") from None
    if not isinstance(data, dict):
        raise BadShape("The body is not an object with a device and its acts.")
    device = data.get("device")
    if not isinstance(device, str) or not 1 <= len(device.strip()) <= 64:
        raise BadShape("The body names no device (this laptop's uuid).")
    acts = data.get("acts")
    if not isinstance(acts, list):
        raise BadShape("The body has no list of acts.")
    if len(acts) > MAX_ACTS:
        raise BadShape(f"At most {MAX_ACTS} acts are sent at once: send them in parts.")
    return device.strip(), [_act(value, i) for i, value in enumerate(acts)]

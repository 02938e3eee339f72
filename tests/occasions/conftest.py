"""The floor's fixtures: a fixed clock on the night of the ``occasion`` fixture, a crew on the
2026 worker list, and an occasion ready to open."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from beano.rules.opening import CHECKLIST
from occasions import floor_services as floor
from occasions import services
from tests.fixtures.floor import listed  # noqa: F401  (imported from here by the floor's tests)

NIGHT = dt.date(2026, 12, 4)  # the ``occasion`` fixture's Friday
LISTED_ON = dt.date(2026, 1, 5)


def at(hour: int, minute: int = 0, day: dt.date = NIGHT) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)))


@pytest.fixture
def clock(monkeypatch: Any) -> dict[str, dt.datetime]:
    """It is 11 PM on the night of the occasion; tests move the clock with ``clock["now"]``."""
    now = {"now": at(23, 0)}
    monkeypatch.setattr(timezone, "now", lambda: now["now"])
    return now


@pytest.fixture
def ready(tenant: Any, occasion: Any, crew: dict[str, Any], equipment_item: Any, clock: Any):
    """Everything in order for opening at 6:45 PM: prices posted, Linda (member in charge, the
    login ``tenant.member_in_charge``) signed in at 6:30 and signing in Karen (paid
    bookkeeper), every item confirmed at 6:40."""
    mic = tenant.member_in_charge
    services.set_price_list(
        occasion=occasion,
        items=[{"category": "admission", "label": "Admission", "price": "2.00"}],
        by=mic,
    )
    for key, role in (("linda", "member_in_charge"), ("karen", "bookkeeper")):
        entry = crew[key]
        floor.sign_in_worker(
            occasion=occasion,
            entry=entry,
            role=role,
            identification=entry.identification,
            by=mic,
            at=at(18, 30),
        )
    for item in CHECKLIST:
        floor.confirm_check(occasion=occasion, item=item.code, by=mic, at=at(18, 40))
    return occasion

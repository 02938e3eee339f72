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
from organizations import services as org_services
from organizations.worker_services import add_to_worker_list

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


def listed(tenant: Any, name: str, roles: list[str], badge: str, **extra: Any) -> Any:
    """A member of ``tenant``'s on its 2026 worker list from January 5."""
    born = extra.pop("born", dt.date(1960, 1, 1))
    membership = org_services.add_member(
        organization=tenant.organization,
        by=tenant.head,
        legal_name=name,
        date_of_birth=born,
        kind="member",
        since=dt.date(2015, 1, 1),
    )
    return add_to_worker_list(
        organization=tenant.organization,
        year=2026,
        person=membership.person,
        roles=roles,
        identification=badge,
        compensated=extra.get("compensated", False),
        compensation_note=extra.get("compensation_note", ""),
        good_moral_character_attested=extra.get("attested", False),
        attested_by=extra.get("attested_by", ""),
        on=LISTED_ON,
        by=tenant.head,
    )


@pytest.fixture
def crew(tenant: Any) -> dict[str, Any]:
    return {
        "linda": listed(tenant, "Linda Souza", ["member_in_charge"], "P-02"),
        "anne": listed(tenant, "Anne Sullivan", ["member_in_charge", "seller"], "P-07"),
        "robert": listed(tenant, "Robert Medeiros", ["gross_receipts"], "P-01"),
        "karen": listed(
            tenant,
            "Karen Pacheco",
            ["bookkeeper"],
            "P-03",
            compensated=True,
            compensation_note="$50 an occasion",
        ),
        "mary": listed(tenant, "Mary Gallagher", ["seller", "floor_worker"], "P-06"),
    }


@pytest.fixture
def ready(tenant: Any, occasion: Any, crew: dict[str, Any], equipment_item: Any, clock: Any):
    """Everything in order for opening at 6:45 PM: prices posted, every item confirmed at 6:40,
    Linda (member in charge) and Karen (paid bookkeeper) signed in at 6:30."""
    mic = tenant.member_in_charge
    services.set_price_list(
        occasion=occasion,
        items=[{"category": "admission", "label": "Admission", "price": "2.00"}],
        by=mic,
    )
    for item in CHECKLIST:
        floor.confirm_check(occasion=occasion, item=item.code, by=mic, at=at(18, 40))
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
    return occasion

"""The audit events written before the card stock moved to ``equipment`` name its models by
their former label (``organizations.cardusage``): a record's history and the money trail read
them as the model's own."""

from __future__ import annotations

import datetime as dt

from beano.backup.trail import differences
from equipment import inventory_services
from equipment.models import CardUsage
from inspections.history import history_events
from organizations.models import AuditEvent


def test_history_and_trail_read_events_written_under_the_former_label(
    tenant, occasion, card_purchase
):
    usage = inventory_services.record_card_usage(
        purchase=card_purchase,
        by=tenant.bookkeeper,
        used_on=dt.date(2026, 12, 4),
        quantity_used=3,
        occasion=occasion,
    )
    event = AuditEvent.objects.get(target_type="equipment.cardusage", target_id=str(usage.pk))
    # As the event was written before the move.
    AuditEvent.objects.filter(pk=event.pk).update(target_type="organizations.cardusage")
    for asked in ("equipment.cardusage", "organizations.cardusage"):
        found = history_events(tenant.organization, asked, str(usage.pk))
        assert [e.pk for e in found] == [event.pk]

    def usage_differences() -> list:
        return [d for d in differences(tenant.organization) if d.target_id == str(usage.pk)]

    assert usage_differences() == []
    CardUsage.objects.filter(pk=usage.pk).update(quantity_used=30)  # changed behind the trail
    (changed,) = usage_differences()
    assert (changed.target_type, changed.field, changed.recorded, changed.current) == (
        "equipment.cardusage",
        "quantity_used",
        3,
        30,
    )

"""A forgotten close, recorded on a later day: the time the night ended and the reason are
required and recorded (and shown to the inspector), everyone still present is signed out at that
time, and the audit event says the close was entered after the fact (961 CMR 3.04(7), 3.05(1))."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from beano import rules
from beano.rules.models import RefusedAction
from occasions import floor_services as floor
from occasions.models import Occasion, WorkerPresence
from occasions.sales_services import record_sale
from organizations.models import AuditEvent
from tests.occasions.conftest import NIGHT, at

THREE_DAYS_LATER = NIGHT + dt.timedelta(days=3)
REASON = "The member in charge forgot to press Close; the hall was locked at 10:30"


@pytest.fixture
def forgotten(tenant, ready, crew, clock):
    """``ready`` opened at 6:45 PM with Mary Gallagher selling from 7 PM, never closed; the
    clock reads Monday morning, three days later."""
    floor.open_occasion(occasion=ready, by=tenant.member_in_charge, at=at(18, 45))
    floor.sign_in_worker(
        occasion=ready,
        entry=crew["mary"],
        role="seller",
        identification="P-06",
        by=tenant.member_in_charge,
        at=at(19, 0),
    )
    clock["now"] = at(9, 14, THREE_DAYS_LATER)
    return ready


def test_a_forgotten_night_closes_later_at_the_time_it_ended_with_its_reason(tenant, forgotten):
    closed = floor.close_occasion(
        occasion=forgotten, by=tenant.bookkeeper, at=at(22, 30), late_reason=f"  {REASON}  "
    )
    assert closed.status == Occasion.Status.CLOSED
    assert closed.closed_at == at(22, 30) and closed.closed_by == tenant.bookkeeper
    assert closed.close_reason == REASON
    assert closed.close_recorded_at == at(9, 14, THREE_DAYS_LATER)
    assert set(WorkerPresence.objects.values_list("signed_out_at", flat=True)) == {at(22, 30)}


def test_the_close_event_says_it_was_recorded_after_the_fact(tenant, forgotten):
    floor.close_occasion(
        occasion=forgotten, by=tenant.bookkeeper, at=at(22, 30), late_reason=REASON
    )
    event = AuditEvent.objects.get(action="occasions.occasion.closed")
    assert event.old_values == {"status": "open", "closed_at": None, "close_reason": ""}
    assert event.new_values["status"] == "closed"
    assert event.new_values["closed_at"] == at(22, 30).isoformat().replace("+00:00", "Z")
    assert event.new_values["close_reason"] == REASON
    assert event.new_values["close_recorded_at"].startswith("2026-12-07T")
    assert sorted(event.new_values["signed_out"]) == [
        "Karen Pacheco",
        "Linda Souza",
        "Mary Gallagher",
    ]
    assert event.provenance["entered"] == "after the fact"
    assert event.provenance["closed_late"] is True
    assert event.provenance["reason"] == REASON
    assert event.provenance["entered_by"] == tenant.bookkeeper.username
    assert event.provenance["entered_at"].startswith("2026-12-07T")
    # Everyone signed out at the close: the same provenance on each sign-out.
    sign_outs = AuditEvent.objects.filter(
        action="occasions.worker.signed_out", sequence__lt=event.sequence
    )
    assert sign_outs.count() == 3
    assert all(e.provenance.get("closed_late") is True for e in sign_outs)


def test_a_late_close_needs_the_time_the_night_ended(tenant, forgotten):
    with pytest.raises(ValidationError, match="give the time the night ended"):
        floor.close_occasion(occasion=forgotten, by=tenant.bookkeeper, late_reason=REASON)
    forgotten.refresh_from_db()
    assert forgotten.status == Occasion.Status.OPEN


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_late_close_needs_a_reason(tenant, forgotten, reason):
    with pytest.raises(ValidationError, match="Say why the close is recorded"):
        floor.close_occasion(
            occasion=forgotten, by=tenant.bookkeeper, at=at(22, 30), late_reason=reason
        )
    forgotten.refresh_from_db()
    assert forgotten.status == Occasion.Status.OPEN and forgotten.close_reason == ""
    assert WorkerPresence.objects.filter(signed_out_at__isnull=True).count() == 3


def test_a_late_close_is_refused_at_a_time_outside_the_night(tenant, forgotten):
    with pytest.raises(rules.RuleViolation) as refused:
        floor.close_occasion(
            occasion=forgotten,
            by=tenant.bookkeeper,
            at=at(1, 0, NIGHT + dt.timedelta(days=2)),
            late_reason=REASON,
        )
    assert {v.citation for v in refused.value.violations} == {"961 CMR 3.04(7)"}
    assert "is not during the occasion of Friday, December 4, 2026" in str(refused.value)
    assert RefusedAction.objects.filter(action="occasion.act_moment").exists()
    forgotten.refresh_from_db()
    assert forgotten.status == Occasion.Status.OPEN


def test_a_late_close_is_refused_before_the_last_recorded_act(tenant, forgotten):
    admission = forgotten.price_items.get()
    record_sale(
        occasion=forgotten,
        lines=[(admission, 1)],
        admission_receipt=None,
        by=tenant.member_in_charge,
        at=at(21, 40),
    )
    with pytest.raises(ValidationError, match="cannot close before its last recorded act"):
        floor.close_occasion(
            occasion=forgotten, by=tenant.bookkeeper, at=at(21, 30), late_reason=REASON
        )
    closed = floor.close_occasion(
        occasion=forgotten, by=tenant.bookkeeper, at=at(21, 40), late_reason=REASON
    )
    assert closed.status == Occasion.Status.CLOSED


def test_past_midnight_the_morning_after_is_still_the_night(tenant, forgotten):
    closed = floor.close_occasion(
        occasion=forgotten,
        by=tenant.member_in_charge,
        at=at(0, 20, NIGHT + dt.timedelta(days=1)),
        late_reason=REASON,
    )
    assert closed.closed_at == at(0, 20, NIGHT + dt.timedelta(days=1))


def test_a_close_on_the_night_needs_no_reason_and_records_none(tenant, ready, clock):
    floor.open_occasion(occasion=ready, by=tenant.member_in_charge, at=at(18, 45))
    clock["now"] = at(22, 15)
    closed = floor.close_occasion(occasion=ready, by=tenant.member_in_charge)
    assert closed.close_reason == "" and closed.close_recorded_at is None
    event = AuditEvent.objects.get(action="occasions.occasion.closed")
    assert event.provenance == {}

"""Withdrawing an amendment puts the drawer count back as filed: the pieces counted by
denomination, their total, who counted and who verified, and when. A drawer first counted
during the amendment is taken away again. Each undoing is an audit event, so the chain holds
and the drawer agrees with its last event."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from banking.models import DrawerCount
from beano.backup.trail import differences
from organizations.audit import verify_chain
from organizations.models import AuditEvent
from reports import services
from reports.models import CloseOut
from tests.fixtures.floor import on_floor
from tests.reports.test_cash import PIECES, closed_out, count

pytestmark = pytest.mark.django_db

#: $600.00: four more dollar bills than the filed count.
RECOUNT = PIECES | {"1": 4}
TOUCHED = {"reports.closeout", "reports.closingcount", "banking.drawercount"}
FIELDS = ("pieces", "total", "counted_by", "verified_by", "counted_at")


def _drawer_row(occasion):
    return DrawerCount.objects.filter(closeout__occasion=occasion).values(*FIELDS).get()


def _cash(occasion):
    return (
        CloseOut.objects.filter(occasion=occasion)
        .values("cash_counted", "cash_counted_by", "cash_verified_by", "cash_verified_at")
        .get()
    )


def _trail_agrees(tenant):
    assert verify_chain(tenant.organization).ok
    assert [d for d in differences(tenant.organization) if d.target_type in TOUCHED] == []


def test_a_withdrawn_amendment_puts_the_filed_drawer_count_back(known_occasion, tenant):
    on_floor(tenant.head, known_occasion)
    on_floor(tenant.bookkeeper, known_occasion, role="bookkeeper")
    closed_out(known_occasion, tenant)
    count(known_occasion, tenant)
    filed = services.file_report(occasion=known_occasion, by=tenant.bookkeeper)
    drawer, cash = _drawer_row(known_occasion), _cash(known_occasion)

    services.open_amendment(
        occasion=known_occasion, reason="Four dollars found after the count.", by=tenant.head
    )
    # Counted again the other way round: the head counts, the bookkeeper verifies.
    count(known_occasion, tenant, pieces=RECOUNT, verifier=tenant.bookkeeper, by=tenant.head)
    assert _drawer_row(known_occasion)["total"] == D("600.00")

    services.withdraw_amendment(occasion=known_occasion, by=tenant.bookkeeper)

    assert _drawer_row(known_occasion) == drawer
    assert _cash(known_occasion) == cash
    restored = AuditEvent.objects.get(action="reports.drawer.restored")
    assert restored.old_values["pieces"] == RECOUNT and restored.new_values["pieces"] == PIECES
    assert restored.new_values["total"] == "596.00"
    withdrawn = AuditEvent.objects.get(action="reports.amendment.withdrawn")
    assert withdrawn.new_values["undone"]["drawer"] == "restored"
    assert withdrawn.sequence > restored.sequence
    _trail_agrees(tenant)
    # Nothing differs from what was filed: filing again gives the filed version back.
    assert services.file_report(occasion=known_occasion, by=tenant.bookkeeper).pk == filed.pk


def test_a_drawer_first_counted_in_a_withdrawn_amendment_is_taken_away(counted, tenant):
    """Filed with the cash counted as one sum: the amendment's drawer count goes with it."""
    filed = services.file_report(occasion=counted, by=tenant.bookkeeper)
    cash = _cash(counted)
    services.open_amendment(
        occasion=counted, reason="Counting the drawer by denomination.", by=tenant.bookkeeper
    )
    count(counted, tenant, pieces=RECOUNT)
    drawer_pk = DrawerCount.objects.get().pk

    services.withdraw_amendment(occasion=counted, by=tenant.bookkeeper)

    assert not DrawerCount.objects.exists()
    assert _cash(counted) == cash
    undone = AuditEvent.objects.get(action="reports.drawer.undone")
    assert undone.target_id == str(drawer_pk) and undone.old_values["total"] == "600.00"
    withdrawn = AuditEvent.objects.get(action="reports.amendment.withdrawn")
    assert withdrawn.new_values["undone"]["drawer"] == "taken away"
    _trail_agrees(tenant)
    assert services.file_report(occasion=counted, by=tenant.bookkeeper).pk == filed.pk


def test_a_drawer_left_alone_by_the_amendment_is_not_touched(known_occasion, tenant):
    on_floor(tenant.head, known_occasion)
    closed_out(known_occasion, tenant)
    count(known_occasion, tenant)
    services.file_report(occasion=known_occasion, by=tenant.bookkeeper)
    drawer = _drawer_row(known_occasion)
    services.open_amendment(
        occasion=known_occasion, reason="Looking at the expenses again.", by=tenant.head
    )
    services.withdraw_amendment(occasion=known_occasion, by=tenant.bookkeeper)
    assert _drawer_row(known_occasion) == drawer
    assert not AuditEvent.objects.filter(action__startswith="reports.drawer.").exclude(
        action="reports.drawer.counted"
    )
    undone = AuditEvent.objects.get(action="reports.amendment.withdrawn").new_values["undone"]
    assert undone["drawer"] == "unchanged"
    _trail_agrees(tenant)

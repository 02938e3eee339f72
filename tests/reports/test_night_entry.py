"""A night entered after the fact from its paper control sheets: the same services and rules as
the floor, judged as of each moment written on the sheet, each act's audit event saying where it
came from, and the known night's figures to the cent."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from occasions.models import Occasion, PaperRecord, Sale
from organizations.models import AuditEvent
from reports.figures import compute_figures
from reports.night import engine, nightfile
from tests.reports.conftest import KNOWN
from tests.reports.night_fixtures import known_night

D = Decimal


def enter(tenant: Any, data: dict[str, Any]) -> Occasion:
    night = nightfile.read(data)
    return engine.import_night(night=night, by=tenant.bookkeeper, file_name="known.json")


@pytest.fixture
def paper_night(night_records: Any, report_clock: Any) -> Occasion:
    tenant = night_records
    return enter(tenant, known_night(tenant.organization.licenses.get().number))


def test_the_known_night_from_its_sheets_gives_the_known_figures_to_the_cent(paper_night):
    f = compute_figures(paper_night)
    assert paper_night.status == Occasion.Status.CLOSED
    assert f["receipts"]["door_total"] == KNOWN["door_total"]
    assert f["receipts"]["refunds"] == D("4.00")
    assert f["receipts"]["gross_receipts"] == KNOWN["gross"]
    assert f["tax"]["tax"] == KNOWN["tax"]
    assert f["prizes"]["total"] == KNOWN["prizes_total"]
    assert f["prizes"]["expensed"] == KNOWN["prizes_expensed"]
    assert f["door_prizes"]["expensed"] == D("25.00")
    assert f["charity_game_tickets"]["prizes_redeemed"] == D("10.00")
    assert f["expenses"]["total"] == D("200.00")
    assert f["net"]["net_proceeds"] == KNOWN["net_before_entered_expenses"]


def test_every_act_says_it_was_entered_after_the_fact_from_which_sheet(paper_night, tenant):
    record = PaperRecord.objects.get(occasion=paper_night)
    assert record.scope == PaperRecord.Scope.WHOLE and record.source == "file"
    begun = AuditEvent.objects.get(action="occasions.paper_record.begun")
    entered = AuditEvent.objects.filter(
        organization=tenant.organization, sequence__gt=begun.sequence
    ).exclude(action="reports.night.imported")
    assert entered.count() > 30
    for event in entered:
        assert event.provenance["entered"] == "after the fact", event.action
        assert event.provenance["paper_record"] == record.pk
        assert event.provenance["entered_by"] == tenant.bookkeeper.username
    sheets = {e.provenance["sheet"] for e in entered}
    assert {"Sign-in sheet", "Door tally", "Game 1 sheet", "Payouts", "Close"} <= sheets


def test_the_door_keeps_its_serials_and_the_void_its_witness_attested_on_paper(paper_night):
    tally = Sale.objects.get(occasion=paper_night, tally=True, voided_at__isnull=True)
    bonus = tally.lines.get(category="bonus")
    assert (bonus.serial_first, bonus.serial_last, bonus.serials_excluded) == (501, 542, [510, 511])
    assert bonus.quantity == 40
    void = Sale.objects.get(occasion=paper_night, voided_at__isnull=False)
    assert void.void_witness is None
    assert void.void_witness_worker.entry.person.legal_name == "Mary Gallagher"

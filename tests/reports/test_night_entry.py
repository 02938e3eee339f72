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


# The night file ---------------------------------------------------------------------------------


def run_command(name: str, *args: str) -> tuple[int, str, str]:
    """Run a management command as from the shell: its exit status, stdout and stderr."""
    import io

    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(name, *args, stdout=out, stderr=err)
        status = 0
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    return status, out.getvalue(), err.getvalue()


def test_export_then_import_on_an_earlier_free_day_gives_the_same_figures(
    paper_night, tenant, tmp_path
):
    import json

    path = tmp_path / "night.json"
    status, out, _ = run_command("export_night", str(paper_night.pk), "--output", str(path))
    assert status == 0 and "gross receipts $456.00" in out
    data = json.loads(path.read_text())
    assert data["figures"] == {
        "door_total": "440.00",
        "gross_receipts": "456.00",
        "beano_tax": "22.80",
        "prizes_total": "160.00",
        "expenses_total": "200.00",
        "net_proceeds": "118.20",
    }
    data["date"] = "2026-11-27"  # the Friday before: only the date moves the night
    path.write_text(json.dumps(data))
    status, out, err = run_command("import_night", str(path), "--json")
    assert (status, err) == (0, ""), err
    figures = json.loads(out)
    for name in ("gross_receipts", "beano_tax", "prizes_total", "net_proceeds"):
        assert figures[name] == data["figures"][name]
    moved = Occasion.objects.get(organization=tenant.organization, date="2026-11-27")
    assert moved.status == Occasion.Status.CLOSED
    assert moved.paper_records.get().file_name == "night.json"

    status, _, err = run_command("import_night", str(path))
    assert status == 2
    assert "already holds a night" in err and "Traceback" not in err


def test_a_file_with_a_refused_act_saves_nothing_and_prints_each_citation(
    night_records, report_clock, tmp_path
):
    import json

    from beano.rules.models import RefusedAction
    from games.models import Game
    from organizations.models import AuditEvent

    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    data["door_prizes"][1]["value"] = "190.00"  # $25 + $190: over the $200 in force
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(data))
    events, games = AuditEvent.objects.count(), Game.objects.count()
    status, out, err = run_command("import_night", str(path))
    assert status == 2 and out == ""
    assert "refused; nothing was saved" in err
    assert "Extras, door prize (Quilt) at 8:00 PM" in err and "961 CMR 3.04(8)(e)" in err
    assert not Occasion.objects.filter(date="2026-12-04").exclude(status="scheduled").exists()
    assert not PaperRecord.objects.exists() and not Sale.objects.exists()
    assert Game.objects.count() == games
    assert AuditEvent.objects.count() == events
    assert RefusedAction.objects.get().citations == "961 CMR 3.04(8)(e)"


def test_a_dry_run_judges_every_act_and_saves_nothing(night_records, report_clock, tmp_path):
    import json

    tenant = night_records
    path = tmp_path / "night.json"
    path.write_text(json.dumps(known_night(tenant.organization.licenses.get().number)))
    status, out, _ = run_command("import_night", str(path), "--dry-run", "--json")
    assert status == 0 and json.loads(out)["gross_receipts"] == "456.00"
    assert not Sale.objects.exists() and not PaperRecord.objects.exists()


@pytest.mark.parametrize(
    "content,says",
    [
        ("this is not JSON", "not a JSON file"),
        ('{"format": "beano-night/2"}', '"format" must be "beano-night/1"'),
        ("[1, 2]", "not a JSON object"),
        (
            '{"format": "beano-night/1", "license": "NO-SUCH", "date": "2026-12-04"}',
            "no license numbered 'NO-SUCH'",
        ),
        (
            '{"format": "beano-night/1", "license": "L", "date": "4 Dec 2026"}',
            "\"date\": '4 Dec 2026' is not a date",
        ),
        (
            '{"format": "beano-night/1", "license": "L", "date": "2026-12-04",'
            ' "opened_at": "7:45 PM"}',
            "night.opened_at: '7:45 PM' is not a time",
        ),
        (
            '{"format": "beano-night/1", "license": "L", "date": "2026-12-04",'
            ' "prices": [{"category": "admission", "label": "A", "price": 2.5}]}',
            "night.prices[0].price: 2.5 is not an amount",
        ),
        (
            '{"format": "beano-night/1", "license": "L", "date": "2026-12-04",'
            ' "prices": [{"category": "admission", "label": "A", "price": "1e9"}]}',
            "'1e9' is not an amount",
        ),
        (
            '{"format": "beano-night/1", "license": "L", "date": "2026-12-04",'
            ' "games": [{"number": 1, "half": 1, "kind": "regular", "balls": ["Z9"]}]}',
            "night.games[0].balls[0]: 'Z9' is not a ball",
        ),
    ],
)
def test_a_bad_file_gets_one_line_and_exit_2(db, tmp_path, content, says):
    path = tmp_path / "bad.json"
    path.write_text(content)
    status, out, err = run_command("import_night", str(path))
    assert status == 2 and out == ""
    assert says in err
    assert err.count("\n") <= 1 and "Traceback" not in err

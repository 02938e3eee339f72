"""A night entered after the fact from its paper control sheets: the same services and rules as
the floor, judged as of each moment written on the sheet, each act's audit event saying where it
came from, and the known night's figures to the cent."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from nightfile import acts, engine, reader, writer
from nightfile import format as fmt
from occasions.models import Occasion, PaperRecord, Sale
from organizations.models import AuditEvent, Person
from reports.figures import compute_figures
from tests.nightfile.night_fixtures import known_night
from tests.reports.conftest import KNOWN

D = Decimal
NIGHT_AFTER = dt.date(2026, 12, 10)


def enter(tenant: Any, data: dict[str, Any]) -> Occasion:
    night = reader.read(data)
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


def test_the_figures_say_the_night_was_recorded_from_paper(paper_night, tenant):
    provenance = compute_figures(paper_night)["provenance"]
    assert provenance["closed_late"] is None
    [record] = provenance["from_paper"]
    assert record["scope"] == "whole" and record["period"] == "The whole night"
    assert record["sheets"].startswith("Control sheets of December 4")
    assert record["reason"] == "The laptop was at the repair shop: the night was played on paper"
    assert record["entered_by"] == tenant.bookkeeper.username
    assert record["file_name"] == "known.json"
    assert record["source"] == "Imported from a night file"


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
            ' "prices": [{"category": "admission", "label": "A", "price": "\u0661\u0662"}]}',
            "'١٢' is not an amount",
        ),
        (
            '{"format": "beano-night/1", "license": "L", "date": "2026-12-04",'
            ' "prices": [{"category": "admission", "label": "A", "price": "999999999"}]}',
            "night.prices[0].price: '999999999': That amount is too large: a price is at most "
            "$1,000.00.",
        ),
        (
            '{"format": "beano-night/1", "license": "L", "date": "2026-12-04",'
            ' "prices": [{"category": "admission", "label": "A", "price": "2.505"}]}',
            "'2.505': Give the amount in dollars and cents, with at most two decimals.",
        ),
        (
            '{"format": "beano-night/1", "license": "L", "date": "2026-12-04",'
            ' "closeout": {"opening_bank": "100000.01", "counts": {}}}',
            "night.closeout.opening_bank: '100000.01': That amount is too large: the cash in "
            "the box is at most $100,000.00.",
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


# Refusals after the fact, as of the moment stated ----------------------------------------------


def refused(tenant: Any, data: dict[str, Any]) -> acts.NightRefused:
    """Import ``data`` expecting a refusal; nothing of it saved."""
    from games.models import Game

    games = Game.objects.count()
    with pytest.raises(acts.NightRefused) as error:
        enter(tenant, data)
    assert not PaperRecord.objects.exists() and not Sale.objects.exists()
    assert Game.objects.count() == games
    return error.value


def codes(error: acts.NightRefused) -> dict[str, str]:
    return {v.code: v.citation for v in error.error.violations}


def test_a_ball_called_after_the_license_hours_is_refused(night_records, report_clock):
    tenant = night_records
    tenant.organization.licenses.update(start_time="18:30", end_time="22:00")
    data = known_night(tenant.organization.licenses.get().number)
    game = data["games"][2]
    game.update(
        started_at="21:50", balls=[{"ball": "B5", "at": "21:55"}, {"ball": "I20", "at": "22:15"}]
    )
    game.update(finished_at="22:20", claims=[])
    error = refused(tenant, data)
    assert codes(error) == {"H-7-LICENSE-HOURS": "961 CMR 3.04(7)"}
    assert error.act.what == "ball 2 (20)" and "10:15 PM" in error.messages[0]


def test_a_door_prize_over_the_aggregate_in_force_on_the_night_is_refused(
    night_records, report_clock
):
    from beano.rules.models import LawLimit

    tenant = night_records
    report_clock(fmt.parse_time("12:00", NIGHT_AFTER, "test"))
    LawLimit.objects.create(
        name="max_door_prizes_occasion",
        value=Decimal("500.00"),
        effective_from=NIGHT_AFTER,
        source="A later amendment (test)",
        status="verified",
    )
    data = known_night(tenant.organization.licenses.get().number)
    data["door_prizes"][1]["value"] = "190.00"  # $215 in all: over the $200 of December 4
    error = refused(tenant, data)
    assert codes(error) == {"P-8E-DOOR-PRIZES": "961 CMR 3.04(8)(e)"}


def test_a_worker_not_yet_on_the_list_that_day_is_refused(night_records, report_clock):
    from tests.occasions.conftest import listed

    tenant = night_records
    report_clock(fmt.parse_time("12:00", NIGHT_AFTER, "test"))
    entry = listed(tenant, "Paul Late", ["floor_worker"], "P-11")
    entry.added_on = NIGHT_AFTER
    entry.save(update_fields=["added_on"])
    data = known_night(tenant.organization.licenses.get().number)
    data["workers"].append(
        {"name": "Paul Late", "role": "floor_worker", "identification": "P-11", "in": "18:35"}
    )
    error = refused(tenant, data)
    assert codes(error) == {"W-1B-ON-THE-LIST": "961 CMR 3.04(1)(b)"}
    assert error.act.what == "Paul Late in"


def test_a_name_on_no_entry_of_the_list_is_refused_by_the_rules_and_logged(
    night_records, report_clock
):
    """No side door: a sheet naming someone the list has never held is judged by the rules
    service, as a sign-in at the hall is, and the refusal is in the refused actions' log."""
    from beano.rules.models import RefusedAction

    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    data["workers"].append(
        {"name": "Nobody Listed", "role": "floor_worker", "identification": "X", "in": "18:35"}
    )
    error = refused(tenant, data)
    assert codes(error) == {"W-1B-ON-THE-LIST": "961 CMR 3.04(1)(b)"}
    assert "Nobody Listed is not on the" in error.messages[0]
    logged = RefusedAction.objects.get()
    assert (logged.action, logged.citations) == ("paper.name_a_worker", "961 CMR 3.04(1)(b)")


def test_a_tally_of_cards_never_posted_is_refused_by_the_rules_and_logged(
    night_records, report_clock
):
    from beano.rules.models import RefusedAction

    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    data["prices"] = [p for p in data["prices"] if p["category"] != "winner_take_all"]
    error = refused(tenant, data)
    assert codes(error) == {"C-4C-ON-POSTED-LIST": "961 CMR 3.04(4)(c)"}
    logged = RefusedAction.objects.get()
    assert (logged.action, logged.citations) == ("sale.record", "961 CMR 3.04(4)(c)")


def test_a_sale_after_the_close_is_refused(night_records, report_clock):
    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    data["door"]["tallies"].append({"at": "22:40", "lines": [{"category": "bonus", "quantity": 2}]})
    error = refused(tenant, data)
    assert codes(error) == {"C-4C-SOLD-DURING-OCCASION": "961 CMR 3.04(4)(c)"}


def test_a_void_witness_who_had_left_the_floor_is_refused(night_records, report_clock):
    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    data["door"]["voids"][0].update(at="22:10", witness="Anne Sullivan")  # out at 10:00 PM
    error = refused(tenant, data)
    assert codes(error) == {"C-4D2-VOID-WITNESSED": "961 CMR 3.04(4)(d)"}
    assert "not signed in on the floor" in error.messages[0]


def test_a_listed_worker_wins_only_under_the_directors_authorization(night_records, report_clock):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.models import Winner
    from organizations.models import DirectorAuthorization

    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    data["games"][0]["claims"][0].update(player="Mary Gallagher", person="Mary Gallagher")
    data["games"][0]["claims"][0]["payout"]["paid_by"] = "Linda Souza"
    error = refused(tenant, data)
    assert codes(error) == {"W-1H-WORKER-PLAYS": "961 CMR 3.04(1)(h)"}

    DirectorAuthorization.objects.create(
        organization=tenant.organization,
        kind="1h_worker_player",
        person=Person.objects.get(legal_name="Mary Gallagher"),
        reference_number="MSLC-1H-0007",
        subject="Mary Gallagher may play",
        valid_from=dt.date(2026, 1, 1),
        valid_to=dt.date(2026, 12, 31),
        document=SimpleUploadedFile("letter.pdf", b"%PDF-1.4 letter", "application/pdf"),
    )
    occasion = enter(tenant, data)
    winner = Winner.objects.get(claim__game__occasion=occasion, player_name="Mary Gallagher")
    assert winner.authorization.reference_number == "MSLC-1H-0007"


def test_a_card_is_attested_on_paper_only_when_the_balls_were_not_entered(
    night_records, report_clock
):
    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    data["games"][0]["balls"] = ["B5", "I20", "N35", "G50", "O65"]
    error = refused(tenant, data)
    assert "give the winning card's numbers" in error.messages[0]
    data["games"][0]["claims"][0]["card"] = {"B1": 5, "I1": 20, "N1": 35, "G1": 50, "O1": 65}
    occasion = enter(tenant, data)
    card = occasion.games.get(number=1).claims.get().card_verifications.get()
    assert card.valid and not card.attested_on_paper


# The format's schema and example ---------------------------------------------------------------


def _schema() -> Any:
    import json
    from pathlib import Path

    import jsonschema

    root = Path(__file__).resolve().parents[2] / "docs" / "formats"
    schema = json.loads((root / "beano-night-1.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema), root


def test_the_example_and_an_export_follow_the_schema(paper_night):
    import json

    validator, root = _schema()
    example = json.loads((root / "night-example.json").read_text())
    assert list(validator.iter_errors(example)) == []
    reader.read(example)  # and the reader takes it
    exported = json.loads(json.dumps(writer.export(paper_night)))
    assert list(validator.iter_errors(exported)) == []


def test_a_misspelt_key_is_refused_not_silently_lost(db):
    data = known_night("BN-0001") | {"door_prize": []}
    with pytest.raises(fmt.NightFormatError, match="unknown key 'door_prize'"):
        reader.read(data)

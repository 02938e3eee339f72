"""The demo's filed night as a night file: exported, moved to an earlier free authorized day by
its date alone, and imported again through the services and rules."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

from django.core.management import call_command

from occasions.models import Occasion
from reports.models import FinancialReport
from tests.nightfile.test_night_entry import run_command


def test_the_demos_filed_night_moves_to_an_earlier_free_day(db, tmp_path, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    call_command("seed_demo", "--no-pdfs", force=True)
    filed = FinancialReport.objects.select_related("occasion").order_by("pk").first().occasion
    path = tmp_path / "filed.json"
    assert run_command("export_night", str(filed.pk), "--output", str(path), "--with-tins")[0] == 0
    data = json.loads(path.read_text())
    original = data["figures"]

    earlier = filed.date - dt.timedelta(days=7)
    assert not Occasion.objects.filter(organization=filed.organization, date=earlier).exists()
    data["date"] = earlier.isoformat()
    path.write_text(json.dumps(data))
    # Its progressive jackpot's series began that night: a jackpot is carried only forward, so
    # the night with it cannot be recorded a week before (961 CMR 3.04(6)(h)); nothing is saved.
    status, _, err = run_command("import_night", str(path))
    assert status == 2 and "Coverall jackpot" in err and "carries forward" in err
    assert not Occasion.objects.filter(organization=filed.organization, date=earlier).exists()

    # Without the jackpot's game, the night is the same night a week earlier.
    jackpot = next(g for g in data["games"] if "jackpot" in g)
    consolation = sum(
        Decimal(p["amount"]) for p in jackpot["parts"][1:]
    )  # the only prize of that game paid: the consolation, not the jackpot
    data["games"] = [g for g in data["games"] if "jackpot" not in g]
    path.write_text(json.dumps(data))
    status, out, err = run_command("import_night", str(path), "--json")
    assert (status, err) == (0, ""), err
    moved = json.loads(out)
    assert moved["gross_receipts"] == original["gross_receipts"]
    assert moved["beano_tax"] == original["beano_tax"]
    assert Decimal(moved["prizes_total"]) == Decimal(original["prizes_total"]) - consolation
    assert Decimal(moved["net_proceeds"]) == Decimal(original["net_proceeds"]) + consolation
    night = Occasion.objects.get(organization=filed.organization, date=earlier)
    assert night.status == Occasion.Status.CLOSED and night.paper_records.get().source == "file"

    status, _, err = run_command("import_night", str(path))
    assert status == 2 and "already holds a night" in err

"""After the fact, every act of the floor is done by a worker of that night too (961 CMR
3.04(1)(b)), judged as of the moment written on the sheet: the bookkeeper who enters the sheets
is not the seller. The worker the sheet names for an act (a payout's payer) was signed in on the
floor then; where the sheet names no one, a worker of the night was. The known night still
enters whole (tests/nightfile/test_night_entry.py)."""

from __future__ import annotations

from typing import Any

import pytest

from beano.rules.models import RefusedAction
from nightfile import acts, engine, reader
from occasions.models import PaperRecord, Sale
from tests.nightfile.night_fixtures import known_night

REFUSAL = {"W-1B-WORKER-OF-THE-NIGHT": "961 CMR 3.04(1)(b)"}


def refused(tenant: Any, data: dict[str, Any]) -> acts.NightRefused:
    with pytest.raises(acts.NightRefused) as error:
        engine.import_night(night=reader.read(data), by=tenant.bookkeeper, file_name="x.json")
    assert not PaperRecord.objects.exists() and not Sale.objects.exists()
    return error.value


def codes(error: acts.NightRefused) -> dict[str, str]:
    return {v.code: v.citation for v in error.error.violations}


def test_a_payout_paid_by_a_worker_who_had_left_the_floor_is_refused(night_records, report_clock):
    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    anne = next(w for w in data["workers"] if w["name"].casefold().startswith("anne"))
    anne["out"] = "19:20"
    data["games"][0]["claims"][0]["payout"].update(
        paid_by="Anne Sullivan", verified_by="Mary Gallagher"
    )  # paid at 7:35 PM
    error = refused(tenant, data)
    assert codes(error) == REFUSAL
    assert error.act.what == "payout to Ann Cash"
    assert "Anne Sullivan is not signed in on this night's floor at 7:35 PM" in error.messages[0]
    logged = RefusedAction.objects.get()
    assert (logged.action, logged.username) == ("occasion.floor_act", "post-one-bookkeeper")


def test_an_act_when_no_worker_of_the_night_was_on_the_floor_is_refused(
    night_records, report_clock
):
    """The sheet names no one for the checklist: it stands only if a worker of the night was
    on the floor at the time written; here every sign-in is later."""
    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    for worker in data["workers"]:
        worker["in"] = "18:42"
    error = refused(tenant, data)
    assert codes(error) == REFUSAL
    assert error.act.sheet == "Opening checklist"
    assert "No worker of the night was signed in on the floor at 6:40 PM" in error.messages[0]


def test_the_bookkeeper_entering_the_sheets_need_not_have_been_on_the_floor(
    night_records, report_clock
):
    """The person entering is not the one who acted: the known night enters whole by a
    bookkeeper signed in on no floor, its seller unnamed by the door's tally."""
    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    occasion = engine.import_night(
        night=reader.read(data), by=tenant.bookkeeper, file_name="known.json"
    )
    assert Sale.objects.filter(occasion=occasion, sold_by=tenant.bookkeeper).exists()
    assert not RefusedAction.objects.exists()

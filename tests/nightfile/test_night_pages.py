"""The control-sheet entry pages: a bookkeeper types a whole night in from its sheets, section
by section, and gets the known night's figures; a refusal keeps what was typed and names the
act, the plain sentence first and its citation after; the pages' reach."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from games.models import Arrangement
from occasions.models import Occasion, PaperRecord, PriceListItem, Sale, WorkerPresence
from reports.figures import compute_figures
from tests.conftest import login
from tests.fixtures.night import SAMPLE_PRICES
from tests.reports.conftest import KNOWN


def formset(prefix: str, rows: list[dict[str, Any]], extra: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = {
        f"{prefix}-TOTAL_FORMS": str(len(rows) + extra),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            if value is True:
                value = "on"
            if value is False:
                continue
            data[f"{prefix}-{i}-{key}"] = value
    return data


def url(name: str, occasion: Occasion, **extra: Any) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk} | extra)


def section(occasion: Occasion, name: str) -> str:
    return url("paper_section", occasion, section=name)


@pytest.fixture
def books(client: Any, night_records: Any) -> Any:
    login(client, night_records.bookkeeper)
    return client


def enter_known_night(books: Any, occasion: Occasion) -> None:
    def ok(response: Any) -> None:
        assert response.status_code == 302, response.content.decode()[-3000:]

    ok(
        books.post(
            url("paper_home", occasion),
            {"scope": "whole", "sheets": "All the sheets of Dec 4", "reason": "Laptop broken"},
        )
    )
    entries = {e.person.legal_name: e.pk for e in _entries(occasion)}
    ok(
        books.post(
            section(occasion, "workers"),
            formset(
                "w",
                [
                    {
                        "entry": entries["Linda Souza"],
                        "role": "member_in_charge",
                        "identification": "P-02",
                        "signed_in": "6:30 PM",
                    },
                    {
                        "entry": entries["Robert Medeiros"],
                        "role": "gross_receipts",
                        "identification": "P-01",
                        "signed_in": "18:30",
                    },
                    {
                        "entry": entries["Karen Pacheco"],
                        "role": "bookkeeper",
                        "identification": "P-03",
                        "signed_in": "18:30",
                    },
                    {
                        "entry": entries["Mary Gallagher"],
                        "role": "seller",
                        "identification": "P-06",
                        "signed_in": "18:31",
                    },
                    {
                        "entry": entries["Anne Sullivan"],
                        "role": "member_in_charge",
                        "identification": "P-07",
                        "signed_in": "18:32",
                    },
                ],
                extra=3,
            ),
        )
    )
    ok(books.post(section(occasion, "prices"), formset("p", SAMPLE_PRICES, extra=1)))
    line = Arrangement.objects.get(code="single_line").pk
    ok(
        books.post(
            section(occasion, "program"),
            formset(
                "g",
                [
                    {
                        "number": 1,
                        "half": 1,
                        "kind": "regular",
                        "arrangement": line,
                        "prize_kind": "cash",
                        "amount": "50.00",
                    },
                    {
                        "number": 2,
                        "half": 1,
                        "kind": "regular",
                        "arrangement": line,
                        "prize_kind": "merchandise",
                        "amount": "30",
                        "description": "Toaster",
                    },
                    {
                        "number": 3,
                        "half": 2,
                        "kind": "special",
                        "arrangement": line,
                        "prize_kind": "merchandise",
                        "amount": "80.00",
                        "description": "Donated quilt",
                        "donated": True,
                    },
                ],
                extra=2,
            ),
        )
    )
    from beano.rules.opening import CHECKLIST

    ok(
        books.post(
            section(occasion, "opening"),
            {
                "items": [i.code for i in CHECKLIST],
                "checked_at": "18:40",
                "opened_at": "18:45",
                "announced_at": "18:46",
                "persons_entitled_to_play": "100",
                "prizes_announced": "Regular games $50 with 100 players or more",
                "refunds_offered": "on",
            },
        )
    )
    items = {i.category: i.pk for i in PriceListItem.objects.filter(occasion=occasion)}
    mary = WorkerPresence.objects.get(occasion=occasion, entry__person__legal_name="Mary Gallagher")
    door = {
        "counted_at": "19:00",
        f"first_{items['admission']}": "1001",
        f"last_{items['admission']}": "1100",
        f"qty_{items['extra_regular']}": "50",
        f"qty_{items['bonus']}": "40",
        f"qty_{items['special']}": "60",
        f"qty_{items['winner_take_all']}": "30",
    } | formset(
        "v",
        [
            {
                "category": "admission",
                "quantity": "5",
                "reason": "Rung twice",
                "witness": mary.pk,
                "sold_at": "18:50",
                "voided_at": "18:55",
            }
        ],
        extra=2,
    )
    ok(books.post(section(occasion, "door"), door))
    ok(
        books.post(
            section(occasion, "extras"),
            formset(
                "door_prizes",
                [
                    {"description": "Fruit basket", "value": "25.00", "at": "20:00"},
                    {"description": "Quilt", "value": "40.00", "donated": True, "at": "20:00"},
                ],
            )
            | formset("refunds", [{"player": "R1", "amount": "4.00", "at": "19:00"}])
            | formset(
                "charity",
                [
                    {
                        "game_name": "Lucky 7s",
                        "serial_number": "CG-1",
                        "quantity": "20",
                        "price": "1.00",
                        "at": "19:00",
                    },
                ],
            )
            | formset(
                "redemptions",
                [
                    {"serial_number": "CG-1", "prize_amount": "10.00", "at": "21:00"},
                ],
            )
            | formset("other_sales", [])
            | formset(
                "police",
                [
                    {
                        "officer": "Officer Dana",
                        "department": "Fairhaven",
                        "hours": "4",
                        "rate": "50.00",
                    },
                ],
            )
            | formset("raffles", []),
        )
    )
    anne = WorkerPresence.objects.get(occasion=occasion, entry__person__legal_name="Anne Sullivan")
    for number, times, player, paid in (
        (1, ("19:00", "19:00", "19:01", "19:31", "19:36"), "Ann Cash", ("19:35",)),
        (2, ("19:40", "19:40", "19:41", "19:51", "19:55"), "Bob Goods", ("19:54",)),
        (3, ("20:06", "20:06", "20:10", "20:31", "20:35"), "Cy Gift", ("20:34",)),
    ):
        if number == 3:
            ok(
                books.post(
                    section(occasion, "attendance"),
                    {"players": "95", "announced_at": "20:00", "second_half_at": "20:05"},
                )
            )
        announced, checked, started, winners, finished = times
        claim = {
            "part": "1",
            "claimed_at": winners,
            "player": player,
            "table": "4",
            "witness": "Joe Player",
            "witness_table": "9",
            "won": True,
        }
        if paid:
            claim |= {"paid_by": mary.pk, "verified_by": anne.pk, "paid_at": paid[0]}
        ok(
            books.post(
                url("paper_game", occasion, number=number),
                {
                    "announced_at": announced,
                    "balls_checked_at": checked,
                    "started_at": started,
                    "winners_at": winners,
                    "finished_at": finished,
                }
                | formset("c", [claim], extra=1),
            )
        )
    ok(books.post(section(occasion, "close"), {"closed_at": "22:30"}))


def _entries(occasion: Occasion) -> Any:
    from organizations.models import WorkerListEntry

    return WorkerListEntry.objects.filter(
        worker_list__organization=occasion.organization
    ).select_related("person")


def test_a_bookkeeper_enters_the_known_night_from_its_sheets(books, occasion, report_clock):
    enter_known_night(books, occasion)
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.CLOSED
    f = compute_figures(occasion)
    assert f["receipts"]["door_total"] == KNOWN["door_total"]
    assert f["receipts"]["gross_receipts"] == KNOWN["gross"]
    assert f["tax"]["tax"] == KNOWN["tax"]
    assert f["prizes"]["total"] == KNOWN["prizes_total"]
    assert f["net"]["net_proceeds"] == KNOWN["net_before_entered_expenses"]
    assert f["door_prizes"]["expensed"] == Decimal("25.00")
    assert f["expenses"]["total"] == Decimal("200.00")
    assert PaperRecord.objects.get(occasion=occasion).scope == "whole"
    page = books.get(url("paper_home", occasion)).content.decode()
    assert "The whole night" in page and "Laptop broken" in page


def test_a_refused_sheet_keeps_what_was_typed_and_names_the_act(books, occasion, report_clock):
    books.post(
        url("paper_home", occasion),
        {"scope": "whole", "sheets": "Door tally", "reason": "Paper door"},
    )
    books.post(section(occasion, "prices"), formset("p", SAMPLE_PRICES))
    items = {i.category: i.pk for i in PriceListItem.objects.filter(occasion=occasion)}
    response = books.post(
        section(occasion, "door"),
        {"counted_at": "7:00 PM", f"qty_{items['admission']}": "87"} | formset("v", [], extra=1),
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was saved: Door tally, count 1 at 7:00 PM" in page
    assert "The occasion is not open: nothing can be sold." in page
    assert "961 CMR 3.04(4)(c)" in page
    assert 'value="87"' in page and 'value="7:00 PM"' in page
    assert not Sale.objects.exists()


def test_a_time_that_is_not_a_time_is_a_message_on_its_field(books, occasion, report_clock):
    books.post(
        url("paper_home", occasion),
        {"scope": "whole", "sheets": "Attendance", "reason": "Paper"},
    )
    response = books.post(
        section(occasion, "attendance"), {"players": "95", "announced_at": "25:70"}
    )
    assert response.status_code == 200
    assert "That is not a time of day." in response.content.decode()


def test_an_evening_sheets_time_without_pm_is_read_as_pm_and_said_back(
    books, occasion, report_clock
):
    """Issue 40: "6:30" on an evening sheet was read as 6:30 AM without a word."""
    from django.utils import timezone

    response = books.post(
        url("paper_home", occasion),
        {
            "scope": "part",
            "starts_at": "6:30",
            "ends_at": "9:15",
            "sheets": "Door",
            "reason": "Wi-Fi",
        },
        follow=True,
    )
    record = PaperRecord.objects.get(occasion=occasion)
    starts, ends = timezone.localtime(record.starts_at), timezone.localtime(record.ends_at)
    assert (starts.date(), starts.time(), ends.time()) == (
        occasion.date,
        dt.time(18, 30),
        dt.time(21, 15),
    )
    page = response.content.decode()
    assert (
        "Now type in the sheets, top to bottom (6:30 read as 6:30 PM; 9:15 read as 9:15 PM)."
        in page
    )


@pytest.mark.parametrize(
    ("checked", "opened", "refused"),
    [("6:50", "6:45", True), ("6:30", "6:45", False), ("11:50 PM", "0:10", False)],
)
def test_the_checklist_comes_before_the_opening_as_the_night_reads_them(
    books, occasion, report_clock, checked, opened, refused
):
    books.post(
        url("paper_home", occasion), {"scope": "whole", "sheets": "Opening", "reason": "Paper"}
    )
    response = books.post(
        section(occasion, "opening"), {"checked_at": checked, "opened_at": opened}
    )
    page = response.content.decode()
    assert ("The checklist is confirmed before the occasion opens." in page) is refused


def test_a_part_of_the_night_needs_its_times(books, occasion, report_clock):
    response = books.post(
        url("paper_home", occasion), {"scope": "part", "sheets": "Door", "reason": "Wi-Fi"}
    )
    assert "Give the time the paper part starts and when it ends." in response.content.decode()
    assert not PaperRecord.objects.exists()


def test_the_sections_wait_for_the_paper_record(books, occasion, report_clock):
    response = books.get(section(occasion, "door"))
    assert response.status_code == 302 and response["Location"] == url("paper_home", occasion)


def test_a_worker_cannot_enter_sheets(client, tenant, occasion, report_clock):
    login(client, tenant.worker)
    assert client.get(section(occasion, "door")).status_code == 403
    assert client.post(url("paper_home", occasion), {"scope": "whole"}).status_code == 403

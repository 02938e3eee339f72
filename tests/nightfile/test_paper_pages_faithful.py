"""The control-sheet entry pages never alter a figure in silence (issue 40, item 8's principle,
on the pages as on the night file): a winner-take-all prize typed on the program or on its game
sheet is recorded as typed or refused with 961 CMR 3.04(8)(a)/(8)(b), as the live program page
refuses it; every other amount the pages take is recorded as typed or refused with its
citation, never changed."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest

from beano.rules.opening import CHECKLIST
from games.models import Arrangement, Game, PrizePart
from occasions.models import Occasion, PriceListItem, WorkerPresence
from tests.conftest import login
from tests.fixtures.night import SAMPLE_PRICES
from tests.nightfile.test_night_pages import _entries, formset, section, url

D = Decimal


@pytest.fixture
def books(client: Any, night_records: Any) -> Any:
    login(client, night_records.bookkeeper)
    return client


def ok(response: Any) -> None:
    page = response.content.decode()
    found = re.findall(r"(?s)<main.*?</main>", page)
    text = re.sub(r"<[^>]+>", " ", found[0] if found else page)
    assert response.status_code == 302, " ".join(text.split())[:3000]


def night_to_the_door(
    books: Any, occasion: Occasion, wta_cards: int = 30, attested: str = ""
) -> None:
    """The whole night begun from paper: sign-in sheet, price list, checklist and opening, and
    the door's tally with ``wta_cards`` winner-take-all cards at $1 counted at 7:00 PM."""
    ok(
        books.post(
            url("paper_home", occasion),
            {"scope": "whole", "sheets": "All the sheets", "reason": "Laptop broken"},
        )
    )
    entries = {e.person.legal_name: e.pk for e in _entries(occasion)}
    rows = [
        ("Linda Souza", "member_in_charge", "P-02", "18:30"),
        ("Robert Medeiros", "gross_receipts", "P-01", "18:30"),
        ("Mary Gallagher", "seller", "P-06", "18:31"),
        ("Anne Sullivan", "member_in_charge", "P-07", "18:32"),
    ]
    workers = [
        {"entry": entries[n], "role": r, "identification": i, "signed_in": t} for n, r, i, t in rows
    ]
    ok(books.post(section(occasion, "workers"), formset("w", workers, extra=1)))
    ok(books.post(section(occasion, "prices"), formset("p", SAMPLE_PRICES, extra=1)))
    opening = {"items": [i.code for i in CHECKLIST], "checked_at": "18:40", "opened_at": "18:45"}
    if attested:
        signer = WorkerPresence.objects.get(occasion=occasion, entry__person__legal_name=attested)
        opening["attested_by"] = signer.pk
    ok(books.post(section(occasion, "opening"), opening))
    door(books, occasion, "19:00", admissions=(1001, 1100), wta=wta_cards)


def door(books: Any, occasion: Occasion, at: str, admissions: Any = None, wta: int = 0) -> Any:
    items = {i.category: i.pk for i in PriceListItem.objects.filter(occasion=occasion)}
    data: dict[str, Any] = {"counted_at": at, f"qty_{items['winner_take_all']}": str(wta)}
    if admissions:
        data |= {
            f"first_{items['admission']}": str(admissions[0]),
            f"last_{items['admission']}": str(admissions[1]),
        }
    response = books.post(section(occasion, "door"), data | formset("v", [], extra=1))
    ok(response)
    return response


def program(books: Any, occasion: Occasion, wta_amount: str) -> Any:
    """Game 1 regular $50; game 2 winner-take-all, its prize typed as ``wta_amount``."""
    line = Arrangement.objects.get(code="single_line").pk
    rows = [
        {"number": 1, "half": 1, "kind": "regular", "arrangement": line, "amount": "50.00"},
        {
            "number": 2,
            "half": 1,
            "kind": "winner_take_all",
            "arrangement": line,
            "amount": wta_amount,
        },
    ]
    for row in rows:
        row["prize_kind"] = "cash"
    return books.post(section(occasion, "program"), formset("g", rows, extra=1))


def wta_part(occasion: Occasion) -> PrizePart | None:
    return PrizePart.objects.filter(game__occasion=occasion, game__number=2).first()


def refusal_citations(page: str) -> set[str]:
    import re

    return set(re.findall(r"961 CMR 3\.04\(8\)\([ab]\)", page))


# The program page ---------------------------------------------------------------------------


def test_a_winner_take_all_prize_typed_on_the_program_is_recorded_as_typed(
    books, occasion, report_clock
):
    """$30 of its cards sold by then: $27.00 typed is $27.00."""
    night_to_the_door(books, occasion)
    ok(program(books, occasion, "27.00"))
    assert wta_part(occasion).amount == D("27.00")


def test_a_winner_take_all_prize_typed_wrong_on_the_program_is_refused_not_replaced(
    books, occasion, report_clock
):
    """$30 of its cards sold: "25.00" typed was entered as $27.00 without a word; it is refused
    with (8)(a), as the live program page refuses it, and nothing of the program is saved."""
    night_to_the_door(books, occasion)
    response = program(books, occasion, "25.00")
    page = response.content.decode()
    assert response.status_code == 200
    assert "961 CMR 3.04(8)(a)" in page and "$27.00, not $25.00" in page
    assert not Game.objects.filter(occasion=occasion).exists()


def test_a_winner_take_all_prize_over_the_single_game_maximum_is_refused_with_8a_and_8b(
    books, occasion, report_clock
):
    """$500 of its cards sold: "450.00" was entered as a $200.00 prize; it is refused with
    (8)(a) and (8)(b), the refusal the program page gives the same prize."""
    night_to_the_door(books, occasion, wta_cards=500)
    response = program(books, occasion, "450.00")
    page = response.content.decode()
    assert refusal_citations(page) == {"961 CMR 3.04(8)(a)", "961 CMR 3.04(8)(b)"}
    assert "single-game maximum of $200.00" in page
    assert wta_part(occasion) is None


def test_a_winner_take_all_prize_left_blank_on_the_program_is_typed_on_its_game_sheet(
    books, occasion, report_clock
):
    """The program is typed before the door: the prize is not known then. Left blank, the
    program holds the share of the moment, and the page says the game sheet gives it."""
    night_to_the_door(books, occasion)
    ok(program(books, occasion, ""))
    page = books.get(section(occasion, "program")).content.decode()
    assert "as its game sheet gives it" in page


# The game sheet -----------------------------------------------------------------------------


def game_sheet(books: Any, occasion: Occasion, prize: str | None, **times: str) -> Any:
    data = {
        "announced_at": "19:40",
        "balls_checked_at": "19:40",
        "started_at": "19:41",
    } | times
    if prize is not None:
        data["prize"] = prize
    return books.post(url("paper_game", occasion, number=2), data | formset("c", [], extra=1))


def _played_game_one(books: Any, occasion: Occasion) -> None:
    ok(
        books.post(
            url("paper_game", occasion, number=1),
            {
                "announced_at": "19:01",
                "balls_checked_at": "19:01",
                "started_at": "19:02",
                "finished_at": "19:30",
            }
            | formset("c", [], extra=1),
        )
    )


def test_the_game_sheet_records_the_winner_take_all_prize_it_gives(books, occasion, report_clock):
    """Ten more cards counted at 7:30 PM, after the program: the sheet's prize at 7:40 PM is
    $36.00, and the page records what the sheet says. The announcement used to replace the
    program's figure by the share of the moment without a word."""
    night_to_the_door(books, occasion)
    ok(program(books, occasion, "27.00"))
    door(books, occasion, "19:30", wta=10)
    _played_game_one(books, occasion)
    ok(game_sheet(books, occasion, "36.00"))
    part = wta_part(occasion)
    assert part.amount == D("36.00") and part.announced_at is not None


def test_a_game_sheet_prize_that_is_not_the_share_is_refused_not_replaced(
    books, occasion, report_clock
):
    """The program said $27.00; by the announcement $40 of cards were sold: the sheet saying
    $27.00 was announced is refused with (8)(a), and the program's figure is left as it was."""
    night_to_the_door(books, occasion)
    ok(program(books, occasion, "27.00"))
    door(books, occasion, "19:30", wta=10)
    _played_game_one(books, occasion)
    response = game_sheet(books, occasion, "27.00")
    page = response.content.decode()
    assert response.status_code == 200
    assert "961 CMR 3.04(8)(a)" in page and "$36.00, not $27.00" in page
    part = wta_part(occasion)
    assert part.amount == D("27.00") and part.announced_at is None


def test_a_winner_take_all_announcement_needs_the_prize_the_sheet_gives(
    books, occasion, report_clock
):
    night_to_the_door(books, occasion)
    ok(program(books, occasion, ""))
    _played_game_one(books, occasion)
    response = game_sheet(books, occasion, None)
    assert response.status_code == 200
    assert "Give the prize announced, as the sheet writes it." in response.content.decode()
    assert wta_part(occasion).announced_at is None
    ok(game_sheet(books, occasion, "27.00"))
    assert wta_part(occasion).amount == D("27.00")


@pytest.mark.parametrize("prize", ["abc", "-5", "1e3"])
def test_a_prize_that_is_not_an_amount_is_a_message_and_nothing_saved(
    books, occasion, report_clock, prize
):
    night_to_the_door(books, occasion)
    ok(program(books, occasion, ""))
    _played_game_one(books, occasion)
    response = game_sheet(books, occasion, prize)
    assert response.status_code == 200
    assert wta_part(occasion).announced_at is None


# Every other amount the pages take ------------------------------------------------------------


def test_every_amount_the_pages_take_is_recorded_as_typed(books, occasion, report_clock):
    """The known night typed in from its sheets: each amount and count typed on the pages is
    the one recorded, none rounded, capped or recomputed."""
    from games.models import Payout
    from occasions.models import (
        CharityRedemption,
        CharityTicketSale,
        DoorPrize,
        PoliceDetail,
        Refund,
        SaleLine,
        VaryingPrizesAnnouncement,
    )
    from tests.nightfile.test_night_pages import enter_known_night

    enter_known_night(books, occasion)
    prices = {i.category: i.price for i in PriceListItem.objects.filter(occasion=occasion)}
    assert prices == {p["category"]: D(p["price"]) for p in SAMPLE_PRICES}
    parts = PrizePart.objects.filter(game__occasion=occasion).order_by("game__number")
    assert [(p.amount, p.kind, p.donated) for p in parts] == [
        (D("50.00"), "cash", False),
        (D("30.00"), "merchandise", False),
        (D("80.00"), "merchandise", True),
    ]
    assert VaryingPrizesAnnouncement.objects.get(occasion=occasion).persons_entitled_to_play == 100
    lines = SaleLine.objects.filter(sale__occasion=occasion, sale__voided_at__isnull=True)
    counted = {line.category: line.quantity for line in lines}
    assert counted == {
        "admission": 100,
        "extra_regular": 50,
        "bonus": 40,
        "special": 60,
        "winner_take_all": 30,
    }
    admission = lines.get(category="admission")
    assert (admission.serial_first, admission.serial_last) == (1001, 1100)
    voided = SaleLine.objects.get(sale__occasion=occasion, sale__voided_at__isnull=False)
    assert (voided.category, voided.quantity) == ("admission", 5)
    assert occasion.attendance_announcement.players == 95
    assert sorted(DoorPrize.objects.filter(occasion=occasion).values_list("value", flat=True)) == [
        D("25.00"),
        D("40.00"),
    ]
    assert Refund.objects.get(occasion=occasion).amount == D("4.00")
    sale = CharityTicketSale.objects.get(occasion=occasion)
    assert (sale.quantity, sale.price) == (20, D("1.00"))
    assert CharityRedemption.objects.get(occasion=occasion).prize_amount == D("10.00")
    police = PoliceDetail.objects.get(occasion=occasion)
    assert (police.hours, police.hourly_rate) == (D("4"), D("50.00"))
    paid = Payout.objects.filter(winner__claim__game__occasion=occasion)
    assert sorted(p.amount for p in paid) == [D("30.00"), D("50.00"), D("80.00")]


def _extras(**rows: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name in ("door_prizes", "refunds", "charity", "redemptions", "other_sales", "police"):
        data |= formset(name, rows.get(name, []), extra=1)
    return data | formset("raffles", [], extra=1)


@pytest.mark.parametrize(
    ("where", "data", "citation"),
    [
        (
            "extras",
            _extras(door_prizes=[{"description": "TV", "value": "5000.00", "at": "19:10"}]),
            "961 CMR 3.04(8)(e)",
        ),
        (
            "extras",
            _extras(
                police=[
                    {"officer": "Dana", "department": "Fairhaven", "hours": "4", "rate": "95.00"}
                ]
            ),
            "961 CMR 3.04(3)(e)",
        ),
    ],
)
def test_an_amount_a_rule_refuses_is_refused_with_its_citation_and_nothing_saved(
    books, occasion, report_clock, where, data, citation
):
    from organizations.models import AuditEvent

    night_to_the_door(books, occasion)
    kept = AuditEvent.objects.filter(organization=occasion.organization)
    events = kept.exclude(action__contains="refused").count()
    response = books.post(section(occasion, where), data)
    page = response.content.decode()
    assert response.status_code == 200 and "Nothing was saved" in page
    assert citation in page
    assert not occasion.door_prizes.exists() and not occasion.police_details.exists()
    assert kept.exclude(action__contains="refused").count() == events  # only the refusal


@pytest.mark.parametrize(
    ("amount", "citations"),
    [("250.00", {"961 CMR 3.04(8)(b)"}), ("0", set())],
)
def test_a_program_prize_over_the_maximum_is_refused_not_held_to_it(
    books, occasion, report_clock, amount, citations
):
    """A regular game's cash prize of $250.00, over the $200.00 single-game maximum, is refused
    with its citations, not entered as $200.00; a cash prize of $0.00 is a plain message."""
    night_to_the_door(books, occasion)
    line = Arrangement.objects.get(code="single_line").pk
    row = {"number": 1, "half": 1, "kind": "regular", "arrangement": line}
    response = books.post(
        section(occasion, "program"),
        formset("g", [row | {"prize_kind": "cash", "amount": amount}], extra=1),
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Nothing was saved" in page
    assert refusal_citations(page) == citations
    assert not PrizePart.objects.filter(game__occasion=occasion).exists()

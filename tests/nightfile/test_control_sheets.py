"""The night's blank control sheets (nightfile/control_sheets.py): every sheet under the name the
entry pages and the audit trail use, in the order they are typed in, each page headed with the
organization, its license, the night and the paragraph the sheet serves; the program's games and
prizes, the posted prices, the day's worker list and the opening checklist printed on them.

The PDF is rendered once, for the module (WeasyPrint takes seconds), from a typical night (the
prices of ``DEFAULT_PRICES`` in occasions/selectors.py) fetched by the organization's
inspector; the tests of who may fetch it stand a stub in for the PDF."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from dataclasses import dataclass
from decimal import Decimal
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse

from beano.demo.program import CONSOLATION, PROGRAM
from beano.rules.opening import CHECKLIST
from games import jackpot_services
from games.models import Arrangement, Game, PrizePart
from nightfile import control_sheets
from occasions import services as occasion_services
from organizations import services as org_services
from organizations.models import CommissionStaff
from organizations.worker_services import add_to_worker_list, remove_from_worker_list
from tests.conftest import FAST_HASHERS, load_shipped_data, login, make_tenant, make_user
from tests.fixtures.games import start_sample_series

#: pytest-django makes the test database only for a session that has tests marked as using it.
pytestmark = pytest.mark.django_db

NIGHT = dt.date(2026, 12, 4)
PRICES = [
    ("admission", "Admission (3-on regular card)", "2.00"),
    ("extra_regular", "Extra regular card (3-on)", "1.00"),
    ("bonus", "Bonus card", "1.00"),
    ("special", "Special game card", "2.00"),
    ("winner_take_all", "Winner-take-all card", "1.00"),
]
#: On the 2026 list on the night: printed on the sign-in and close sheets.
LISTED = {
    "Linda Souza": ["member_in_charge"],
    "Mary Gallagher": ["seller", "floor_worker"],
    "Robert Medeiros": ["gross_receipts"],
    "Bartholomew Fitzgerald-Vasconcelos": ["caller", "caller_assistant", "floor_worker"],
}
#: Off the list that night: removed in November, added after the night, last year's list.
NOT_LISTED = ("Walter Removed", "Nora Latecomer", "Edna Lastyear")
NO_PRIZE_YET = 15  # a game planned with no prize on it yet
NO_PRIZE_YET_HALF = 2
SHEETS_BEFORE_GAMES = [
    control_sheets.SIGN_IN,
    control_sheets.PRICE_LIST,
    control_sheets.OPENING,
    control_sheets.DOOR_TALLY,
]
SHEETS_AFTER_GAMES = [control_sheets.PAYOUTS, control_sheets.EXTRAS, control_sheets.CLOSE]


@dataclass
class Printed:
    layout: list[str]  # each page's text as laid out: its header on the first line
    pages: list[str]  # each page's text in the order written
    status: int
    headers: dict[str, str]
    post_status: int
    outsider_status: int
    arrangements: dict[str, str]  # name by code
    printed_again: bool  # the head fetched the same PDF, kept from the inspector's

    def sheet(self, name: str) -> str:
        """The text of a sheet's pages, its words one space apart (and a word broken at its
        hyphen at the end of a line joined again)."""
        pages = [
            p for p, laid in zip(self.pages, self.layout, strict=True) if _sheet_of(laid) == name
        ]
        return re.sub(r"(\w-) (\w)", r"\1\2", " ".join(" ".join(pages).split()))


def _header(page: str) -> list[tuple[str, str]]:
    """A page's two header lines, each as (left, right): the organization and the sheet, then
    the license and the night, and the sheet's paragraph."""
    lines = page.strip().splitlines()[:2]
    return [tuple(re.split(r"\s{2,}", line.strip(), maxsplit=1)) for line in lines]


def _sheet_of(page: str) -> str:
    """The sheet a page belongs to, as its header names it."""
    return _header(page)[0][1]


def _member(tenant: Any, name: str, roles: list[str], year: int, on: dt.date) -> Any:
    membership = org_services.add_member(
        organization=tenant.organization,
        by=tenant.head,
        legal_name=name,
        date_of_birth=dt.date(1960, 1, 1),
        kind="member",
        since=dt.date(2015, 1, 1),
    )
    return add_to_worker_list(
        organization=tenant.organization,
        year=year,
        person=membership.person,
        roles=roles,
        identification="P-1",
        compensated=False,
        compensation_note="",
        good_moral_character_attested=True,
        attested_by="Robert Medeiros",
        on=on,
        by=tenant.head,
    )


def _night(tenant: Any) -> Any:
    """The sample night's prices, worker list and program, with a game not yet given a prize."""
    occasion = occasion_services.occasion_for_day(
        organization=tenant.organization, day=NIGHT, by=tenant.member_in_charge
    )
    occasion_services.set_price_list(
        occasion=occasion,
        items=[{"category": c, "label": label, "price": p} for c, label, p in PRICES],
        by=tenant.head,
    )
    for name, roles in LISTED.items():
        _member(tenant, name, roles, 2026, dt.date(2026, 1, 5))
    removed = _member(tenant, "Walter Removed", ["seller"], 2026, dt.date(2026, 1, 5))
    remove_from_worker_list(entry=removed, on=dt.date(2026, 11, 1), by=tenant.head)
    _member(tenant, "Nora Latecomer", ["seller"], 2026, dt.date(2026, 12, 10))
    _member(tenant, "Edna Lastyear", ["seller"], 2025, dt.date(2025, 3, 1))
    arrangements = {a.code: a for a in Arrangement.objects.all()}
    series = start_sample_series(tenant)
    for number, half, kind, parts in PROGRAM:
        game = Game.objects.create(occasion=occasion, number=number, half=half, kind=kind)
        if kind == Game.Kind.PROGRESSIVE:  # its first prize is the jackpot the series carries
            jackpot_services.attach_game(game=game, series=series, by=tenant.head)
            parts = parts[1:]
        for code, amount, is_bonus in parts:
            PrizePart.objects.create(
                game=game,
                order=game.parts.count() + 1,
                arrangement=arrangements[code],
                amount=amount if amount is not None else Decimal("0.00"),
                is_bonus=is_bonus,
                description=CONSOLATION if kind == Game.Kind.PROGRESSIVE else "",
            )
    Game.objects.create(
        occasion=occasion, number=NO_PRIZE_YET, half=NO_PRIZE_YET_HALF, kind=Game.Kind.SPECIAL
    )
    return occasion


@pytest.fixture(scope="module")
def printed(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any) -> Any:
    """The sheets of the sample night as its inspector fetches them; made inside a transaction
    rolled back after the module, so that no other test sees the night."""
    pdf = tmp_path_factory.mktemp("sheets") / "control-sheets.pdf"
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=FAST_HASHERS),
    ):
        outer = transaction.atomic()
        outer._from_testcase = True  # the test's own: each write inside is its own transaction
        outer.__enter__()
        try:
            load_shipped_data()
            tenant, other = make_tenant("Post One"), make_tenant("Parish Two")
            occasion = _night(tenant)
            inspector = make_user("inspector-of-post-one")
            staff = CommissionStaff.objects.create(
                user=inspector, kind=CommissionStaff.Kind.INSPECTOR
            )
            staff.organizations.add(tenant.organization)
            url = reverse("control_sheets", args=[tenant.organization.pk, occasion.pk])
            client = Client()
            login(client, inspector)
            response = client.get(url)
            pdf.write_bytes(response.content)
            hits = control_sheets._pdf.cache_info().hits
            head = Client()
            login(head, tenant.head)
            again = head.get(url).content
            outsider = Client()
            login(outsider, other.head)
            result = Printed(
                layout=[],
                pages=[],
                status=response.status_code,
                headers={k: response[k] for k in ("Content-Type", "Content-Disposition")}
                | {"Cache-Control": response.get("Cache-Control", "")},
                post_status=client.post(url).status_code,
                outsider_status=outsider.get(url).status_code,
                arrangements=dict(Arrangement.objects.values_list("code", "name")),
                printed_again=again == response.content
                and control_sheets._pdf.cache_info().hits == hits + 1,
            )
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
    result.layout = _pages(pdf, "-layout")
    result.pages = _pages(pdf, "-raw")
    return result


def _pages(pdf: Path, mode: str) -> list[str]:
    """Each page's text: ``-layout`` as the page lays it out, ``-raw`` in the order it was
    written (a table cell's lines together)."""
    text = subprocess.run(
        ["pdftotext", mode, str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    return [page for page in text.split("\f") if page.strip()]


def test_the_inspector_reads_the_sheets_as_an_inline_pdf(printed):
    assert printed.status == 200
    assert printed.headers["Content-Type"] == "application/pdf"
    assert printed.headers["Content-Disposition"] == (
        'inline; filename="control-sheets-2026-12-04.pdf"'
    )
    assert printed.headers["Cache-Control"] == "private, no-store"


def test_printed_again_the_same_sheets_are_not_made_again(printed):
    assert printed.printed_again


def test_the_inspector_never_writes_and_another_organization_gets_404(printed):
    assert printed.post_status == 403
    assert printed.outsider_status == 404


def test_every_sheet_comes_in_the_order_it_is_typed_in(printed):
    halves = {number: half for number, half, *_ in PROGRAM} | {NO_PRIZE_YET: NO_PRIZE_YET_HALF}
    first = [control_sheets.game_sheet(n) for n in sorted(halves) if halves[n] == 1]
    second = [control_sheets.game_sheet(n) for n in sorted(halves) if halves[n] == 2]
    # The attendance at the intermission, between the halves' games, as it is typed in.
    expected = SHEETS_BEFORE_GAMES + first + [control_sheets.ATTENDANCE] + second
    expected += SHEETS_AFTER_GAMES
    seen = [_sheet_of(page) for page in printed.layout]
    assert list(dict.fromkeys(seen)) == [sheet.name for sheet in expected]
    for sheet in expected:
        assert sheet.name in printed.sheet(sheet.name), sheet.name  # its title, not only the header


def test_every_page_names_the_organization_the_night_its_sheet_and_paragraph(printed):
    count = len(printed.layout)
    for number, page in enumerate(printed.layout, start=1):
        (org, _sheet), (night, citation) = _header(page)
        assert org == "Post One", page[:300]
        assert re.fullmatch(r"License BN-\d+ · Friday, December 4, 2026", night), night
        assert citation.startswith("961 CMR 3.04("), citation
        assert f"Page {number} of {count}" in page
    door = next(p for p in printed.layout if _sheet_of(p) == "Door tally")
    assert _header(door)[1][1] == "961 CMR 3.04(4)(d)2"


def test_each_game_sheet_is_one_page_with_its_half_kind_and_prizes(printed):
    for number, half, kind, parts in PROGRAM:
        name = control_sheets.game_sheet(number).name
        assert [_sheet_of(p) for p in printed.layout].count(name) == 1, name
        text = printed.sheet(name)
        assert f"{'First' if half == 1 else 'Second'} half · {Game.Kind(kind).label}" in text
        for code, amount, is_bonus in parts:
            assert printed.arrangements[code] in text, (number, code)
            if kind == Game.Kind.WINNER_TAKE_ALL:
                assert "That game's receipts less 10 %" in text
            elif amount is not None:
                shown = f"${amount:,.2f}"
                assert (f"+{shown} with a bonus card" if is_bonus else shown) in text
    assert "Progressive jackpot “Coverall jackpot”: coverall within 52 numbers" in (
        printed.sheet("Game 13 sheet")
    )
    assert "Second half · Special" in printed.sheet(f"Game {NO_PRIZE_YET} sheet")


def test_the_game_sheet_asks_what_the_rules_ask(printed):
    text = printed.sheet("Game 1 sheet")
    for asked in (
        "All 75 balls in the receptacle (3.04(4)(b)), checked at",
        "Started at",
        "Balls called, in order",
        "Board",
        "Ball in hand",
        "Its calling begun?",
        "Card verified by",
        "Witnesses at another table",
        "Share",
        "3.04(6)(d)",
        "3.04(6)(f)",
        "Finished at",
    ):
        assert asked in text, asked
    assert " ".join(str(n) for n in range(61, 76)) in text  # the board's O row


def test_the_posted_prices_are_on_the_price_list_and_the_door_tally(printed):
    for sheet in ("Price list", "Door tally"):
        text = printed.sheet(sheet)
        for _category, label, price in PRICES:
            assert label in text and f"${price}" in text, (sheet, label)
    door = printed.sheet("Door tally")
    for column in ("First serial", "Last serial", "Serials not sold", "Quantity", "Amount"):
        assert column in door
    assert "Voids" in door and "Witness's signature" in door


def test_the_days_worker_list_is_printed_for_sign_in_and_close(printed):
    for sheet in ("Sign-in sheet", "Close"):
        text = printed.sheet(sheet)
        for name in LISTED:
            assert name in text, (sheet, name)
        for name in NOT_LISTED:
            assert name not in text, (sheet, name)
    assert "May act as: Member in charge" in printed.sheet("Sign-in sheet")


def test_the_opening_checklist_prints_every_item_with_its_citation(printed):
    text = printed.sheet("Opening checklist")
    for item in CHECKLIST:
        assert item.title in text, item.code
        assert item.citation in text, item.code
    assert "The occasion opened at" in text


def test_payouts_list_each_prize_of_the_program_to_sign_for_twice(printed):
    text = printed.sheet("Payouts")
    assert "Paid by (signature)" in text and "Verified by (signature)" in text
    assert "W-2G details taken" in text
    assert "Letter X: +$75.00 with a bonus card" in text
    assert "Coverall: $1,500.00" in text


def test_extras_and_close_ask_for_the_rest_of_the_night(printed):
    extras = printed.sheet("Extras")
    for part in (
        "Door prizes",
        "Refunds",
        "Charity game tickets sold",
        "Charity game tickets redeemed",
        "Other sales",
        "Police detail",
        "Raffles",
    ):
        assert part in extras, part
    assert "The occasion closed at" in printed.sheet("Close")


# Who may print them, and where they are offered: no PDF is made (a stub stands in for it).


@pytest.fixture
def stub_pdf(monkeypatch: Any) -> list[Any]:
    made: list[Any] = []

    def render(occasion: Any) -> bytes:
        made.append(occasion)
        return b"%PDF-1.7 stub"

    monkeypatch.setattr(control_sheets, "render_pdf", render)
    return made


@pytest.mark.parametrize("role", ["head", "member_in_charge", "bookkeeper", "worker"])
def test_everyone_of_the_organization_prints_them(client, tenant, occasion, stub_pdf, role):
    login(client, getattr(tenant, role))
    response = client.get(reverse("control_sheets", args=[tenant.organization.pk, occasion.pk]))
    assert response.status_code == 200 and response.content == b"%PDF-1.7 stub"
    assert stub_pdf == [occasion]


def test_it_is_read_only_even_for_the_head(client, tenant, occasion, stub_pdf):
    login(client, tenant.head)
    url = reverse("control_sheets", args=[tenant.organization.pk, occasion.pk])
    # Nobody writes through it (organizations/access_matrix.py): refused before the view.
    assert client.post(url).status_code == 403
    assert stub_pdf == []


def test_the_occasion_page_and_the_floor_offer_them(client, tenant, occasion):
    login(client, tenant.member_in_charge)
    args = [tenant.organization.pk, occasion.pk]
    link = f'href="{reverse("control_sheets", args=args)}"'
    for page in ("occasion_detail", "workers_present", "opening_checklist"):
        html = client.get(reverse(page, args=args)).content.decode()
        assert link in html and "Print the night's control sheets" in unescape(html), page


def test_a_day_not_played_offers_none_to_print(client, tenant, occasion):
    occasion_services.mark_not_played(occasion=occasion, reason="Hall flooded", by=tenant.head)
    login(client, tenant.member_in_charge)
    html = client.get(reverse("occasion_detail", args=[tenant.organization.pk, occasion.pk]))
    assert "control-sheets.pdf" not in html.content.decode()


def test_with_no_program_or_prices_yet_the_sheets_leave_them_to_write_in(occasion):
    sheets = control_sheets.context(occasion)
    [game] = sheets["games"]
    assert game.sheet.name == "Game sheet" and game.number is None
    assert not game.prizes and len(game.blank_prizes) == control_sheets.BLANK_PRIZES
    assert not sheets["prices"] and len(sheets["price_blank"]) == control_sheets.PRICE_BLANK
    assert [row.category for row in sheets["door_rows"]] == [
        "Admission",
        "Extra regular card",
        "Bonus card",
        "Special game card",
        "Winner-take-all card",
    ]
    assert sheets["payout_rows"] == []


def test_every_column_width_the_sheets_use_is_defined_and_none_unused():
    root = Path(settings.BASE_DIR)
    used = {
        width
        for template in (root / "templates/nightfile/sheets").glob("*.html")
        for width in re.findall(r'<col class="(w-[\d-]+)">', template.read_text())
    }
    css = (root / "static/css/control-sheets.css").read_text()
    assert set(re.findall(r"^col\.(w-[\d-]+) ", css, re.M)) == used

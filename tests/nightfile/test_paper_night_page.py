"""The occasion page of a night entered from paper says who did what truthfully (issue 40): the
member in charge the sheets name, and the person who typed the night in, with the day; and its
floor bar offers only what works on such a night (no caller's console, no flashboard)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from occasions.floor_bar import floor_bar
from occasions.models import Occasion
from tests.conftest import login
from tests.nightfile.test_night_pages import enter_known_night, url


@pytest.fixture
def books(client: Any, night_records: Any) -> Any:
    login(client, night_records.bookkeeper)
    return client


def _text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def _bar(page: str) -> str:
    [bar] = re.findall(r"<nav id=\"floor-bar\".*?</nav>", page, flags=re.S)
    return bar


def test_a_paper_night_names_its_member_in_charge_and_who_entered_it(
    books, night_records, occasion, report_clock
):
    """The bookkeeper typed the known night in: the page said "Opened at 6:45 PM by" her. It
    names the members in charge signed in on the sheet at the opening and at the close, and
    the bookkeeper as the one who entered it, on the day she did."""
    enter_known_night(books, occasion)
    typist = night_records.bookkeeper
    name = typist.get_full_name() or typist.get_username()
    text = _text(books.get(url("occasion_detail", occasion)).content.decode())
    assert f"Opened at 6:45 PM by {name}" not in text
    assert f"Closed at 10:30 PM by {name}" not in text
    assert (
        "Opened at 6:45 PM as the sheet says; members in charge: Linda Souza, Anne Sullivan "
        "(signed in on the sheet)" in text
    )
    assert (
        "Closed at 10:30 PM as the sheet says; members in charge: Linda Souza, Anne Sullivan "
        "(signed in on the sheet)" in text
    )
    assert text.count(f"Entered from paper by {name} on Dec 4, 2026.") == 2


def test_the_checklists_signature_names_the_member_in_charge_at_the_opening(
    books, night_records, occasion, report_clock
):
    from tests.nightfile.test_paper_pages_faithful import night_to_the_door

    night_to_the_door(books, occasion, attested="Linda Souza")
    text = _text(books.get(url("occasion_detail", occasion)).content.decode())
    assert (
        "Opened at 6:45 PM as the sheet says; member in charge: Linda Souza "
        "(signed the checklist)" in text
    )
    assert "Entered from paper by post-one-bookkeeper on Dec 4, 2026." in text


def test_a_live_night_still_says_who_opened_it(client, tenant, occasion, report_clock):
    """Nothing from paper: the page names who opened it, as before."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(pk=tenant.member_in_charge.pk)
    from tests.reports.conftest import at

    Occasion.objects.filter(pk=occasion.pk).update(
        status=Occasion.Status.OPEN, opened_at=at(18, 45), opened_by=user
    )
    login(client, tenant.member_in_charge)
    text = _text(client.get(url("occasion_detail", occasion)).content.decode())
    name = user.get_full_name() or user.get_username()
    assert f"Opened at 6:45 PM by {name}." in text and "Entered from paper" not in text


def test_a_closed_paper_night_has_no_console_nor_flashboard_in_its_bar(
    books, occasion, report_clock
):
    enter_known_night(books, occasion)
    for name in ("occasion_detail", "workers_present", "door_sales", "game_program"):
        bar = _bar(books.get(url(name, occasion)).content.decode())
        assert 'data-floor="console"' not in bar and 'data-floor="flashboard"' not in bar, name
        assert 'data-floor="claims"' in bar and 'data-floor="games"' in bar, name
        assert "Close-out" in bar
    page = books.get(url("occasion_detail", occasion)).content.decode()
    assert "Caller's console" not in page  # the draw's card offers none either


def test_an_open_paper_night_leads_on_to_its_sheets(books, occasion, report_clock):
    books.post(
        url("paper_home", occasion),
        {"scope": "whole", "sheets": "All the sheets", "reason": "Laptop broken"},
    )
    Occasion.objects.filter(pk=occasion.pk).update(status=Occasion.Status.OPEN)
    occasion.refresh_from_db()
    bar = floor_bar(occasion)
    assert [link.key for link in bar.links] == ["workers", "door", "games", "claims", "close"]
    assert bar.next_label == "Go on with the sheets" and bar.next_url == url("paper_home", occasion)

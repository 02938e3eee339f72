"""A night entered from its paper control sheets says so wherever it is read (DESIGN, "Moments
and provenance"): the occasion page and its header, the door's recent sales (a door count with
its serials, a void witnessed on paper), the claims page (a card attested, a payout signed by
workers of the night), the inspector's full record and dashboard, and the audit trail."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games.models import Game
from nightfile import engine, reader
from occasions.models import Occasion
from tests.conftest import login
from tests.nightfile.night_fixtures import known_night

SHEETS = "Control sheets of December 4: sign-in, door tally, game sheets 1-3, payouts"
REASON = "The laptop was at the repair shop: the night was played on paper"


@pytest.fixture
def paper_night(night_records: Any, report_clock: Any) -> Occasion:
    """The known night, played on paper and imported from its night file at 11:30 PM."""
    tenant = night_records
    night = reader.read(known_night(tenant.organization.licenses.get().number))
    return engine.import_night(night=night, by=tenant.bookkeeper, file_name="known.json")


def url(name: str, occasion: Occasion, **extra: Any) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk, **extra})


def text(page: str) -> str:
    """The page's words, without its tags and with one space between them."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def test_the_occasion_page_says_the_whole_night_was_recorded_from_paper(
    client, tenant, paper_night
):
    login(client, tenant.member_in_charge)
    page = text(client.get(url("occasion_detail", paper_night)).content.decode())
    assert "From paper: The whole night" in page  # the header, on every page of the night
    assert (
        f"Recorded from paper The whole night : entered after the fact from {SHEETS} "
        f"(night file known.json) by {tenant.bookkeeper.username} on December 4, 2026 at "
        f"11:30 PM. Why: {REASON}"
    ) in page


def test_the_door_shows_the_count_from_paper_and_the_void_witnessed_on_paper(
    client, tenant, paper_night
):
    login(client, tenant.member_in_charge)
    page = text(client.get(url("door_sales", paper_night)).content.decode())
    assert "From paper: The whole night" in page
    assert "Door count from paper 100 admission (serials 1001–1100) · 50 extra" in page
    assert "40 bonus (serials 501–542 less 510, 511)" in page
    assert "witness Mary Gallagher (attested on paper): Rung twice" in page


def test_the_claims_page_shows_the_card_and_the_payout_attested_on_paper(
    client, tenant, paper_night
):
    game = Game.objects.get(occasion=paper_night, number=1)
    login(client, tenant.member_in_charge)
    page = text(client.get(url("game_claims", paper_night, game_pk=game.pk)).content.decode())
    assert "Card attested on paper (the game sheet's signatures) 7:30 PM before Joe Player" in page
    assert "by Mary Gallagher, verified by Anne Sullivan (attested on paper)" in page


def test_the_inspectors_record_shows_what_came_from_paper(client, inspector, paper_night):
    login(client, inspector)
    page = text(client.get(url("occasion_record", paper_night)).content.decode())
    assert f"Recorded from paper The whole night : entered after the fact from {SHEETS}" in page
    assert (
        "Door count from paper (100 admission, serials 1001–1100; 50 extra; "
        "40 bonus, serials 501–542 less 510, 511; 60 special; 30 WTA)"
    ) in page
    assert "(door count from paper) sold 6:50 PM, voided 6:55 PM by" in page
    assert "before Mary Gallagher (attested on paper): Rung twice" in page
    assert "Card attested on paper 7:30:00 PM (the game sheet's signatures): valid" in page
    assert "by Mary Gallagher, verified by Anne Sullivan (attested on paper)" in page


def test_the_inspectors_dashboard_marks_the_night_from_paper(client, inspector, paper_night):
    login(client, inspector)
    page = text(
        client.get(reverse("inspector_dashboard"), {"date_from": "2026-12-01"}).content.decode()
    )
    assert "Closed from paper · The whole night" in page


def test_the_audit_trail_says_which_sheet_each_act_came_from(client, tenant, paper_night):
    login(client, tenant.head)
    page = text(client.get(reverse("audit_log", args=[tenant.organization.pk])).content.decode())
    assert (
        "Entered after the fact from the Door tally sheet (night file known.json) by "
        f"{tenant.bookkeeper.username} on Dec 4, 2026 at 11:30 PM"
    ) in page

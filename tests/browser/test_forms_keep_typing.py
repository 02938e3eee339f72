"""A form refused keeps what was typed. On the claims page: a card read with one mistyped
number is recorded invalid, and the verification form comes back open with the card's numbers
and the witnesses as typed, so one digit is corrected and the card checked again; the split of
the prize shows a winner's name as corrected in the winners' form, at once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import CardVerification
from tests.conftest import PASSWORD
from tests.fixtures.games import WINNING_CORNERS


def log_in(page: Any, url: str, user: Any) -> None:
    page.goto(url)
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(url)


@pytest.mark.browser
@pytest.mark.motion
def test_a_mistyped_card_is_corrected_without_typing_it_again(
    live_server, page, tenant, claim, tmp_path
):
    game = claim.game
    url = live_server.url + reverse(
        "game_claims",
        kwargs={
            "org_id": game.occasion.organization_id,
            "pk": game.occasion_id,
            "game_pk": game.pk,
        },
    )
    log_in(page, url, tenant.member_in_charge)
    slot = page.locator(f"#claim-{claim.pk}")
    slot.get_by_text("Verify the card").click()
    card = page.locator(f"#card_{claim.pk}")
    typed = {**WINNING_CORNERS, "O5": 74}  # 75 was called; 74 is a slip of the finger
    for square, number in typed.items():
        card.get_by_label(square, exact=True).fill(str(number))
    card.get_by_label("Witness 1", exact=True).fill("Rose Medeiros")
    card.get_by_label("Witness 1 table").fill("12")
    card.get_by_role("button", name="Check the card").click()

    expect(slot.locator(".badge")).to_have_text("Card invalid")
    expect(page.get_by_role("alert").first).to_contain_text("kept in the form below")
    # The form is open again, everything as typed.
    expect(card).to_have_attribute("open", "")
    for square, number in typed.items():
        expect(card.get_by_label(square, exact=True)).to_have_value(str(number))
    expect(card.get_by_label("Witness 1", exact=True)).to_have_value("Rose Medeiros")
    expect(card.get_by_label("Witness 1 table")).to_have_value("12")
    page.screenshot(path=str(tmp_path / "card-invalid-kept.png"), full_page=True)

    card.get_by_label("O5", exact=True).fill("75")
    card.get_by_role("button", name="Check the card").click()
    expect(slot.locator(".badge")).to_have_text("Card valid")
    assert list(
        CardVerification.objects.filter(claim=claim).order_by("pk").values_list("valid", flat=True)
    ) == [False, True]

    # The winners' form: the split names the winner as corrected there, before saving.
    winners = page.locator(f"#winners_{claim.part_id}")
    winners.get_by_role("checkbox").check()
    split = page.locator(f"#split-{claim.part_id}")
    expect(split).to_contain_text("Mary Costa $75.00")
    winners.get_by_label("Player's name").fill("Mary Costa-Souza")
    expect(split).to_contain_text("Mary Costa-Souza $75.00")


def in_view(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


@pytest.mark.browser
@pytest.mark.motion
def test_a_refusal_on_the_program_shows_by_what_caused_it_in_view(
    live_server, page, tenant, open_occasion, program_game, tmp_path
):
    from games.models import Arrangement, Game

    for number in range(2, 9):  # a full first half: the last games are far below the fold
        Game.objects.create(occasion=open_occasion, number=number, half=1, kind="regular")
    last = Game.objects.get(occasion=open_occasion, number=8)
    url = live_server.url + reverse(
        "game_program", kwargs={"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    )
    log_in(page, url, tenant.member_in_charge)
    card = page.locator(f"#game-{last.pk}")
    card.get_by_text("Add a prize to game 8").click()
    card.get_by_label("Arrangement").select_option(label="Four corners")
    card.get_by_label("Amount $").fill("5O.00")  # a letter O for a zero
    card.get_by_role("button", name="Add the prize").click()

    refusal = card.locator("#refusal-here")
    expect(refusal).to_contain_text("Refused")
    # Under the form that caused it (still open, the amount as typed), and on the screen.
    expect(card.locator("details.add-part #refusal-here")).to_have_count(1)
    expect(card.get_by_label("Amount $")).to_have_value("5O.00")
    expect(card.get_by_label("Arrangement")).to_have_value(
        str(Arrangement.objects.get(code="four_corners").pk)
    )
    page.wait_for_function(
        "() => { const r = document.getElementById('refusal-here').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight; }"
    )
    assert in_view(page, refusal)
    page.screenshot(path=str(tmp_path / "program-refusal.png"))

    # A button's refusal (game 1 started before its prize is announced): under its buttons.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    first = page.locator(f"#game-{program_game.pk}")
    first.get_by_role("button", name="Start game 1").click()
    expect(first.locator("#refusal-here")).to_contain_text("3.04(6)(b)")
    page.wait_for_function(
        "() => { const r = document.getElementById('refusal-here').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight; }"
    )
    expect(page.locator("#refusal-here")).to_have_count(1)

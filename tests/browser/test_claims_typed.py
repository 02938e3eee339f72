"""Claims verify what people type (issue 39), on the hall laptop: an empty claim is refused in
view; the ball in hand is the last ball keyed in and the question about its calling is left
unanswered; a whole card is typed for "any single line" and, as it is typed and once it is
checked, row 2 (the line the balls cover) is the one highlighted and named. Screenshots at
1366×768 and 1024×768. The ORM then checks what the page recorded."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import CardVerification, Claim
from tests.browser.test_floor_entries import log_in
from tests.games.claims_helpers import ROW_2, WHOLE_CARD, call_the_balls

FOUND = re.compile(r"\bis-found\b")
#: Scrolled to the middle of the window, out from under the night's sticky header.
CLEAR_OF_THE_HEADER = "element => element.scrollIntoView({block: 'center'})"


@pytest.fixture
def claims_page(live_server: Any, page: Any, tenant: Any, draw_game: Any) -> Any:
    """The claims page of ``draw_game`` (any single line for $50) with its balls called, O70
    last, its member in charge logged in."""
    game = call_the_balls(draw_game)
    kwargs = {"org_id": game.occasion.organization_id, "pk": game.occasion_id, "game_pk": game.pk}
    log_in(page, live_server.url + reverse("game_claims", kwargs=kwargs), tenant.member_in_charge)
    return page


def _in_view(page: Any, locator: Any) -> None:
    """Below the sticky header and above the bottom of the window: seen without scrolling."""
    box = locator.bounding_box()
    header = page.locator("[data-sticky-header]").first.bounding_box()
    assert box is not None and header is not None
    assert box["y"] >= header["y"] + header["height"] - 1 and box["y"] < 768, (box, header)


@pytest.mark.browser
def test_a_whole_card_typed_for_any_line_is_valid_and_its_line_highlighted(claims_page, tmp_path):
    page = claims_page
    form = page.locator("#claim")

    # Nothing typed: refused where the worker is looking, nothing recorded.
    form.get_by_role("button", name="Record the claim").click()
    refusal = page.locator("#claim .alert-danger")
    expect(refusal).to_contain_text("Give the player's name or their table")
    expect(refusal).to_contain_text("961 CMR 3.04(6)(e)")
    _in_view(page, refusal)
    assert not Claim.objects.exists()

    # O70, the last ball keyed in, was in the caller's hand: the question is left unanswered.
    form = page.locator("#claim")
    form.get_by_label("Ball the caller had drawn").fill("70")
    expect(form.locator("[data-begun-hint]")).to_have_text(
        "O70 is the last ball keyed in: unanswered, its calling had begun and it counts."
    )
    expect(form.get_by_text("No — not yet begun")).to_be_visible()
    assert form.locator("input[name=calling_begun]:checked").count() == 0
    form.get_by_label("Player").fill("Mary Costa")
    form.get_by_label("Table").fill("7")
    form.get_by_role("button", name="Record the claim").click()
    expect(page.get_by_text("The claim is recorded.")).to_be_visible()
    claim = page.locator("[id^=claim-]")
    expect(claim).to_contain_text("Ball in hand: O70, calling had begun — it counts.")

    # The whole card typed: as it is typed, row 2 is outlined and named.
    claim.get_by_text("Verify the card").click()
    grid = claim.get_by_role("table", name="The winning card")
    for square, number in WHOLE_CARD.items():
        grid.get_by_label(square, exact=True).fill(str(number))
    scope = claim.locator("[data-card-scope]")
    expect(scope).to_have_text(
        "All 24 numbers typed: checked as the whole card; a number not drawn is simply not "
        "covered. Found: row 2."
    )
    for square in ROW_2:
        expect(grid.locator(f"td[data-square={square}]")).to_have_class(FOUND)
    expect(grid.locator("td.is-found")).to_have_count(5)
    claim.get_by_label("Witness 1", exact=True).fill("Rose Medeiros")
    claim.get_by_label("Witness 1 table").fill("12")
    grid.evaluate(CLEAR_OF_THE_HEADER)
    page.screenshot(path=str(tmp_path / "1-card-typed-1366.png"))
    claim.get_by_role("button", name="Check the card").click()

    # Checked: valid, and the card as read shows the winning line.
    valid = page.get_by_text("The card verification is recorded. The card is valid.")
    expect(valid).to_be_visible()
    expect(claim).to_contain_text("Card valid")
    expect(claim).not_to_contain_text("was not drawn")
    picture = claim.get_by_role("table", name="The card as read: won on row 2")
    expect(picture.locator("td.is-found")).to_have_count(5)
    for square in ROW_2:
        expect(picture.locator(f"td[data-square={square}]")).to_have_class(FOUND)
    expect(claim).to_contain_text("Found: row 2")
    picture.evaluate(CLEAR_OF_THE_HEADER)
    page.screenshot(path=str(tmp_path / "2-card-valid-1366.png"))
    page.set_viewport_size({"width": 1024, "height": 768})
    picture.evaluate(CLEAR_OF_THE_HEADER)
    page.screenshot(path=str(tmp_path / "3-card-valid-1024.png"))

    card = CardVerification.objects.get()
    assert card.valid and card.scope == CardVerification.Scope.WHOLE_CARD
    assert card.numbers == WHOLE_CARD
    assert Claim.objects.get().calling_begun


@pytest.mark.browser
def test_a_card_typed_with_a_square_left_blank_is_checked_as_the_arrangements_squares(
    claims_page,
):
    page = claims_page
    form = page.locator("#claim")
    form.get_by_label("Player").fill("Joe Dias")
    form.get_by_role("button", name="Record the claim").click()
    expect(page.get_by_text("The claim is recorded.")).to_be_visible()
    claim = page.locator("[id^=claim-]")
    claim.get_by_text("Verify the card").click()
    grid = claim.get_by_role("table", name="The winning card")
    for square, number in list(WHOLE_CARD.items())[:-1]:  # O5 left blank
        grid.get_by_label(square, exact=True).fill(str(number))
    expect(claim.locator("[data-card-scope]")).to_contain_text(
        "23 numbers typed: checked as the arrangement's squares"
    )
    expect(grid.locator("td[data-square=I1]")).to_have_class(re.compile(r"\bis-not-drawn\b"))
    claim.get_by_label("Witness 1", exact=True).fill("Rose Medeiros")
    claim.get_by_label("Witness 1 table").fill("12")
    claim.get_by_role("button", name="Check the card").click()
    expect(claim).to_contain_text("Card invalid")
    expect(claim).to_contain_text("23 squares were read")
    # Kept as typed: the missing square is typed and the card checked again.
    claim.get_by_role("table", name="The winning card").get_by_label("O5", exact=True).fill("75")
    claim.get_by_role("button", name="Check the card").click()
    expect(claim).to_contain_text("Card valid")
    expect(claim).to_contain_text("Found: row 2")


@pytest.mark.browser
def test_a_typo_in_the_ball_in_hand_or_a_square_is_refused_in_its_box_and_kept(claims_page):
    """ "e5" for a ball or a square is a typo: a number box would send it empty (a claim with no
    ball in hand, a square not read) and say nothing; the box keeps it and the page refuses it
    in place."""
    page = claims_page
    form = page.locator("#claim")
    ball = form.get_by_label("Ball the caller had drawn")
    ball.press_sequentially("e5")
    form.get_by_label("Player").fill("Joe Dias")
    form.get_by_role("button", name="Record the claim").click()
    form = page.locator("#claim")
    expect(form).to_contain_text("Ball the caller had drawn")
    expect(form.locator(".invalid-feedback")).to_contain_text("whole number")
    expect(form.get_by_label("Ball the caller had drawn")).to_have_value("e5")
    expect(form.get_by_label("Player")).to_have_value("Joe Dias")
    assert not Claim.objects.exists()
    form.get_by_label("Ball the caller had drawn").fill("70")
    form.get_by_role("button", name="Record the claim").click()
    expect(page.get_by_text("The claim is recorded.")).to_be_visible()

    claim = page.locator("[id^=claim-]")
    claim.get_by_text("Verify the card").click()
    grid = claim.get_by_role("table", name="The winning card")
    for square, number in WHOLE_CARD.items():
        grid.get_by_label(square, exact=True).fill(str(number))
    grid.get_by_label("B2", exact=True).fill("")
    grid.get_by_label("B2", exact=True).press_sequentially("e7")
    claim.get_by_label("Witness 1", exact=True).fill("Rose Medeiros")
    claim.get_by_role("button", name="Check the card").click()
    claim = page.locator("[id^=claim-]")
    grid = claim.get_by_role("table", name="The winning card")
    expect(grid.get_by_label("B2", exact=True)).to_have_value("e7")
    expect(claim).to_contain_text("B2: ")
    assert not CardVerification.objects.exists()

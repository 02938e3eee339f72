"""The flashboard on the hall's screen, whatever its size: a 4:3 projector at 1024×768, a 16:9
one at 1280×720 and 1920×1080, a 4K television. Nothing scrolls or is cut off (the document is
exactly the viewport, every ball's cell inside it), the arrangement's picture is large, and
"any single line" is drawn as every line it means, one after another."""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from beano.rules.cards import COMMON_ARRANGEMENTS
from games import draw_services
from games.draw_services import record_ball_call
from games.models import Arrangement, PrizePart

SIZES = ((1024, 768), (1280, 720), (1920, 1080), (3840, 2160))
#: Where the screenshots go when asked (BEANO_SCREENSHOTS=folder), for a person to look at.
SHOTS = os.environ.get("BEANO_SCREENSHOTS")

#: Every cell, the letters and the picture measured against the viewport, in the page.
MEASURE = """() => {
  const w = window.innerWidth, h = window.innerHeight, d = document.documentElement;
  const out = (el) => { const r = el.getBoundingClientRect();
    return r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5
      || r.width < 1 || r.height < 1; };
  const cells = [...document.querySelectorAll(
    '.flash-ball, .flash-letter, .flash-last, .arr-cycle, .flash-prize')];
  const text = [...document.querySelectorAll('.flash-ball')].filter(
    (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
  const pic = document.querySelector('.arr-cycle').getBoundingClientRect();
  return {w, h, sw: d.scrollWidth, sh: d.scrollHeight, bw: document.body.scrollWidth,
    bh: document.body.scrollHeight, cells: cells.length,
    outside: cells.filter(out).map((el) => el.className + ' ' + el.textContent.trim()),
    clipped: text.map((el) => el.textContent), picture: pic.height};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_board_fits_the_screen(
    live_server, browser, tenant, open_occasion, draw_game, width, height
):
    flash = draw_services.issue_flashboard_link(occasion=open_occasion, by=tenant.member_in_charge)
    for number in (14, 15, 29, 30, 44, 45, 59, 60, 74, 75):  # the columns a 1024 screen lost
        record_ball_call(game=draw_game, number=number, by=tenant.worker)
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        screen = context.new_page()
        screen.goto(live_server.url + reverse("flashboard", args=[flash.token]))
        expect(screen.locator(".flash-last")).to_have_text("O75")
        found = screen.evaluate(MEASURE)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            screen.screenshot(path=str(Path(SHOTS) / f"flashboard-{width}x{height}.png"))
    finally:
        context.close()
    assert (found["sw"], found["sh"]) == (width, height), found
    assert (found["bw"], found["bh"]) == (width, height), found
    assert found["cells"] == 75 + 5 + 1 + 1 + 1
    assert found["outside"] == [], found["outside"]
    assert found["clipped"] == [], found["clipped"]
    # The picture: a quarter of the screen's height or more (a square of it ≈ 5%).
    assert found["picture"] >= height * 0.24, found


@pytest.mark.browser
@pytest.mark.parametrize("width,height", ((1024, 768), (1920, 1080)))
def test_three_prizes_fit_as_well(
    live_server, browser, tenant, open_occasion, draw_game, width, height
):
    """A game of three prizes (a bonus card and merchandise besides the line): the pictures
    share the room, and still nothing leaves the screen."""
    for order, code, amount in ((2, "four_corners", "25.00"), (3, "coverall", "150.00")):
        name, variants = COMMON_ARRANGEMENTS[code]
        arrangement, _ = Arrangement.objects.get_or_create(
            code=code, defaults={"name": name, "variants": [sorted(v) for v in variants]}
        )
        PrizePart.objects.create(
            game=draw_game,
            order=order,
            arrangement=arrangement,
            amount=Decimal(amount),
            is_bonus=order == 2,
            announced_at=draw_game.started_at,
        )
    flash = draw_services.issue_flashboard_link(occasion=open_occasion, by=tenant.member_in_charge)
    record_ball_call(game=draw_game, number=75, by=tenant.worker)
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        screen = context.new_page()
        screen.goto(live_server.url + reverse("flashboard", args=[flash.token]))
        expect(screen.locator(".arr-cycle")).to_have_count(3)
        found = screen.evaluate(MEASURE)
        if SHOTS:
            screen.screenshot(path=str(Path(SHOTS) / f"flashboard-3-prizes-{width}x{height}.png"))
    finally:
        context.close()
    assert (found["sw"], found["sh"], found["bw"], found["bh"]) == (width, height) * 2, found
    assert found["outside"] == [] and found["clipped"] == [], found
    assert found["picture"] >= height * 0.12, found


@pytest.mark.browser
def test_any_single_line_shows_every_line_in_turn(
    live_server, browser, tenant, open_occasion, draw_game
):
    flash = draw_services.issue_flashboard_link(occasion=open_occasion, by=tenant.member_in_charge)
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        screen = context.new_page()
        screen.goto(live_server.url + reverse("flashboard", args=[flash.token]))
        cycle = screen.locator(".arr-cycle")
        expect(cycle).to_have_attribute(
            "aria-label",
            "Any single line (row, column or diagonal): 12 ways, shown in turn; "
            "press to hold the picture shown",
        )
        pictures = cycle.locator(".arr-pic")
        expect(pictures).to_have_count(12)
        # Each picture lights exactly one line: five squares, or four and the free centre.
        lit = pictures.evaluate_all("(ps) => ps.map((p) => p.querySelectorAll('.arr-on').length)")
        assert sorted(lit) == [4] * 4 + [5] * 8, lit  # row 3, column N, both diagonals cross N3
        # One shown at a time, and the next one shown a moment later.
        expect(cycle.locator(".arr-pic.is-shown")).to_have_count(1)
        first = cycle.locator(".arr-pic").nth(0)
        expect(first).to_have_class("arr-pic arr-pic-flash is-shown")
        expect(cycle.locator(".arr-pic").nth(1)).to_have_class(
            "arr-pic arr-pic-flash is-shown", timeout=4000
        )
        expect(cycle.locator(".arr-pic.is-shown")).to_have_count(1)
    finally:
        context.close()

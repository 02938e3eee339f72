"""The caller's console by keyboard alone, at 1366×768 (issue 39): a ball keyed wrong is
corrected in a few keys, never by tabbing past the 75 balls of the board. From the ball box,
Alt+C opens the correction of the last ball; Tab reaches the calls' "Correct" in a few presses,
the board being one stop whose balls the arrow keys move across; a skip link jumps over the
board; and the page says so where the caller looks. Screenshots go to BEANO_SCREENSHOTS when it
is set (else the test's folder)."""

import datetime as dt
import os
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import BallCall, Game
from occasions.models import Occasion
from tests.browser.night_steps import log_in
from tests.browser.test_games_night import set_up_the_night
from tests.demo_snapshot import seed_demo

NIGHT = dt.datetime(2026, 12, 4, 19, 0, tzinfo=ZoneInfo("America/New_York"))
#: Tab presses from the ball box to the newest call's "Correct": the Call button, the skip
#: link, the board (one stop), "Claims and winners", the calls' list, its first "Correct".
FEW = 6


def _console(live_server, page) -> Game:
    seed_demo()
    occasion = Occasion.objects.get(
        organization__name="American Legion Post 171", date=NIGHT.date()
    )
    set_up_the_night(occasion)
    game = Game.objects.get(occasion=occasion, number=1)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.IN_PLAY, started_at=NIGHT, balls_confirmed_at=NIGHT
    )
    kwargs = {"org_id": occasion.organization_id, "pk": occasion.pk, "game_pk": game.pk}
    log_in(page, live_server.url + reverse("draw_console", kwargs=kwargs), "post171-mic")
    page.wait_for_url(re.compile(r"/games/\d+/draw/$"))
    page.wait_for_load_state("load")
    return game


def _call(page, *balls: str) -> None:
    message = page.locator("#draw-msg")
    for ball in balls:
        expect(page.get_by_label("Ball called")).to_be_focused()
        page.keyboard.type(ball)
        page.keyboard.press("Enter")
        # This ball's answer, not the last one's: the board marks it the last ball and the box
        # is emptied for the next, so a key pressed now acts on the console as it will stay.
        expect(message).to_contain_text(" called (#")
        expect(page.locator(f"#draw-ball-{int(ball)}")).to_have_class(re.compile(r"\bis-last\b"))
        expect(page.get_by_label("Ball called")).to_have_value("")


def _focused(page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return (e.getAttribute('aria-label') || e.textContent || '').trim(); }"
    )


@pytest.mark.browser
@pytest.mark.motion
def test_a_wrong_ball_is_corrected_in_a_few_keys(live_server, page, monkeypatch, tmp_path):
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    game = _console(live_server, page)
    shots = Path(os.environ.get("BEANO_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    ball = page.get_by_label("Ball called")
    _call(page, "41", "7")

    # The page says how, where the caller looks.
    hint = page.locator("#draw-keys")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Alt+C")
    page.screenshot(path=str(shots / "console-keys-1366x768.png"))

    # 1. The shortcut: Alt+C from the ball box opens the last ball's correction, the cursor in
    # its reason; Escape puts it away and the cursor back in the ball box.
    page.keyboard.press("Alt+C")
    reason = page.get_by_label("Why call #2 is corrected")
    expect(reason).to_be_focused()
    page.keyboard.press("Escape")
    expect(ball).to_be_focused()
    expect(reason).to_be_hidden()
    page.keyboard.press("Alt+C")
    expect(reason).to_be_focused()
    page.keyboard.type("keyed 7 for 17")
    page.keyboard.press("Enter")
    expect(page.locator("#draw-msg")).to_have_text("Call #2 (B7) voided: enter the ball called.")
    expect(ball).to_be_focused()
    call = BallCall.objects.get(game=game, sequence=2)
    assert call.voided_at is not None and call.void_reason == "keyed 7 for 17"
    _call(page, "17")

    # 2. By Tab alone: the board is one stop, so the newest call's "Correct" is a few presses
    # from the ball box, not 80.
    presses = 0
    while _focused(page) != "Correct" and presses < 90:
        page.keyboard.press("Tab")
        presses += 1
    assert presses <= FEW, f"{presses} presses of Tab from the ball box to Correct"
    page.keyboard.press("Enter")
    expect(page.get_by_label("Why call #3 is corrected")).to_be_focused()
    page.keyboard.press("Escape")
    expect(ball).to_be_focused()

    # 3. The skip link, seen when the keyboard reaches it, jumps over the board to the calls.
    page.keyboard.press("Tab")  # the Call button
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip the board: to the calls")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.get_by_role("region", name="Calls, newest first")).to_be_focused()
    page.keyboard.press("Tab")
    assert _focused(page) == "Correct"


@pytest.mark.browser
def test_the_arrow_keys_move_across_the_board(live_server, page, monkeypatch):
    """One stop of the Tab key for the 75 balls: the arrows move along a row and between rows,
    Enter calls the ball reached, and Tab leaves the board."""
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    _console(live_server, page)
    page.keyboard.press("Tab")  # the Call button
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")
    assert _focused(page) == "B1"
    for key, ball in (
        ("ArrowRight", "B2"),
        ("ArrowDown", "I17"),
        ("ArrowDown", "N32"),
        ("ArrowLeft", "N31"),
        ("ArrowLeft", "N31"),  # the row's first ball: nowhere further left
        ("End", "N45"),
        ("Home", "N31"),
        ("ArrowUp", "I16"),
    ):
        page.keyboard.press(key)
        assert _focused(page) == ball, (key, ball)
    page.keyboard.press("Tab")
    assert _focused(page) == "Claims and winners"
    page.keyboard.press("Shift+Tab")  # back to the ball the board was left on
    assert _focused(page) == "I16"
    page.keyboard.press("Enter")
    expect(page.locator("#draw-msg")).to_have_text("I16 called (#1).")
    expect(page.get_by_label("Ball called")).to_be_focused()
    # The board answered with the ball lit: still one stop, the ball it was left on.
    page.keyboard.press("Shift+Tab")  # the game picker's last game, before the ball box
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # the Call button
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")
    assert _focused(page) == "I16"

"""The caller's console on a 1024×768 laptop (issue 39): the ball box shows its whole hint
("42 or N42"), and a call's correction opened in the calls list keeps its reason box wide enough
to read and its "Void" button inside the list, not cut off past the card's edge."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.test_floor_entries import log_in
from tests.games.claims_helpers import call_the_balls

#: The placeholder's text fits inside the box's padding (measured in the box's own font).
PLACEHOLDER_FITS = """el => {
  const style = getComputedStyle(el, '::placeholder');
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const box = getComputedStyle(el);
  const room = el.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
  return [ctx.measureText(el.placeholder).width, room];
}"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [1024, 1366])
def test_the_ball_box_and_a_correction_fit_the_console(
    live_server: Any, page: Any, tenant: Any, draw_game: Any, width: int, tmp_path: Any
) -> None:
    game = call_the_balls(draw_game)
    kwargs = {"org_id": game.occasion.organization_id, "pk": game.occasion_id, "game_pk": game.pk}
    page.set_viewport_size({"width": width, "height": 768})
    log_in(page, live_server.url + reverse("draw_console", kwargs=kwargs), tenant.worker)
    ball = page.get_by_label("Ball called")
    text, room = ball.evaluate(PLACEHOLDER_FITS)
    assert text <= room, f"the hint '42 or N42' is cut at {width}: {text:.0f}px in {room:.0f}px"

    page.keyboard.press("Alt+C")
    reason = page.get_by_label("Why call #12 is corrected")
    expect(reason).to_be_focused()
    reason.fill("keyed 70 for 71")
    void = page.get_by_role("button", name="Void #12")
    calls = page.get_by_role("region", name="Calls, newest first").bounding_box()
    for control in (reason, void):
        box = control.bounding_box()
        assert box is not None and calls is not None
        assert box["x"] >= calls["x"] and box["x"] + box["width"] <= calls["x"] + calls["width"], (
            f"cut off at {width}: {box} outside the calls {calls}"
        )
    assert reason.bounding_box()["width"] >= 140, "the reason box is too narrow to read"
    scrolls = page.locator("#draw-calls").evaluate("el => el.scrollWidth > el.clientWidth")
    assert not scrolls, f"the calls scroll sideways at {width}: the call's number is cut"
    page.screenshot(path=str(tmp_path / f"console-correction-{width}.png"))

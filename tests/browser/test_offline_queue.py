"""The hall laptop's queue (issue 42, the client's part: static/js/offline.js).

With the Wi-Fi down (``wifi.down()``: every request to the live server gets no connection),
the door keeps its sales on the laptop, in order, with their keys and moments, and says how
many wait; the caller's console keeps a ball, lights it on its board and on the flashboard of
the same laptop, and refuses the same ball again at once. With the Wi-Fi up, the queue is sent
to the acts endpoint. Here Playwright answers the endpoint and the night pack with canned JSON
(the pack cut when the Wi-Fi is), so what is checked is exactly what the laptop sends and what it
does with each kind of answer; the whole way to the server and back is
tests/browser/test_offline_night.py."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import draw_services
from tests.browser.test_floor_entries import address, log_in
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
CITATION = "961 CMR 3.04(4)(d)2"

ACTS_IN_STORE = """async () => {
  const db = await idb.openDB("beano-floor", 1);
  const acts = await db.getAll("acts");
  const device = await db.get("meta", "device");
  db.close();
  acts.sort((a, b) => a.seq - b.seq);
  return {device, acts};
}"""


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


class Hall:
    """The Wi-Fi and the two addresses of the offline app this branch does not serve: the pack
    (answered while the Wi-Fi is up) and the acts (answered with the results the test sets)."""

    def __init__(self, page: Any, wifi: Any, org_id: int, occasion_id: int) -> None:
        self.page = page
        self.wifi = wifi
        self.down_now = False
        self.pack: dict | None = None
        self.posts: list[dict] = []
        self.headers: list[dict] = []
        self.refuse: set[str] = set()
        self.signed_out = False
        base = f"/org/{org_id}/occasions/{occasion_id}/offline/"
        self.pack_path = base + "pack/"
        self.acts_path = base + "acts/"
        page.route("**" + self.pack_path, self._pack)
        page.route("**" + self.acts_path, self._acts)

    def down(self) -> None:
        self.down_now = True
        self.wifi.down()

    def up(self) -> None:
        self.down_now = False
        self.wifi.up()

    def _pack(self, route: Any) -> None:
        if self.down_now:
            route.abort("internetdisconnected")
        elif self.pack is None:
            route.fulfill(status=404, body="Not found")
        else:
            pack = dict(self.pack, server_time=dt.datetime.now(dt.UTC).isoformat())
            route.fulfill(status=200, content_type="application/json", body=json.dumps(pack))

    def _acts(self, route: Any) -> None:
        if self.down_now:
            route.abort("internetdisconnected")
            return
        if self.signed_out:
            route.fulfill(status=302, headers={"Location": "/accounts/login/?next=/"})
            return
        body = route.request.post_data_json
        self.posts.append(body)
        self.headers.append(route.request.headers)
        results = []
        for act in body["acts"]:
            refused = act["key"] in self.refuse
            results.append(
                {
                    "seq": act["seq"],
                    "key": act["key"],
                    "state": "refused" if refused else "recorded",
                    "said": "" if refused else f"Act {act['seq']} recorded.",
                    "refusal": {
                        "message": f"{CITATION}: Receipt 9 was already voided.",
                        "parts": [{"words": "Receipt 9 was already voided.", "citation": CITATION}],
                        "code": "S-VOID-ONCE",
                        "todo": "Check the paper sheet; enter it again if it was not voided.",
                    }
                    if refused
                    else None,
                    "claimed_at": act["done_at"],
                    "received_at": dt.datetime.now(dt.UTC).isoformat(),
                }
            )
        route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps({"server_time": now(), "results": results}),
        )


def pack_of(page: Any, occasion: Any, games: list[dict] | None = None, bonus_max: int = 5) -> dict:
    """The night pack as the laptop would get it, its prices read from the door's boxes (one
    box with a limit of ``bonus_max``)."""
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.door-qty')].map(b => (
             {field: b.name, category: b.dataset.category, label: b.dataset.categoryLabel,
              price: b.dataset.price}))"""
    )
    prices = [
        dict(box, id=i, max=bonus_max if box["category"] == "bonus" else None)
        for i, box in enumerate(boxes, start=1)
        if box["category"] != "special"  # taken off the list since the page was read
    ]
    return {
        "version": 1,
        "occasion": {
            "id": occasion.pk,
            "organization": occasion.organization_id,
            "date": occasion.date.isoformat(),
            "status": "open",
        },
        "user": {"id": 1, "name": "Robin Hale"},
        "prices": prices,
        "games": games or [],
        "current_game": None,
    }


def shots_dir(tmp_path: Path) -> Path:
    import os

    folder = Path(os.environ.get("BEANO_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def door(live_server: Any, page: Any, tenant: Any, open_occasion: Any, wifi: Any) -> Any:
    hall = Hall(page, wifi, open_occasion.organization_id, open_occasion.pk)
    args = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    log_in(page, address(live_server, "door_sales", **args), tenant.worker)
    page.hall = hall
    page.sale_path = reverse("sale_record", kwargs=args)
    return page


@pytest.mark.browser
def test_door_sales_kept_offline_are_sent_in_order_when_the_wifi_returns(
    door, open_occasion, tmp_path
):
    page, hall = door, door.hall
    banner = page.locator("#offline-banner")
    result = page.locator("#sale-result")
    extra_regular = page.get_by_label("Extra regular card")
    bonus = page.get_by_label("Bonus card")
    expect(banner).to_be_hidden()
    # The laptop keeps the night's pack while online.
    hall.pack = pack_of(page, open_occasion)
    page.evaluate("beanoOffline.probe()")
    page.wait_for_function("() => window.beanoOffline.state.pack !== null")

    # The Wi-Fi drops: the first sale gets no answer, is kept, and the laptop is offline.
    hall.down()
    extra_regular.fill("2")
    extra_regular.press("Enter")
    expect(result).to_have_text(
        "Kept on this laptop: 1 × Admission, 2 × Extra regular card — sent when the connection "
        "returns."
    )
    expect(banner.locator("[data-offline-text]")).to_have_text(
        "Offline — 1 act waits on this laptop. It is sent when the connection returns."
    )
    expect(page.locator("[data-floor-unsent=sale]")).to_be_hidden()  # no "Send again"
    expect(extra_regular).to_have_value("")  # readied for the next player
    expect(page.get_by_label("Admission (3-on")).to_have_value("1")
    # Two more, kept at once (not sent).
    bonus.fill("1")
    bonus.press("Enter")
    expect(result).to_have_text(re.compile(r"^Kept on this laptop: 1 × Admission, 1 × Bonus card"))
    extra_regular.fill("3")
    extra_regular.press("Enter")
    expect(banner.locator("[data-offline-text]")).to_have_text(
        "Offline — 3 acts wait on this laptop. They are sent when the connection returns."
    )
    # Over the box's limit: refused on the laptop at once, nothing kept.
    bonus.fill("6")
    bonus.press("Enter")
    expect(result.get_by_role("alert")).to_have_text(
        "Refused on this laptop. At most 5 × Bonus card in one sale: 6 were typed. "
        "Nothing was kept."
    )
    expect(banner).to_have_attribute("data-waiting", "3")
    expect(bonus).to_have_value("6")  # left as typed, to be put right
    bonus.fill("")
    # A box the pack's price list does not hold: refused too.
    page.get_by_label("Special game card").fill("1")
    page.get_by_label("Special game card").press("Enter")
    expect(result.get_by_role("alert")).to_have_text(
        "Refused on this laptop. Special game card is not on tonight's price list: it cannot be "
        "sold. Nothing was kept."
    )
    page.get_by_label("Special game card").fill("")
    expect(banner).to_have_attribute("data-waiting", "3")
    folder = shots_dir(tmp_path)
    for width in (1366, 1024):
        page.set_viewport_size({"width": width, "height": 768})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(folder / f"offline-banner-door-{width}x768.png"))
        box = banner.bounding_box()
        assert box and box["width"] <= width and box["height"] < 120, box
    page.set_viewport_size({"width": 1366, "height": 768})

    # The laptop's store: the three sales in order, each with its key and moment.
    stored = page.evaluate(ACTS_IN_STORE)
    acts = stored["acts"]
    assert UUID.match(stored["device"])
    assert [a["action"] for a in acts] == ["sale", "sale", "sale"]
    assert [a["state"] for a in acts] == ["waiting"] * 3
    assert acts[0]["seq"] < acts[1]["seq"] < acts[2]["seq"]
    assert len({a["key"] for a in acts}) == 3 and all(UUID.match(a["key"]) for a in acts)
    for act in acts:
        assert act["path"] == page.sale_path and act["occasion"] == open_occasion.pk
        assert dict(act["fields"])["request_key"] == act["key"]
        assert "csrfmiddlewaretoken" not in dict(act["fields"])
        assert act["who"] == "Robin Hale"
        done = dt.datetime.fromisoformat(act["done_at"])
        laptop = dt.datetime.fromisoformat(act["laptop_at"])
        assert abs((done - laptop).total_seconds() * 1000 - act["offset_ms"]) < 2
    assert acts[0]["done_at"] <= acts[1]["done_at"] <= acts[2]["done_at"]
    qty = [dict(a["fields"]) for a in acts]
    extra_name = extra_regular.get_attribute("name")
    assert [q[extra_name] for q in qty] == ["2", "", "3"]

    # Back, but the session has expired: the queue stays, and the laptop says to sign in.
    hall.signed_out = True
    hall.up()
    page.evaluate("beanoOffline.probe()")
    expect(banner).to_contain_text("Sign in again to send the 3 acts waiting on this laptop.")
    expect(banner.get_by_role("link", name="Sign in again")).to_be_visible()
    assert [a["state"] for a in page.evaluate(ACTS_IN_STORE)["acts"]] == ["waiting"] * 3

    # Signed in: sent in order, in one batch, to the contract's address; the second refused.
    hall.signed_out = False
    hall.refuse = {acts[1]["key"]}
    page.evaluate("document.getElementById('offline-banner').setAttribute('data-reload', 'no')")
    page.evaluate("beanoOffline.probe()")
    refused = page.locator("#offline-refused")
    expect(refused).to_be_visible()
    expect(banner).to_be_hidden()
    assert len(hall.posts) == 1
    sent = hall.posts[0]
    assert sent["device"] == stored["device"]
    assert [a["seq"] for a in sent["acts"]] == [a["seq"] for a in acts]
    for wire, act in zip(sent["acts"], acts, strict=True):
        assert set(wire) == {"seq", "key", "path", "fields", "done_at", "laptop_at", "offset_ms"}
        assert wire["key"] == act["key"] and wire["path"] == page.sale_path
        assert wire["fields"] == act["fields"] and wire["done_at"] == act["done_at"]
    cookie = {c["name"]: c["value"] for c in page.context.cookies()}["csrftoken"]
    assert hall.headers[0]["x-csrftoken"] == cookie
    assert hall.headers[0]["content-type"] == "application/json"
    states = [a["state"] for a in page.evaluate(ACTS_IN_STORE)["acts"]]
    assert states == ["recorded", "refused", "recorded"]
    # The refusal stays with its citation and what to do until the member in charge dismisses it.
    expect(refused).to_contain_text("1 × Admission, 1 × Bonus card")
    expect(refused.locator(".offline-refused-message")).to_have_text(
        f"Receipt 9 was already voided. {CITATION}"  # the words first, as the pages show them
    )
    expect(refused).to_contain_text(
        "What to do: Check the paper sheet; enter it again if it was not voided."
    )
    page.screenshot(path=str(folder / "offline-refused-door-1366x768.png"))
    page.reload()
    expect(refused).to_contain_text(CITATION)  # kept on the laptop, across a reload
    refused.get_by_role("button", name="Dismiss").click()
    expect(refused).to_be_hidden()
    assert len(hall.posts) == 1  # nothing sent twice


@pytest.mark.browser
def test_a_ball_kept_offline_lights_the_console_and_the_flashboard_and_is_not_called_twice(
    live_server, page, tenant, game_in_play, wifi, tmp_path
):
    game = game_in_play
    occasion = game.occasion
    hall = Hall(page, wifi, occasion.organization_id, occasion.pk)
    args = {"org_id": occasion.organization_id, "pk": occasion.pk, "game_pk": game.pk}
    log_in(page, address(live_server, "draw_console", **args), tenant.worker)
    flash = draw_services.issue_flashboard_link(occasion=occasion, by=tenant.member_in_charge)
    screen = page.context.new_page()  # the hall's screen, on the same laptop
    screen.goto(live_server.url + reverse("flashboard", args=[flash.token]))
    expect(screen.locator(".flash-count")).to_have_text("6 called")
    called_before = page.evaluate(
        "[...document.querySelectorAll('#draw-board .draw-ball.is-called')].map(b => b.value)"
    )
    assert len(called_before) == 6 and "21" not in called_before
    ball = page.get_by_label("Ball called")
    message = page.locator("#draw-msg")
    banner = page.locator("#offline-banner")

    hall.down()
    ball.fill("21")
    ball.press("Enter")
    expect(message).to_have_text("I21 kept on this laptop — sent when the connection returns.")
    expect(page.locator("#draw-ball-21")).to_have_class(re.compile(r"\bis-called\b.*\bis-last\b"))
    expect(page.locator("#draw-last .draw-last-ball")).to_have_text("I21")
    expect(page.locator("#draw-calls-body tr").first).to_contain_text("I21")
    expect(banner.locator("[data-offline-text]")).to_have_text(
        "Offline — 1 act waits on this laptop. It is sent when the connection returns."
    )
    expect(ball).to_have_value("")
    # The flashboard of the same laptop follows the console; the other device would reconnect.
    expect(screen.locator(".flash-last")).to_have_text("I21")
    expect(screen.locator(".flash-count")).to_have_text("7 called")
    expect(screen.locator("#flash-offline")).to_be_hidden()

    # The same ball again, and a ball the server had called: refused on the laptop.
    ball.fill("I21")
    ball.press("Enter")
    expect(message.get_by_role("alert")).to_have_text(
        re.compile(
            r"^Refused on this laptop\. 961 CMR 3\.04\(6\)\(a\) I21 was already called in this game"
        )
    )
    ball.fill(called_before[0])
    ball.press("Enter")
    expect(message.get_by_role("alert")).to_contain_text("was already called in this game")
    expect(banner).to_have_attribute("data-waiting", "1")
    folder = shots_dir(tmp_path)
    for width in (1366, 1024):
        page.set_viewport_size({"width": width, "height": 768})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(folder / f"offline-banner-console-{width}x768.png"))
    page.set_viewport_size({"width": 1366, "height": 768})
    acts = page.evaluate(ACTS_IN_STORE)["acts"]
    assert [(a["action"], dict(a["fields"])["ball"]) for a in acts] == [("ball", "21")]

    # Back: the probe finds the server (every 5 s, or at once here) and the ball is sent.
    page.evaluate("document.getElementById('offline-banner').setAttribute('data-reload', 'no')")
    hall.up()
    expect(banner).to_be_hidden(timeout=8000)
    assert hall.posts and hall.posts[0]["acts"][0]["path"] == reverse("draw_call", kwargs=args)
    assert page.evaluate(ACTS_IN_STORE)["acts"][0]["state"] == "recorded"


@pytest.mark.browser
def test_a_void_offline_waits_for_the_witness_pin_and_the_close_waits_for_the_queue(
    live_server, page, tenant, open_occasion, sale, wifi
):
    """A void done offline is kept "to be confirmed", never with the PIN typed; online, the
    witness types it in the banner and it is sent with it. Meanwhile the night is not closed."""
    on_floor(tenant.head, open_occasion)
    hall = Hall(page, wifi, open_occasion.organization_id, open_occasion.pk)
    args = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    log_in(page, address(live_server, "door_sales", **args), tenant.member_in_charge)
    banner = page.locator("#offline-banner")
    words = banner.locator("[data-offline-text]")

    hall.down()
    receipts = page.locator("#recent-sales")
    receipts.get_by_role("button", name="Void").first.click()
    form = receipts.locator("form.door-void").first
    form.get_by_label("Reason").fill("sold to the wrong player")
    form.get_by_label(re.compile("^Witness")).select_option(str(tenant.head.pk))
    form.get_by_label("The witness types their own password or PIN").fill(PASSWORD)
    form.get_by_role("button", name="Void receipt 1").click()
    expect(form.get_by_role("status")).to_contain_text("Kept on this laptop to be confirmed")
    expect(form.get_by_label("The witness types their own password or PIN")).to_have_value("")
    expect(words).to_have_text(
        "Offline — 1 act waits on this laptop. It is sent when the connection returns."
    )
    expect(banner.locator("[data-offline-act]")).to_contain_text(
        "Void of receipt 1 (", use_inner_text=True
    )
    expect(banner.locator("form.offline-confirm-form")).to_be_hidden()  # no PIN offline
    acts = page.evaluate(ACTS_IN_STORE)["acts"]
    assert [(a["action"], a["state"]) for a in acts] == [("void", "to_confirm")]
    assert PASSWORD not in json.dumps(acts) and "witness_secret" not in dict(acts[0]["fields"])
    assert dict(acts[0]["fields"])["receipt"] == "1"

    # Back: nothing is sent without the witness; the close waits for the queue.
    hall.up()
    page.goto(address(live_server, "occasion_close", **args))
    expect(words).to_have_text("1 act waits on this laptop for a second person's PIN.")
    page.get_by_role("button", name="Close the occasion").click()
    expect(page.locator("[data-offline-close-said]")).to_have_text(
        "1 act waits on this laptop: it is sent first."
    )
    assert hall.posts == []
    pin = banner.get_by_label("The witness types their PIN")
    pin.fill(PASSWORD)
    banner.get_by_role("button", name="Send with the PIN").click()
    page.wait_for_load_state()
    expect(banner).to_be_hidden()
    assert len(hall.posts) == 1
    fields = dict(hall.posts[0]["acts"][0]["fields"])
    assert fields["witness_secret"] == PASSWORD and fields["receipt"] == "1"
    stored = page.evaluate(ACTS_IN_STORE)["acts"]
    assert [a["state"] for a in stored] == ["recorded"]
    assert PASSWORD not in json.dumps(stored)


@pytest.mark.browser
def test_offline_a_worker_signed_out_is_kept_and_a_claim_on_a_finished_game_refused(
    live_server, page, tenant, game_in_play, wifi, new_tab
):
    occasion = game_in_play.occasion
    on_floor(tenant.head, occasion)
    hall = Hall(page, wifi, occasion.organization_id, occasion.pk)
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    log_in(page, address(live_server, "workers_present", **args), tenant.member_in_charge)
    words = page.locator("#offline-banner [data-offline-text]")
    # Another device's flashboard: no console of its own, it keeps its board and reconnects.
    flash = draw_services.issue_flashboard_link(occasion=occasion, by=tenant.member_in_charge)
    screen = new_tab()
    screen.goto(live_server.url + reverse("flashboard", args=[flash.token]))
    expect(screen.locator(".flash-count")).to_have_text("6 called")

    hall.down()
    page.evaluate("beanoOffline.probe()")
    expect(words).to_have_text(re.compile(r"^Offline — no act waits on this laptop\."))
    expect(screen.locator("#flash-offline")).to_have_text("Reconnecting…")
    expect(screen.locator(".flash-count")).to_have_text("6 called")
    sign_out = page.get_by_role("button", name=re.compile("^Sign out "))
    name = sign_out.first.get_attribute("aria-label").removeprefix("Sign out ")
    sign_out.first.click()
    expect(page.locator("#workers-panel [data-offline-said]")).to_have_text(
        f"Kept on this laptop: {name}'s sign-out — sent when the connection returns."
    )
    expect(words).to_have_text(
        "Offline — 1 act waits on this laptop. It is sent when the connection returns."
    )
    acts = page.evaluate(ACTS_IN_STORE)["acts"]
    assert [a["action"] for a in acts] == ["sign_out"]
    assert acts[0]["path"].endswith("/sign-out/")

    # The claims page, the pack saying game 3 is over: a claim is refused on the laptop.
    hall.up()
    page.evaluate("document.getElementById('offline-banner').setAttribute('data-reload', 'no')")
    hall.pack = {
        "version": 1,
        "user": {"id": 1, "name": "Robin Hale"},
        "prices": [],
        "games": [{"id": game_in_play.pk, "number": 3, "state": "finished", "called": []}],
    }
    page.goto(address(live_server, "game_claims", game_pk=game_in_play.pk, **args))
    page.wait_for_function("() => window.beanoOffline.state.pack !== null")
    hall.down()
    page.evaluate("beanoOffline.probe()")
    form = page.locator("#claim")
    form.get_by_label("Player").fill("Joe Dias")
    form.get_by_role("button", name="Record the claim").click()
    expect(page.locator("[data-offline-said=claim]").get_by_role("alert")).to_have_text(
        "Refused on this laptop. 961 CMR 3.04(6)(a) Game 3 is over: a claim is recorded while "
        "the game is in play. Nothing was kept."
    )
    assert [a["action"] for a in page.evaluate(ACTS_IN_STORE)["acts"]] == ["sign_out"]

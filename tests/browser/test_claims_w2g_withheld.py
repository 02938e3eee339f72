"""The claims page of a game whose prize needed a W-2G, at 1366×768, as two readers see it: the
worker (password only) is told the details are recorded and shown to whom personal data is
shown (organizations/access_matrix.py), and sees no name, address or TIN; the head, signed in
with a second factor, sees them. Screenshots go to BEANO_SCREENSHOTS when it is set (else the
test's folder)."""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Payout
from tests.browser.conftest import second_factor
from tests.browser.night_steps import log_in
from tests.demo_snapshot import seed_demo


@pytest.mark.browser
def test_the_w2g_on_the_claims_page_is_shown_only_to_whom_personal_data_is(
    live_server, new_tab, tmp_path
):
    seed_demo()
    payout = (
        Payout.objects.filter(
            w2g_required=True,
            winner__claim__game__occasion__organization__name="American Legion Post 171",
        )
        .select_related("winner__claim__game__occasion")
        .first()
    )
    assert payout is not None, "the demo pays a W-2G prize"
    game = payout.winner.claim.game
    kwargs = {"org_id": game.occasion.organization_id, "pk": game.occasion_id, "game_pk": game.pk}
    url = live_server.url + reverse("game_claims", kwargs=kwargs)
    shots = Path(os.environ.get("BEANO_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)

    worker = new_tab()  # 1366×768, as a hall laptop
    log_in(worker, url, "post171-worker")
    worker.wait_for_url(url)
    withheld = worker.locator(".w2g-withheld")
    expect(withheld).to_contain_text("W-2G details recorded")
    expect(withheld).to_contain_text("the head, the bookkeeper (with a second factor)")
    withheld.scroll_into_view_if_needed()
    worker.screenshot(path=str(shots / "claims-w2g-worker.png"))
    assert payout.w2g_address not in worker.content()
    assert payout.w2g_legal_name not in worker.content()

    head = new_tab()
    log_in(head, url, "post171-head")
    second_factor(head, "post171-head")
    head.wait_for_url(url)
    expect(head.get_by_text(payout.w2g_address, exact=False)).to_be_visible()
    expect(head.locator(".w2g-withheld")).to_have_count(0)
    head.get_by_text(payout.w2g_address, exact=False).scroll_into_view_if_needed()
    head.screenshot(path=str(shots / "claims-w2g-head.png"))

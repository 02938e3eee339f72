"""Two people who each sign for themselves, on the hall laptop: the member in charge voids a
receipt and pays a winner, and the second person (the head, on the floor tonight) steps up and
types their own PIN. A wrong PIN is refused with the void's paragraph, 961 CMR 3.04(4)(d), and
the payout's, 3.04(6)(e); a compensated bookkeeper typing their own password is refused as
barred from assisting, 3.04(1)(g). The ORM then checks what was recorded, and the refused
actions' log."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from playwright.sync_api import expect

from beano.accounts.pins import set_pin
from beano.rules.models import RefusedAction
from games.models import Payout
from occasions.models import Sale
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor

PIN = "4826"


def log_in(page: Any, url: str, user: Any) -> None:
    page.goto(url)
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(url)


@pytest.fixture
def second_people(tenant: Any, sale: Any, winner: Any) -> tuple[Any, Any]:
    """The head on the floor tonight with a PIN; the bookkeeper on the floor, compensated."""
    cache.clear()  # wrong tries are counted in the shared cache
    occasion = sale.occasion
    head = on_floor(tenant.head, occasion)
    set_pin(user=head, pin=PIN, current_password=PASSWORD)
    bookkeeper = on_floor(tenant.bookkeeper, occasion, role="bookkeeper")
    bookkeeper.org_roles.first().person.worker_list_entries.update(compensated=True)
    return head, bookkeeper


def label(user: Any) -> str:
    return user.get_full_name() or user.get_username()


@pytest.mark.browser
@pytest.mark.motion
def test_a_void_and_a_payout_each_confirmed_by_a_second_persons_own_pin(
    live_server, page, tenant, sale, winner, second_people, tmp_path
):
    head, bookkeeper = second_people
    occasion = sale.occasion
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    log_in(page, live_server.url + reverse("door_sales", kwargs=args), tenant.member_in_charge)

    # The void: the head is chosen, and a wrong PIN typed.
    def try_void(witness: Any, secret: str) -> Any:
        row = page.locator("#recent-sales tr").filter(has_text="receipt 1").first
        if not row.count():
            row = page.locator("#recent-sales tr").filter(
                has=page.get_by_role("button", name="Void")
            )
        row.get_by_role("button", name="Void").click()
        form = page.locator("form.door-void").first
        form.get_by_label("Reason").fill("rang up 2 extras instead of 1")
        form.get_by_label(re.compile("^Witness")).select_option(label=label(witness))
        form.get_by_label("The witness types their own password or PIN").fill(secret)
        form.get_by_role("button", name="Void receipt 1").click()
        return page.locator("#recent-sales")

    panel = try_void(head, "9999")
    expect(panel.get_by_role("alert")).to_contain_text("3.04(4)(d)")
    expect(panel.get_by_role("alert")).to_contain_text("has not confirmed")
    page.screenshot(path=str(tmp_path / "void-wrong-pin.png"))
    assert not Sale.objects.get(pk=sale.pk).is_voided

    # The compensated bookkeeper, with their own right password: barred from assisting.
    panel = try_void(bookkeeper, PASSWORD)
    expect(panel.get_by_role("alert")).to_contain_text("3.04(1)(g)")
    page.screenshot(path=str(tmp_path / "void-bookkeeper.png"))
    assert not Sale.objects.get(pk=sale.pk).is_voided

    # The head types their own PIN: the receipt is voided, witnessed by them.
    panel = try_void(head, PIN)
    expect(panel).to_contain_text("voided")
    expect(panel).to_contain_text(f"witness {label(head)}")
    page.screenshot(path=str(tmp_path / "void-done.png"))
    voided = Sale.objects.get(pk=sale.pk)
    assert voided.is_voided and voided.void_witness == head

    # The payout, on the claims page: a wrong PIN, then the bookkeeper, then the head's PIN.
    game = winner.claim.game
    page.goto(live_server.url + reverse("game_claims", kwargs={**args, "game_pk": game.pk}))

    def try_payout(verifier: Any, secret: str) -> Any:
        card = page.locator(f"#payout_{winner.pk}")
        card.get_by_label("Amount paid").fill("75.00")
        card.get_by_label("Verified by").select_option(label=label(verifier))
        card.get_by_label("The verifier types their own password or PIN").fill(secret)
        card.get_by_role("button", name="Record the payout").click()
        page.wait_for_load_state()
        return page.locator(f"#payout_{winner.pk}")

    card = try_payout(head, "9999")
    expect(card.get_by_role("alert").first).to_contain_text("3.04(6)(e)")
    expect(card.get_by_role("alert").first).to_contain_text("has not confirmed")
    page.screenshot(path=str(tmp_path / "payout-wrong-pin.png"))
    assert not Payout.objects.exists()

    card = try_payout(bookkeeper, PASSWORD)
    expect(card.get_by_role("alert").first).to_contain_text("3.04(1)(g)")
    expect(card.get_by_role("alert").first).to_be_in_viewport()  # not below the claim form
    page.screenshot(path=str(tmp_path / "payout-bookkeeper.png"))
    assert not Payout.objects.exists()

    card = try_payout(head, PIN)
    expect(card).to_contain_text("Paid")
    expect(card).to_contain_text(f"verified by {label(head)}")
    page.screenshot(path=str(tmp_path / "payout-done.png"))
    payout = Payout.objects.get()
    assert payout.verified_by == head and payout.amount == Decimal("75.00")
    assert payout.paid_by == tenant.member_in_charge

    # Each refusal is in the refused actions' log, with its paragraph.
    refused = RefusedAction.objects.order_by("pk")
    assert [r.action for r in refused] == ["sale.void"] * 2 + ["game.record_payout"] * 2
    assert [r.citations for r in refused] == ["961 CMR 3.04(4)(d)"] * 2 + ["961 CMR 3.04(6)(e)"] * 2

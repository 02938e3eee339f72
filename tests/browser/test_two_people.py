"""Two people who each sign for themselves, on the hall laptop: the member in charge voids a
receipt and pays a winner, and the second person (the head, on the floor tonight) steps up and
types their own PIN. The lists offer only who could confirm now (never the compensated
bookkeeper, 3.04(1)(g)). A wrong PIN is refused with the void's paragraph, 961 CMR 3.04(4)(d),
and the payout's, 3.04(6)(e); a witness who left the floor since the list was drawn is refused
too. Each refusal keeps the form open as it was filled, its plain words first and its citation
after, the cursor on the field at fault. The ORM then checks what was recorded, and the refused
actions' log."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from beano.accounts.pins import set_pin
from beano.rules.models import RefusedAction
from games.models import Payout
from occasions.models import Sale, WorkerPresence
from tests.browser.conftest import second_factor
from tests.conftest import PASSWORD
from tests.fixtures.floor import off_the_floor, on_floor

PIN = "4826"
REASON = "rang up 2 extras instead of 1"


def log_in(page: Any, url: str, user: Any) -> None:
    page.goto(url)
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(url)


@pytest.fixture
def second_people(tenant: Any, sale: Any, winner: Any) -> tuple[Any, Any]:
    """The head on the floor tonight with a PIN; the bookkeeper on the floor, compensated; the
    worker who sold receipt 1 gone home (only the head can confirm)."""
    cache.clear()  # wrong tries are counted in the shared cache
    occasion = sale.occasion
    off_the_floor(occasion, tenant.worker)
    head = on_floor(tenant.head, occasion)
    set_pin(user=head, pin=PIN, current_password=PASSWORD)
    bookkeeper = on_floor(tenant.bookkeeper, occasion, role="bookkeeper")
    bookkeeper.org_roles.first().person.worker_list_entries.update(compensated=True)
    return head, bookkeeper


def label(user: Any) -> str:
    return user.get_full_name() or user.get_username()


def error_of(field: Any) -> Any:
    """The refusal shown under a field (aria-describedby names it)."""
    return field.page.locator("#" + field.get_attribute("aria-describedby").split()[0])


@pytest.mark.browser
@pytest.mark.motion
def test_a_void_and_a_payout_each_confirmed_by_a_second_persons_own_pin(
    live_server, page, tenant, sale, winner, second_people, tmp_path
):
    head, bookkeeper = second_people
    occasion = sale.occasion
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    log_in(page, live_server.url + reverse("door_sales", kwargs=args), tenant.member_in_charge)

    # The void: only the head is offered (the paid bookkeeper is on the floor, and barred).
    page.locator("#recent-sales").get_by_role("button", name="Void").click()
    form = page.locator("#void-form-1")
    witness = form.get_by_label(re.compile("^Witness"))
    assert witness.locator("option").all_inner_texts() == ["Witness…", label(head)]
    assert label(bookkeeper) not in witness.inner_text()
    form.get_by_label("Reason").fill(REASON)
    witness.select_option(label=label(head))
    secret = form.get_by_label("The witness types their own password or PIN")
    secret.fill("9999")
    form.get_by_role("button", name="Void receipt 1").click()

    # Refused: the form is open again as it was filled, the cursor on the PIN to retype.
    form = page.locator("#void-form-1")
    expect(form).to_be_visible()
    expect(form.get_by_label("Reason")).to_have_value(REASON)
    expect(witness).to_have_value(str(head.pk))
    expect(secret).to_have_value("")
    expect(secret).to_be_focused()
    said = error_of(secret)
    expect(said).to_have_text(
        re.compile(r"^\s*The witness has not confirmed.*961 CMR 3\.04\(4\)\(d\)\s*$")
    )
    expect(said.locator(".citation")).to_have_text("961 CMR 3.04(4)(d)")  # after, quieter
    page.screenshot(path=str(tmp_path / "void-wrong-pin.png"))
    expect(said).to_be_in_viewport()
    assert not Sale.objects.get(pk=sale.pk).is_voided

    # The head left the floor since the list was drawn: refused, the cursor on the witness.
    WorkerPresence.objects.filter(
        occasion=occasion, entry__person__legal_name=head_name(head)
    ).update(signed_out_at=timezone.now() - dt.timedelta(minutes=5))
    secret.fill(PIN)
    form.get_by_role("button", name="Void receipt 1").click()
    expect(witness).to_be_focused()
    expect(error_of(witness)).to_contain_text("not signed in on the floor")
    expect(form.get_by_label("Reason")).to_have_value(REASON)
    page.screenshot(path=str(tmp_path / "void-witness-gone.png"))
    assert not Sale.objects.get(pk=sale.pk).is_voided

    # The list drawn again no longer offers them, and says what to do.
    expect(witness.locator("option")).to_have_count(1)
    expect(form).to_contain_text("Nobody can witness the void now")

    # Signed in again and the door read again: the head types their own PIN, and it is voided.
    WorkerPresence.objects.filter(occasion=occasion).update(signed_out_at=None)
    page.reload()
    page.locator("#recent-sales").get_by_role("button", name="Void").click()
    form.get_by_label("Reason").fill(REASON)
    witness.select_option(label=label(head))
    secret.fill(PIN)
    form.get_by_role("button", name="Void receipt 1").click()
    panel = page.locator("#recent-sales")
    expect(panel).to_contain_text("Receipt 1 is voided.")
    expect(panel).to_contain_text(f"witness {label(head)}")
    page.screenshot(path=str(tmp_path / "void-done.png"))
    voided = Sale.objects.get(pk=sale.pk)
    assert voided.is_voided and voided.void_witness == head and voided.void_reason == REASON

    # The payout, on the claims page: only the head is offered; a wrong PIN keeps the form.
    game = winner.claim.game
    page.goto(live_server.url + reverse("game_claims", kwargs={**args, "game_pk": game.pk}))
    card = page.locator(f"#payout_{winner.pk}")
    verifier = card.get_by_label("Verified by")
    assert verifier.locator("option").all_inner_texts()[1:] == [payout_label(head)]
    card.get_by_label("Amount paid").fill("75.00")
    verifier.select_option(label=payout_label(head))
    pin = card.get_by_label("The verifier types their own password or PIN")
    pin.fill("9999")
    card.get_by_role("button", name="Record the payout").click()
    page.wait_for_load_state()
    card = page.locator(f"#payout_{winner.pk}")
    pin = card.get_by_label("The verifier types their own password or PIN")
    expect(pin).to_be_focused()
    expect(pin).to_have_value("")
    expect(card.get_by_label("Amount paid")).to_have_value("75.00")
    expect(card.get_by_label("Verified by")).to_have_value(str(head.pk))
    said = card.locator(".invalid-feedback")
    expect(said).to_have_text(
        re.compile(r"^\s*The verifier has not confirmed.*961 CMR 3\.04\(6\)\(e\)\s*$")
    )
    expect(said).to_be_in_viewport()
    page.screenshot(path=str(tmp_path / "payout-wrong-pin.png"))
    assert not Payout.objects.exists()

    pin.fill(PIN)
    card.get_by_role("button", name="Record the payout").click()
    page.wait_for_load_state()
    card = page.locator(f"#payout_{winner.pk}")
    expect(card).to_contain_text("Paid")
    expect(card).to_contain_text(f"verified by {label(head)}")
    page.screenshot(path=str(tmp_path / "payout-done.png"))
    payout = Payout.objects.get()
    assert payout.verified_by == head and payout.amount == Decimal("75.00")
    assert payout.paid_by == tenant.member_in_charge

    # Each refusal is in the refused actions' log, with its paragraph.
    refused = RefusedAction.objects.order_by("pk")
    assert [r.action for r in refused] == ["sale.void"] * 2 + ["game.record_payout"]
    assert [r.citations for r in refused] == ["961 CMR 3.04(4)(d)"] * 2 + ["961 CMR 3.04(6)(e)"]


def head_name(user: Any) -> str:
    return user.org_roles.exclude(person=None).first().person.legal_name


def payout_label(user: Any) -> str:
    full = user.get_full_name()
    return f"{full} ({user.get_username()})" if full else user.get_username()


@pytest.mark.browser
@pytest.mark.motion
def test_the_drawer_count_refused_comes_back_as_counted(
    live_server, page, tenant, known_occasion, tmp_path
):
    """The cash count's verifier: only who worked tonight is offered, and a wrong PIN keeps
    the pieces counted and the verifier chosen, the cursor on the PIN."""
    from banking.models import DrawerCount

    cache.clear()
    off_the_floor(known_occasion, tenant.worker, tenant.member_in_charge)
    head = on_floor(tenant.head, known_occasion)
    set_pin(user=head, pin=PIN, current_password=PASSWORD)
    url = live_server.url + reverse(
        "report_drawer", args=[known_occasion.organization_id, known_occasion.pk]
    )
    page.goto(url)
    page.get_by_label("Username").fill(tenant.bookkeeper.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    second_factor(page, tenant.bookkeeper.get_username())  # a bookkeeper files: a second factor
    page.wait_for_url(url)
    form = page.locator("#drawer-form")
    verifier = form.get_by_label("Count verified by")
    assert verifier.locator("option").all_inner_texts()[1:] == [payout_label(head)]
    form.get_by_label("$20 bills").fill("20")
    form.get_by_label("$10 bills").fill("15")
    verifier.select_option(label=payout_label(head))
    pin = form.get_by_label("The verifier types their own password or PIN")
    pin.fill("9999")
    form.get_by_role("button", name="Count the drawer").click()
    page.wait_for_load_state()
    expect(pin).to_be_focused()
    expect(pin).to_have_value("")
    expect(form.get_by_label("$20 bills")).to_have_value("20")
    expect(form.get_by_label("$10 bills")).to_have_value("15")
    expect(verifier).to_have_value(str(head.pk))
    said = form.locator(".invalid-feedback")
    expect(said).to_have_text(
        re.compile(r"^\s*The verifier has not confirmed the count.*961 CMR 3\.04\(1\)\(e\)\s*$")
    )
    expect(said).to_be_in_viewport()
    page.screenshot(path=str(tmp_path / "drawer-wrong-pin.png"))
    assert not DrawerCount.objects.exists()
    pin.fill(PIN)
    form.get_by_role("button", name="Count the drawer").click()
    expect(page.get_by_text("The drawer is counted and verified.")).to_be_visible()
    assert DrawerCount.objects.get().verified_by == head

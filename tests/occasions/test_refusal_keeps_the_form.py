"""A refused two-person act comes back as it was filled: the form open, the reason and every
other field as typed (never the password or PIN), each refusal under the field it is about with
its plain words first and its citation after, and the marker that puts the cursor there. The
hole: a refused witness closed the void box, threw the reason away and dropped the focus."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from occasions.models import Sale
from tests.conftest import PASSWORD, login, refusal_shown
from tests.fixtures.floor import on_floor

HTMX = {"HTTP_HX_REQUEST": "true"}
REASON = "rang up 3 specials instead of 1"
WRONG = "9999-not-theirs"


def void_url(occasion: Any) -> str:
    return reverse("sale_void", args=[occasion.organization_id, occasion.pk])


def the_form(page: str, form_id: str) -> str:
    found = re.search(rf'<form[^>]*id="{form_id}".*?</form>', page, re.S)
    assert found, f"no form {form_id}"
    return found.group(0)


def tag(form: str, name: str) -> str:
    """The opening tag of the field named ``name``."""
    found = re.search(rf'<(?:input|select|textarea)[^>]*name="{name}"[^>]*>', form)
    assert found, f"no field {name}"
    return found.group(0)


def invalid(form: str, name: str) -> bool:
    field = tag(form, name)
    return "is-invalid" in field and 'aria-invalid="true"' in field


@pytest.fixture
def in_charge(client: Any, tenant: Any) -> Any:
    login(client, tenant.member_in_charge)
    return client


@pytest.mark.parametrize("htmx", [True, False])
def test_a_wrong_pin_brings_the_void_back_open_with_the_reason_and_the_witness(
    in_charge, tenant, open_occasion, sale, htmx
):
    head = on_floor(tenant.head, open_occasion)
    data = {"receipt": "1", "reason": REASON, "witness": str(head.pk), "witness_secret": WRONG}
    response = in_charge.post(void_url(open_occasion), data, **(HTMX if htmx else {}))
    assert response.status_code == 200
    page = response.content.decode()
    form = the_form(page, "void-form-1")
    assert f'value="{REASON}"' in tag(form, "reason")
    assert re.search(rf'<option value="{head.pk}"[^>]* selected>', form)
    assert WRONG not in page and "value=" not in tag(form, "witness_secret")
    assert invalid(form, "witness_secret") and not invalid(form, "reason")
    assert refusal_shown(
        form, "961 CMR 3.04(4)(d): The witness has not confirmed with their own password or PIN."
    )
    assert 'data-scroll-to="void-form-1"' in page  # beano.js opens it, the cursor on the PIN
    assert not Sale.objects.get().is_voided


def test_a_void_without_its_reason_puts_the_refusal_on_the_reason(
    in_charge, tenant, open_occasion, sale
):
    head = on_floor(tenant.head, open_occasion)
    data = {"receipt": "1", "reason": "", "witness": str(head.pk), "witness_secret": PASSWORD}
    page = in_charge.post(void_url(open_occasion), data, **HTMX).content.decode()
    form = the_form(page, "void-form-1")
    assert invalid(form, "reason") and not invalid(form, "witness_secret")
    assert refusal_shown(form, "961 CMR 3.04(4)(d): Say why the sale is voided.")
    assert re.search(rf'<option value="{head.pk}"[^>]* selected>', form)


def test_a_witness_who_cannot_witness_puts_the_refusal_on_the_witness(
    in_charge, tenant, open_occasion, sale
):
    on_floor(tenant.bookkeeper, open_occasion, role="bookkeeper")
    tenant.bookkeeper.org_roles.first().person.worker_list_entries.update(compensated=True)
    data = {
        "receipt": "1",
        "reason": REASON,
        "witness": str(tenant.bookkeeper.pk),
        "witness_secret": PASSWORD,
    }
    page = in_charge.post(void_url(open_occasion), data, **HTMX).content.decode()
    form = the_form(page, "void-form-1")
    assert invalid(form, "witness") and not invalid(form, "witness_secret")
    assert re.search(
        r"they cannot witness the void\. A Director.{1,6}s written authorization can allow this\."
        r'\s*<span class="citation">961 CMR 3\.04\(1\)\(g\)</span>',
        form,
    )
    assert f'value="{REASON}"' in tag(form, "reason")


def test_a_refusal_for_a_receipt_not_in_the_list_is_shown_above_it(
    in_charge, tenant, open_occasion, sale
):
    data = {"receipt": "55", "reason": REASON, "witness": str(tenant.head.pk)}
    page = in_charge.post(void_url(open_occasion), data, **HTMX).content.decode()
    assert refusal_shown(page, "No receipt 55 at this occasion.")
    assert "data-scroll-to" not in page


def test_a_wrong_pin_brings_the_payout_back_with_the_amount_and_the_verifier(
    in_charge, tenant, winner
):
    from games.models import Payout

    game = winner.claim.game
    head = on_floor(tenant.head, game.occasion)
    url = reverse(
        "payout_record",
        kwargs={
            "org_id": game.occasion.organization_id,
            "pk": game.occasion_id,
            "game_pk": game.pk,
            "winner_pk": winner.pk,
        },
    )
    prefix = f"payout{winner.pk}-"
    data = {
        prefix + "amount": "75.00",
        prefix + "verified_by": str(head.pk),
        prefix + "verifier_secret": WRONG,
    }
    response = in_charge.post(url, data)
    assert response.status_code == 200
    page = response.content.decode()
    form = re.search(rf'<form[^>]*action="{re.escape(url)}".*?</form>', page, re.S).group(0)
    assert 'value="75.00"' in tag(form, prefix + "amount")
    assert re.search(rf'<option value="{head.pk}"[^>]* selected>', form)
    assert WRONG not in page and "value=" not in tag(form, prefix + "verifier_secret")
    assert "is-invalid" in tag(form, prefix + "verifier_secret")
    assert "is-invalid" not in tag(form, prefix + "verified_by")
    assert refusal_shown(
        form, "961 CMR 3.04(6)(e): The verifier has not confirmed with their own password or PIN."
    )
    assert f'data-scroll-to="payout_{winner.pk}"' in page  # the cursor goes to the PIN
    assert not Payout.objects.exists()


def test_a_wrong_pin_brings_the_drawer_back_with_its_pieces_and_verifier(
    client, tenant, known_occasion
):
    from banking.models import DrawerCount

    login(client, tenant.bookkeeper)
    head = on_floor(tenant.head, known_occasion)
    url = reverse("report_drawer", args=[known_occasion.organization_id, known_occasion.pk])
    data = {"n_20": "20", "n_10": "15", "verified_by": str(head.pk), "verifier_secret": WRONG}
    response = client.post(url, data)
    assert response.status_code == 400
    page = response.content.decode()
    form = the_form(page, "drawer-form")
    assert 'value="20"' in tag(form, "n_20") and 'value="15"' in tag(form, "n_10")
    assert re.search(rf'<option value="{head.pk}"[^>]* selected>', form)
    assert WRONG not in page and "is-invalid" in tag(form, "verifier_secret")
    assert refusal_shown(
        form,
        "961 CMR 3.04(1)(e): The verifier has not confirmed the count with their own password "
        "or PIN.",
    )
    assert 'data-scroll-to="drawer-form"' in page
    assert not DrawerCount.objects.exists()


def test_a_wrong_pin_brings_the_close_out_back_with_its_cash_and_verifier(
    client, tenant, known_occasion
):
    login(client, tenant.bookkeeper)
    head = on_floor(tenant.head, known_occasion)
    url = reverse("report_closeout", args=[known_occasion.organization_id, known_occasion.pk])
    data = {
        "opening_bank": "200.00",
        "cash_counted": "596.00",
        "cash_verified_by": str(head.pk),
        "cash_verifier_secret": WRONG,
        "explanation": "",
    }
    response = client.post(url, data)
    assert response.status_code == 400
    page = response.content.decode()
    form = the_form(page, "closeout-form")
    assert 'value="596.00"' in tag(form, "cash_counted")
    assert re.search(rf'<option value="{head.pk}"[^>]* selected>', form)
    assert WRONG not in page and "is-invalid" in tag(form, "cash_verifier_secret")
    assert 'data-scroll-to="closeout-form"' in page

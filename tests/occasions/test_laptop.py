"""The hall laptop handed to a worker of the night: the member in charge's session, the worker's
PIN, the worker's acts recorded as theirs with the session named beside them, and back. The
``open_occasion`` fixture has the member in charge and the worker signed in on the floor."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from beano import rules
from beano.accounts.pins import MAX_TRIES, set_pin
from beano.rules.models import RefusedAction
from occasions import laptop
from occasions.models import Sale, WorkerPresence
from organizations.models import AuditEvent
from organizations.services import assign_role
from organizations.templatetags.audit_tags import provenance_words
from tests.conftest import PASSWORD, login, make_user
from tests.fixtures.floor import on_floor

PIN = "4826"
KEY = "6f1c2a0e-8b7d-4c55-9a3e-2d4b6f8a1c90"


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()  # wrong tries are counted in the shared cache


def url(name, occasion):
    return reverse(name, args=[occasion.organization_id, occasion.pk])


@pytest.fixture
def in_charge(client, tenant):
    login(client, tenant.member_in_charge)
    return client


@pytest.fixture
def door_worker(tenant):
    """``tenant``'s worker login, with a PIN of their own."""
    set_pin(user=tenant.worker, pin=PIN, current_password=PASSWORD)
    return tenant.worker


def hand(client, occasion, to, secret=PIN):
    return client.post(url("hand_laptop", occasion), {"to": to.pk, "secret": secret})


def sell(client, occasion, key=KEY):
    admission = occasion.price_items.get(category="admission")
    data = {f"qty_{admission.pk}": "1", "request_key": key}
    return client.post(url("sale_record", occasion), data)


def test_the_member_in_charge_hands_the_laptop_and_the_seller_recorded_is_who_sold(
    in_charge, tenant, open_occasion, door_worker
):
    response = hand(in_charge, open_occasion, door_worker)
    assert response.status_code == 302 and response["Location"] == url("door_sales", open_occasion)
    assert in_charge.session[laptop.SESSION_KEY]["user"] == door_worker.pk
    door = in_charge.get(url("door_sales", open_occasion)).content.decode()
    assert "Laptop: <strong>post-one-worker</strong>" in door
    assert f"{tenant.member_in_charge.get_username()}'s session" in door
    sell(in_charge, open_occasion)
    sale = Sale.objects.get()
    assert sale.sold_by == door_worker  # the one who sold, not the session's login
    event = AuditEvent.objects.get(action="occasions.sale.recorded")
    assert event.actor == door_worker
    assert event.provenance == {"session": tenant.member_in_charge.get_username()}
    assert (
        provenance_words(event.provenance)
        == "at the hall laptop, in post-one-member_in_charge's session"
    )
    handed = AuditEvent.objects.get(action="occasions.laptop.handed")
    assert handed.actor == tenant.member_in_charge
    assert handed.old_values == {"at_the_laptop": tenant.member_in_charge.get_username()}
    assert handed.new_values["at_the_laptop"] == door_worker.get_username()


def test_back_to_the_sessions_login_with_its_own_credential(
    in_charge, tenant, open_occasion, door_worker
):
    mic = tenant.member_in_charge
    hand(in_charge, open_occasion, door_worker)
    page = in_charge.get(url("hand_laptop", open_occasion)).content.decode()
    assert "back to the session&#x27;s login" in page
    assert hand(in_charge, open_occasion, mic, secret=PASSWORD).status_code == 302
    assert laptop.SESSION_KEY not in in_charge.session
    sell(in_charge, open_occasion)
    assert Sale.objects.get().sold_by == mic
    assert AuditEvent.objects.get(action="occasions.sale.recorded").provenance == {}


def test_a_wrong_pin_is_refused_in_place_and_counted_as_a_second_persons(
    in_charge, open_occasion, door_worker
):
    response = hand(in_charge, open_occasion, door_worker, secret="0000")
    assert response.status_code == 200
    page = response.content.decode()
    assert "That is not Post One Worker Floor&#x27;s PIN or password." in page
    assert 'value="0000"' not in page  # the secret is never typed back
    assert laptop.SESSION_KEY not in in_charge.session
    assert cache.get(f"second-person:tries:{door_worker.pk}") == 1
    for _ in range(MAX_TRIES - 1):
        hand(in_charge, open_occasion, door_worker, secret="0000")
    paused = hand(in_charge, open_occasion, door_worker)  # the right PIN, while paused
    assert "paused after too many wrong tries" in paused.content.decode()
    assert laptop.SESSION_KEY not in in_charge.session
    assert not AuditEvent.objects.filter(action="occasions.laptop.handed").exists()


def test_only_a_worker_on_the_nights_floor_with_a_login_takes_the_laptop(
    in_charge, tenant, open_occasion
):
    """Offered: the logins whose person is signed in on tonight's floor; anyone else is refused
    by the rule of every act of the floor, and the refusal logged."""
    absent = make_user("post-one-absent")
    assign_role(organization=tenant.organization, by=None, user=absent, role="worker")
    page = in_charge.get(url("hand_laptop", open_occasion)).content.decode()
    assert "Post One Worker Floor (post-one-worker)" in page and "post-one-absent" not in page
    response = hand(in_charge, open_occasion, absent, secret=PASSWORD)
    assert "Choose someone signed in on the floor tonight." in response.content.decode()
    with pytest.raises(rules.RuleViolation) as refused:
        laptop.hand_laptop(
            occasion=open_occasion,
            to=absent,
            secret=PASSWORD,
            at_laptop=tenant.member_in_charge,
            by=tenant.member_in_charge,
        )
    assert refused.value.citations == ["961 CMR 3.04(1)(b)"]
    assert "taking the hall laptop" in refused.value.messages[0]
    assert RefusedAction.objects.get().action == "occasion.floor_act"


def test_a_login_that_must_use_a_second_factor_signs_in_itself(in_charge, tenant, open_occasion):
    """A PIN must not open a head's or a bookkeeper's pages without their second factor."""
    head = on_floor(tenant.head, open_occasion)
    page = in_charge.get(url("hand_laptop", open_occasion)).content.decode()
    assert "post-one-head" not in page
    with pytest.raises(Exception, match="asks for a second factor"):
        laptop.hand_laptop(
            occasion=open_occasion,
            to=head,
            secret=PASSWORD,
            at_laptop=tenant.member_in_charge,
            by=tenant.member_in_charge,
        )


def test_the_worker_at_the_laptop_acts_with_their_own_roles(in_charge, open_occasion, door_worker):
    """A worker sells but does not void: the page is the worker's, not the session's login's."""
    hand(in_charge, open_occasion, door_worker)
    sell(in_charge, open_occasion)
    void = {"receipt": "1", "reason": "rang up wrong"}
    assert in_charge.post(url("sale_void", open_occasion), void).status_code == 403
    assert not Sale.objects.get().is_voided


def test_the_laptop_comes_back_once_the_worker_signs_out(
    in_charge, tenant, open_occasion, door_worker
):
    hand(in_charge, open_occasion, door_worker)
    WorkerPresence.objects.filter(entry__person__legal_name="Post One Worker Floor").update(
        signed_out_at=open_occasion.opened_at
    )
    page = in_charge.get(url("door_sales", open_occasion), follow=True).content.decode()
    assert "no longer signed in on the floor: the laptop is back with you" in page
    assert laptop.SESSION_KEY not in in_charge.session
    sell(in_charge, open_occasion)
    assert Sale.objects.get().sold_by == tenant.member_in_charge


def test_a_workers_own_session_hands_nothing(client, tenant, open_occasion):
    login(client, tenant.worker)
    assert client.get(url("hand_laptop", open_occasion)).status_code == 403


def test_the_bar_offers_the_laptop_only_to_a_session_that_hands_it(
    client, tenant, open_occasion, door_worker
):
    """The bar's "Laptop" link opens the hand-over page: a worker's own session, which that page
    refuses (403), is not offered it; the member in charge's is, and so is the worker at the
    laptop in it (to hand it back)."""
    login(client, tenant.worker)
    door = client.get(url("door_sales", open_occasion)).content.decode()
    assert 'class="floor-laptop' not in door and url("hand_laptop", open_occasion) not in door
    client.logout()
    login(client, tenant.member_in_charge)
    door = client.get(url("door_sales", open_occasion)).content.decode()
    assert 'class="floor-laptop' in door
    hand(client, open_occasion, door_worker)
    door = client.get(url("door_sales", open_occasion)).content.decode()
    assert "Laptop: <strong>post-one-worker</strong>" in door


def test_another_organization_gets_404_and_an_inspector_403(
    client, other_tenant, inspector, tenant, open_occasion, door_worker
):
    login(client, other_tenant.member_in_charge)
    assert client.get(url("hand_laptop", open_occasion)).status_code == 404
    assert hand(client, open_occasion, door_worker).status_code == 404
    client.logout()
    login(client, inspector)
    assert client.get(url("hand_laptop", open_occasion)).status_code == 403
    assert hand(client, open_occasion, door_worker).status_code == 403
    assert not AuditEvent.objects.filter(action="occasions.laptop.handed").exists()


def test_from_one_worker_to_another_as_quickly(in_charge, tenant, open_occasion, door_worker):
    """Robin hands the laptop on to the next worker, who types their own PIN: the session stays
    the member in charge's, and the next sale is the new worker's."""
    caller = make_user("post-one-caller")
    assign_role(organization=tenant.organization, by=None, user=caller, role="worker")
    on_floor(caller, open_occasion)
    set_pin(user=caller, pin="5927", current_password=PASSWORD)
    hand(in_charge, open_occasion, door_worker)
    page = in_charge.get(url("hand_laptop", open_occasion)).content.decode()
    assert "(post-one-caller)" in page
    assert "Post One Worker Floor (post-one-worker)" not in page  # not to themselves
    assert hand(in_charge, open_occasion, caller, secret="5927").status_code == 302
    assert in_charge.session[laptop.SESSION_KEY]["user"] == caller.pk
    sell(in_charge, open_occasion)
    assert Sale.objects.get().sold_by == caller
    handed = AuditEvent.objects.filter(action="occasions.laptop.handed").order_by("sequence")
    assert [e.actor for e in handed] == [tenant.member_in_charge] * 2  # the session's login
    assert handed.last().old_values == {"at_the_laptop": door_worker.get_username()}


def test_the_door_says_who_sold_where_the_sale_is_answered(
    in_charge, tenant, open_occasion, door_worker
):
    """The receipt's answer names the worker at the laptop, the one recorded as the seller, both
    as a page (a message) and as the door's quick answer; the session's login selling itself is
    answered as before."""
    admission = open_occasion.price_items.get(category="admission")

    def sale(key, **headers):
        data = {f"qty_{admission.pk}": "1", "request_key": key}
        return in_charge.post(url("sale_record", open_occasion), data, follow=True, **headers)

    mine = sale(KEY).content.decode()
    assert "Receipt 1 recorded — $2.00: 1 × Admission." in mine and "Sold by" not in mine
    hand(in_charge, open_occasion, door_worker)
    page = sale("0b7c0f0e-1d7a-4f55-8a3e-2d4b6f8a1c91").content.decode()
    assert "Receipt 2 recorded — $2.00: 1 × Admission. Sold by post-one-worker." in page
    quick = sale("2a7c0f0e-1d7a-4f55-8a3e-2d4b6f8a1c92", HTTP_HX_REQUEST="true")
    assert "Receipt 3 recorded — $2.00: 1 × Admission. Sold by post-one-worker." in (
        quick.content.decode()
    )
    assert list(Sale.objects.values_list("sold_by__username", flat=True).order_by("number")) == [
        tenant.member_in_charge.get_username(),
        door_worker.get_username(),
        door_worker.get_username(),
    ]

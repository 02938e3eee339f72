"""Two people who each sign for themselves: a void's witness, a payout's verifier and the cash
count's verifier confirm on the hall laptop with their own password or personal PIN; they are
signed in on the floor that night, not the first person, and not a compensated bookkeeper
(961 CMR 3.04(1)(g), (4)(d)2, (6)(e), (1)(e)). A name picked from a list is not a second
person."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from beano import rules
from beano.accounts.pins import MAX_TRIES, paused_until, set_pin
from beano.rules import AuthorizationKind
from beano.rules.models import RefusedAction
from games import payout_services
from occasions import sales_services
from occasions.models import Sale, WorkerPresence
from organizations.models import DirectorAuthorization
from tests.conftest import PASSWORD, login, make_user
from tests.fixtures.floor import on_floor

PIN = "4826"


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()  # the wrong tries are counted in the shared cache


def void(sale, witness, secret, by):
    return sales_services.void_sale(
        sale=sale, reason="rang up wrong", witness=witness, witness_secret=secret, by=by
    )


def codes(error):
    return {v.code for v in error.value.violations}


def test_a_witness_confirms_with_their_own_pin(tenant, sale):
    witness = on_floor(tenant.head, sale.occasion)
    set_pin(user=witness, pin=PIN, current_password=PASSWORD)
    voided = void(sale, witness, PIN, tenant.member_in_charge)
    assert voided.void_witness == witness


@pytest.mark.parametrize("secret", ["", "0000", "not-their-password"])
def test_a_witness_who_does_not_confirm_is_refused_and_logged(tenant, sale, secret):
    witness = on_floor(tenant.head, sale.occasion)
    set_pin(user=witness, pin=PIN, current_password=PASSWORD)
    with pytest.raises(rules.RuleViolation) as refused:
        void(sale, witness, secret, tenant.member_in_charge)
    assert refused.value.citations == ["961 CMR 3.04(4)(d)"]
    assert "has not confirmed with their own password or PIN" in refused.value.messages[0]
    assert not Sale.objects.get().is_voided
    assert RefusedAction.objects.get().action == "sale.void"


def test_a_member_not_in_the_hall_that_night_is_no_witness(tenant, sale):
    """The hole: a member who was not in the hall that night was accepted as a void witness."""
    with pytest.raises(rules.RuleViolation) as refused:
        void(sale, tenant.head, PASSWORD, tenant.member_in_charge)  # confirmed, but not there
    assert "not signed in on the floor" in " ".join(refused.value.messages)
    assert not Sale.objects.get().is_voided


def test_a_witness_who_left_before_the_void_is_no_witness(tenant, sale):
    on_floor(tenant.head, sale.occasion)
    WorkerPresence.objects.filter(occasion=sale.occasion).update(
        signed_out_at=sale.occasion.opened_at + dt.timedelta(minutes=5)
    )
    with pytest.raises(rules.RuleViolation) as refused:
        void(sale, tenant.head, PASSWORD, tenant.member_in_charge)
    assert "not signed in on the floor" in " ".join(refused.value.messages)


def paid_bookkeeper(tenant, occasion):
    """The bookkeeper on the floor tonight, compensated (on the list as bookkeeper only)."""
    on_floor(tenant.bookkeeper, occasion, role="bookkeeper")
    person = tenant.bookkeeper.org_roles.first().person
    person.worker_list_entries.update(compensated=True)
    return person


def authorized_in_another_capacity(tenant, person, **changes):
    """The Director's written authorization of 3.04(1)(g) for ``person``."""
    values = {
        "organization": tenant.organization,
        "kind": AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY,
        "reference_number": "MSLC-1G-0007",
        "subject": "Bookkeeper may witness and verify",
        "person": person,
        "valid_from": dt.date(2025, 1, 1),
        "valid_to": dt.date(2030, 12, 31),
        "document": SimpleUploadedFile("letter.pdf", b"%PDF-1.4 letter", "application/pdf"),
    }
    return DirectorAuthorization.objects.create(**(values | changes))


def test_a_compensated_bookkeeper_witnesses_nothing_citing_1g(tenant, sale):
    """The hole: refused under the void's paragraph, (4)(d), with (1)(g) in its words; the
    paragraph that refuses a compensated bookkeeper as a witness is (1)(g)."""
    paid_bookkeeper(tenant, sale.occasion)
    with pytest.raises(rules.RuleViolation) as refused:
        void(sale, tenant.bookkeeper, PASSWORD, tenant.member_in_charge)
    assert codes(refused) == {"W-1G-NOT-A-SECOND-PERSON"}
    assert refused.value.citations == ["961 CMR 3.04(1)(g)"]
    assert "cannot witness the void" in refused.value.messages[0]
    assert RefusedAction.objects.get().citations == "961 CMR 3.04(1)(g)"
    assert not Sale.objects.get().is_voided


def test_the_directors_authorization_lets_a_compensated_bookkeeper_witness(tenant, sale):
    person = paid_bookkeeper(tenant, sale.occasion)
    authorized_in_another_capacity(tenant, person, valid_to=sale.occasion.date - dt.timedelta(1))
    with pytest.raises(rules.RuleViolation):  # lapsed the day before
        void(sale, tenant.bookkeeper, PASSWORD, tenant.member_in_charge)
    authorized_in_another_capacity(tenant, person, reference_number="MSLC-1G-0008")
    voided = void(sale, tenant.bookkeeper, PASSWORD, tenant.member_in_charge)
    assert voided.void_witness == tenant.bookkeeper


def test_wrong_tries_pause_a_persons_confirmations_until_a_stated_time(tenant, sale):
    witness = on_floor(tenant.head, sale.occasion)
    for _ in range(MAX_TRIES - 1):
        with pytest.raises(rules.RuleViolation) as refused:
            void(sale, witness, "wrong-guess", tenant.member_in_charge)
        assert "has not confirmed" in refused.value.messages[0]
    with pytest.raises(rules.RuleViolation) as refused:
        void(sale, witness, "wrong-guess", tenant.member_in_charge)  # the try that pauses
    ends = timezone.localtime(paused_until(witness))
    assert f"paused until {ends:%-I:%M %p}" in refused.value.messages[0]
    with pytest.raises(rules.RuleViolation) as refused:
        void(sale, witness, PASSWORD, tenant.member_in_charge)  # the right one, too late
    assert "Too many wrong passwords or PINs" in refused.value.messages[0]
    assert f"until {ends:%-I:%M %p}" in refused.value.messages[0]


# The payout's verifier


def test_a_compensated_bookkeeper_cannot_verify_a_payout(tenant, winner):
    """The hole: a compensated bookkeeper verified a payout (3.04(1)(g))."""
    occasion = winner.claim.game.occasion
    person = paid_bookkeeper(tenant, occasion)
    values = {
        "winner": winner,
        "by": tenant.member_in_charge,
        "verified_by": tenant.bookkeeper,
        "verifier_secret": PASSWORD,
    }
    with pytest.raises(rules.RuleViolation) as refused:
        payout_services.record_payout(**values)
    assert codes(refused) == {"W-1G-NOT-A-SECOND-PERSON"}
    assert refused.value.citations == ["961 CMR 3.04(1)(g)"]
    assert "cannot verify the payout" in refused.value.messages[0]
    authorized_in_another_capacity(tenant, person)
    payout = payout_services.record_payout(**values)
    assert payout.verified_by == tenant.bookkeeper


def test_a_verifier_confirms_with_their_pin_and_a_wrong_pin_is_refused(tenant, winner):
    verifier = on_floor(tenant.head, winner.claim.game.occasion)
    set_pin(user=verifier, pin=PIN, current_password=PASSWORD)
    values = {"winner": winner, "by": tenant.member_in_charge, "verified_by": verifier}
    with pytest.raises(rules.RuleViolation) as refused:
        payout_services.record_payout(**values, verifier_secret="9999")
    assert "has not confirmed" in refused.value.messages[0]
    payout = payout_services.record_payout(**values, verifier_secret=PIN)
    assert payout.verified_by == verifier and payout.amount == Decimal("75.00")


# The account page's PIN


def test_a_person_sets_their_pin_after_their_password(client, tenant):
    login(client, tenant.head)
    url = reverse("account_pin")
    bad = client.post(url, {"current_password": "nope", "pin": PIN, "pin_again": PIN})
    assert bad.status_code == 400 and "current password is not right" in bad.content.decode()
    for pin, again, message in (
        ("12", "12", "4 to 8 digits"),
        ("1111", "1111", "not all the same"),
        ("4826", "4827", "not the same"),
        ("４８２６", "４８２６", "4 to 8 digits"),  # full-width digits
    ):
        response = client.post(url, {"current_password": PASSWORD, "pin": pin, "pin_again": again})
        assert response.status_code == 400 and message in response.content.decode(), pin
    ok = client.post(url, {"current_password": PASSWORD, "pin": PIN, "pin_again": PIN})
    assert ok.status_code == 302
    page = client.get(reverse("account")).content.decode()
    assert "Personal PIN" in page and "Set" in page and PIN not in page


def test_a_stranger_is_no_second_person(tenant, sale):
    stranger = make_user("stranger")
    with pytest.raises(rules.RuleViolation) as refused:
        void(sale, stranger, PASSWORD, tenant.member_in_charge)
    assert "a person of this organization" in " ".join(refused.value.messages)

"""Equipment and the card inventory on the database: services judged by 961 CMR 3.04(4), the
refusal log, the inventory arithmetic, and the pages."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from beano.rules import AuthorizationKind, RuleViolation
from beano.rules.models import RefusedAction
from equipment import inventory_selectors, inventory_services
from equipment.models import CardUsage
from organizations import equipment_services as services
from organizations.models import AuditEvent, CardPurchase, DirectorAuthorization, Equipment
from tests.conftest import login, refusal_shown
from tests.fixtures.night import pdf_upload


def counts() -> tuple[int, int, int, int]:
    return (
        Equipment.objects.count(),
        CardPurchase.objects.count(),
        CardUsage.objects.count(),
        AuditEvent.objects.count(),
    )


def make_lease(org, **changes) -> DirectorAuthorization:
    today = timezone.localdate()
    values = {
        "organization": org,
        "kind": AuthorizationKind.EQUIPMENT_LEASE,
        "reference_number": "MSLC-BN-2026-0412",
        "subject": "Flashboard from Bay State Bingo Supply at $150.00 an occasion",
        "valid_from": today - dt.timedelta(days=30),
        "valid_to": today + dt.timedelta(days=300),
    }
    return DirectorAuthorization.objects.create(**(values | changes))


def lease_flashboard(tenant, authorization, **changes):
    values = {
        "organization": tenant.organization,
        "by": tenant.head,
        "description": "Flashboard",
        "kind": "flashboard",
        "ownership": "leased",
        "lessor": "Bay State Bingo Supply",
        "lease_authorization": authorization,
        "rental_fee": Decimal("150.00"),
    }
    return services.register_equipment(**(values | changes))


def test_it_registers_owned_equipment_with_its_proof_and_audits_it(tenant, equipment_item):
    assert equipment_item.proof_of_ownership.name.endswith(".pdf")
    event = AuditEvent.objects.filter(action="organizations.equipment.registered").get()
    assert event.new_values["ownership"] == "owned"
    assert event.new_values["proof_of_ownership"] == equipment_item.proof_of_ownership.name
    assert services.check_equipment_usable(equipment=equipment_item, on=timezone.localdate())


def test_it_refuses_owned_equipment_without_proof_and_saves_nothing(tenant):
    before = counts()
    with pytest.raises(RuleViolation) as refused:
        services.register_equipment(
            organization=tenant.organization,
            by=tenant.head,
            description="Ball set",
            kind="ball_set",
            ownership="owned",
        )
    assert refused.value.citations == ["961 CMR 3.04(4)(e)"]
    assert counts() == before
    log = RefusedAction.objects.get()
    assert (log.action, log.citations, log.username) == (
        "equipment.register",
        "961 CMR 3.04(4)(e)",
        tenant.head.username,
    )
    assert log.organization_id == tenant.organization.pk


@pytest.mark.django_db(transaction=True)
def test_the_refusal_is_logged_after_the_rollback_and_survives_it(tenant):
    authorization = make_lease(tenant.organization, revoked_on=timezone.localdate())
    with pytest.raises(RuleViolation):
        lease_flashboard(tenant, authorization)
    assert not Equipment.objects.exists()
    assert not AuditEvent.objects.filter(action__startswith="organizations.equipment").exists()
    log = RefusedAction.objects.get(action="equipment.register")
    assert log.citations == "961 CMR 3.04(4)(a)"
    assert log.violations[0]["code"] == "E-4A-LEASE-APPROVED"
    assert "MSLC-BN-2026-0412" in json.dumps(log.facts)


def test_a_lease_under_a_valid_authorization_is_usable_until_it_expires(tenant):
    authorization = make_lease(tenant.organization)
    flashboard = lease_flashboard(tenant, authorization)
    today = timezone.localdate()
    decision = services.check_equipment_usable(equipment=flashboard, on=today)
    assert decision.allowed and decision.authorization_pks == [authorization.pk]
    later = services.check_equipment_usable(
        equipment=flashboard, on=authorization.valid_to + dt.timedelta(days=1)
    )
    assert [v.citation for v in later.violations] == ["961 CMR 3.04(4)(a)"]


def test_another_kind_of_authorization_cannot_stand_for_a_lease(tenant):
    transport = make_lease(tenant.organization, kind=AuthorizationKind.TRANSPORTATION)
    with pytest.raises(ValidationError) as refused:
        lease_flashboard(tenant, transport)
    assert "lease_authorization" in refused.value.message_dict
    assert not Equipment.objects.exists()


def test_another_organizations_lease_cannot_be_borrowed(tenant, other_tenant):
    theirs = make_lease(other_tenant.organization)
    with pytest.raises(ValidationError):
        lease_flashboard(tenant, theirs)
    assert not Equipment.objects.exists()


def test_a_lease_without_a_sum_certain_is_refused(tenant):
    with pytest.raises(RuleViolation) as refused:
        lease_flashboard(tenant, make_lease(tenant.organization), rental_fee=None)
    assert [v.code for v in refused.value.violations] == ["E-4A-SUM-CERTAIN"]
    assert not Equipment.objects.exists()


def test_an_update_is_judged_and_a_refused_update_changes_nothing(tenant, equipment_item):
    updated = services.update_equipment(
        equipment=equipment_item, by=tenant.bookkeeper, in_good_repair=False
    )
    decision = services.check_equipment_usable(equipment=updated, on=timezone.localdate())
    assert [v.citation for v in decision.violations] == ["961 CMR 3.04(4)(b)"]
    event = AuditEvent.objects.filter(action="organizations.equipment.updated").get()
    assert (event.old_values, event.new_values) == (
        {"in_good_repair": True},
        {"in_good_repair": False},
    )
    before = counts()
    with pytest.raises(RuleViolation) as refused:
        services.update_equipment(
            equipment=equipment_item, by=tenant.head, pays_service_charge=True
        )
    assert refused.value.citations == ["961 CMR 3.04(4)(a)"]
    equipment_item.refresh_from_db()
    assert not equipment_item.pays_service_charge
    assert counts() == before


def test_retired_equipment_is_kept_and_cannot_be_edited(tenant, equipment_item):
    services.retire_equipment(
        equipment=equipment_item, by=tenant.head, on=dt.date(2026, 12, 1), reason="sold"
    )
    equipment_item.refresh_from_db()
    assert equipment_item.retired_on == dt.date(2026, 12, 1)
    with pytest.raises(ValidationError):
        services.update_equipment(equipment=equipment_item, by=tenant.head, description="X")
    with pytest.raises(ValidationError):
        services.retire_equipment(equipment=equipment_item, by=tenant.head, on=dt.date(2026, 12, 2))


def test_inventory_is_bought_minus_used_minus_voided(tenant, card_purchase):
    inventory_services.record_card_usage(
        purchase=card_purchase,
        by=tenant.member_in_charge,
        used_on=dt.date(2026, 10, 2),
        quantity_used=60,
        quantity_voided=2,
    )
    inventory_services.record_card_usage(
        purchase=card_purchase,
        by=tenant.member_in_charge,
        used_on=dt.date(2026, 10, 9),
        quantity_used=30,
        note="",
    )
    row = inventory_selectors.card_purchases(tenant.organization).get()
    assert (row.quantity, row.used, row.voided, row.on_hand) == (100, 90, 2, 8)
    assert inventory_services.on_hand(card_purchase) == 8
    event = AuditEvent.objects.filter(action="organizations.card_usage.recorded").last()
    assert event.new_values["on_hand_after"] == 8


def test_it_refuses_to_overdraw_a_purchase_and_saves_nothing(tenant, card_purchase):
    inventory_services.record_card_usage(
        purchase=card_purchase, by=tenant.head, used_on=dt.date(2026, 10, 2), quantity_used=95
    )
    before = counts()
    with pytest.raises(RuleViolation) as refused:
        inventory_services.record_card_usage(
            purchase=card_purchase,
            by=tenant.head,
            used_on=dt.date(2026, 10, 9),
            quantity_used=4,
            quantity_voided=2,
        )
    assert refused.value.citations == ["961 CMR 3.04(4)(e)"]
    assert "6 cards used or voided, but only 5 are on hand" in refused.value.messages[0]
    assert counts() == before
    assert RefusedAction.objects.get().action == "inventory.use"


def test_cards_cannot_be_used_before_they_were_bought(tenant, card_purchase):
    with pytest.raises(ValidationError) as refused:
        inventory_services.record_card_usage(
            purchase=card_purchase, by=tenant.head, used_on=dt.date(2026, 9, 30), quantity_used=1
        )
    assert "used_on" in refused.value.message_dict


def buy(tenant, **changes):
    values = {
        "organization": tenant.organization,
        "by": tenant.bookkeeper,
        "supplier": "Bay State Bingo Supply",
        "invoice_number": "INV-2",
        "invoice_date": dt.date(2026, 10, 15),
        "card_type": "admission",
        "series": "Blue",
        "serial_from": 101,
        "serial_to": 200,
        "quantity": 100,
        "unit_cost": Decimal("0.12"),
        "proof_reference": "Invoice binder 2026, tab 2",
    }
    return services.record_card_purchase(**(values | changes))


def test_it_refuses_serials_overlapping_another_purchase_of_the_same_series(tenant, card_purchase):
    before = counts()
    with pytest.raises(RuleViolation) as refused:
        buy(tenant, serial_from=51, serial_to=150)
    assert refused.value.citations == ["961 CMR 3.04(4)(e)"]
    assert "overlap those of invoice INV-1" in str(refused.value.messages)
    assert counts() == before
    # the same serials in another series, or of another card type, are other cards
    buy(tenant, serial_from=51, serial_to=150, series="Red")
    buy(tenant, serial_from=51, serial_to=150, card_type="bonus", invoice_number="INV-3")
    buy(tenant, serial_from=101, serial_to=200)  # right after INV-1's range
    assert CardPurchase.objects.count() == 4


def test_another_organizations_serials_do_not_overlap_ours(tenant, other_tenant, card_purchase):
    assert buy(other_tenant, serial_from=1, serial_to=100, by=other_tenant.head).pk


def test_it_refuses_a_purchase_without_proof_or_with_a_wrong_count(tenant):
    with pytest.raises(RuleViolation) as refused:
        buy(tenant, proof_reference="", quantity=99)
    assert {v.code for v in refused.value.violations} == {"I-4E-PURCHASE-PROOF", "I-4E-SERIALS"}
    assert not CardPurchase.objects.exists()


def test_inventory_totals_group_by_card_type(tenant, card_purchase):
    buy(tenant, card_type="special_game", serial_from=None, serial_to=None, quantity=40)
    inventory_services.record_card_usage(
        purchase=card_purchase, by=tenant.head, used_on=dt.date(2026, 10, 16), quantity_voided=3
    )
    groups = {
        g.card_type: g for g in inventory_selectors.inventory_by_card_type(tenant.organization)
    }
    assert (groups["admission"].bought, groups["admission"].on_hand) == (100, 97)
    assert (groups["special_game"].bought, groups["special_game"].on_hand) == (40, 40)


# Pages


def test_the_equipment_page_shows_why_equipment_is_not_usable(client, tenant, equipment_item):
    authorization = make_lease(tenant.organization)
    lease_flashboard(tenant, authorization)
    services.update_equipment(equipment=equipment_item, by=tenant.head, in_good_repair=False)
    login(client, tenant.worker)
    page = client.get(reverse("equipment_list", args=[tenant.organization.pk])).content.decode()
    assert "NOT USABLE" in page
    assert "961 CMR 3.04(4)(b): Blower is not in good repair" in page
    assert "MSLC-BN-2026-0412" in page
    assert "Register equipment" not in page  # a worker reads only


def test_a_form_refused_by_a_rule_shows_the_citation_and_saves_nothing(client, tenant, media_root):
    login(client, tenant.member_in_charge)
    before = counts()
    response = client.post(
        reverse("equipment_add", args=[tenant.organization.pk]),
        {
            "description": "Flashboard",
            "kind": "flashboard",
            "ownership": "leased",
            "rental_fee": "150.00",
            "in_good_repair": "on",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert refusal_shown(
        page, "961 CMR 3.04(4)(a): Flashboard: the lease has no approval of the Director"
    )
    assert counts() == before
    assert RefusedAction.objects.get().citations == "961 CMR 3.04(4)(a)"


def test_registering_with_an_uploaded_proof_serves_it_only_through_the_access_check(
    client, tenant, other_tenant, inspector, media_root
):
    login(client, tenant.bookkeeper)
    response = client.post(
        reverse("equipment_add", args=[tenant.organization.pk]),
        {
            "description": "Ball set",
            "kind": "ball_set",
            "ownership": "owned",
            "in_good_repair": "on",
            "proof_of_ownership": pdf_upload("receipt.pdf"),
        },
    )
    assert response.status_code == 302
    item = Equipment.objects.get()
    url = reverse("equipment_proof", args=[tenant.organization.pk, item.pk])
    proof = client.get(url)
    assert proof.status_code == 200 and proof["Content-Type"] == "application/pdf"
    assert b"".join(proof.streaming_content).startswith(b"%PDF")
    login(client, inspector)
    assert client.get(url).status_code == 200
    login(client, other_tenant.head)
    assert client.get(url).status_code == 404


def test_a_proof_of_the_wrong_type_is_refused(client, tenant, media_root):
    from django.core.files.uploadedfile import SimpleUploadedFile

    login(client, tenant.head)
    response = client.post(
        reverse("equipment_add", args=[tenant.organization.pk]),
        {
            "description": "Ball set",
            "kind": "ball_set",
            "ownership": "owned",
            "proof_of_ownership": SimpleUploadedFile("x.exe", b"MZ"),
        },
    )
    assert response.status_code == 200
    assert not Equipment.objects.exists()


@pytest.mark.parametrize(
    "fee,message",
    [
        ("150.005", "at most two decimals"),
        ("-5", "cannot be negative"),
        ("abc", "with the digits 0 to 9"),
        ("NaN", "with the digits 0 to 9"),
        ("1e20", "with the digits 0 to 9"),
        ("25000.01", "too large: an expense is at most $25,000.00"),
    ],
)
def test_money_fields_refuse_bad_amounts_with_a_message(client, tenant, fee, message):
    login(client, tenant.head)
    response = client.post(
        reverse("equipment_add", args=[tenant.organization.pk]),
        {
            "description": "Flashboard",
            "kind": "flashboard",
            "ownership": "leased",
            "rental_fee": fee,
        },
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Equipment.objects.exists()


def test_the_inventory_page_shows_the_arithmetic(client, tenant, card_purchase, inspector):
    inventory_services.record_card_usage(
        purchase=card_purchase,
        by=tenant.head,
        used_on=dt.date(2026, 10, 2),
        quantity_used=40,
        quantity_voided=5,
    )
    login(client, inspector)
    page = client.get(reverse("card_inventory", args=[tenant.organization.pk])).content.decode()
    assert (
        "100 bought − 40 used − 5 voided − 0 issued + 0 returned − 0 destroyed = "
        "<strong>55 on hand</strong>"
    ) in page
    assert reverse("card_purchase_proof", args=[tenant.organization.pk, card_purchase.pk]) in page
    assert "Record a purchase" not in page


def test_recording_a_purchase_and_usage_through_the_pages(client, tenant, media_root):
    login(client, tenant.bookkeeper)
    response = client.post(
        reverse("card_purchase_add", args=[tenant.organization.pk]),
        {
            "supplier": "Bay State Bingo Supply",
            "invoice_number": "INV-9",
            "invoice_date": "2026-10-01",
            "card_type": "bonus",
            "series": "Green",
            "serial_from": "1",
            "serial_to": "50",
            "quantity": "50",
            "unit_cost": "0.25",
            "proof": pdf_upload("inv-9.pdf"),
        },
    )
    assert response.status_code == 302
    purchase = CardPurchase.objects.get()
    url = reverse("card_usage_add", args=[tenant.organization.pk, purchase.pk])
    response = client.post(
        url, {"used_on": "2026-10-02", "quantity_used": "49", "quantity_voided": "2"}
    )
    assert response.status_code == 200
    assert "961 CMR 3.04(4)(e)" in response.content.decode()
    assert not CardUsage.objects.exists()
    response = client.post(
        url, {"used_on": "2026-10-02", "quantity_used": "48", "quantity_voided": "2"}
    )
    assert response.status_code == 302
    assert inventory_services.on_hand(purchase) == 0


@pytest.mark.parametrize(
    "data",
    [
        {},
        {
            "supplier": "S",
            "invoice_date": "soon",
            "card_type": "gold",
            "quantity": "x",
            "unit_cost": "1",
        },
        {
            "supplier": "S",
            "invoice_date": "2026-10-01",
            "card_type": "bonus",
            "quantity": "99999999999",
            "unit_cost": "1",
            "serial_from": "-1",
        },
        {
            "supplier": "S",
            "invoice_number": "I",
            "invoice_date": "2026-10-01",
            "card_type": "bonus",
            "quantity": "5",
            "unit_cost": "1",
            "serial_from": "9",
            "serial_to": "5",
            "proof_reference": "binder",
        },
    ],
)
def test_bad_purchase_input_gets_a_message_and_saves_nothing(client, tenant, data):
    login(client, tenant.head)
    before = counts()
    response = client.post(reverse("card_purchase_add", args=[tenant.organization.pk]), data)
    assert response.status_code == 200
    assert b"invalid-feedback" in response.content or b"alert-danger" in response.content
    assert counts() == before


def test_the_seeded_demo_has_owned_and_leased_equipment_usable_today(db):
    from tests.demo_snapshot import seed_demo  # seeded once per process, then its copy

    seed_demo()
    today = timezone.localdate()
    flashboard = Equipment.objects.get(
        organization__name="American Legion Post 171", kind="flashboard"
    )
    assert flashboard.lease_authorization.reference_number == "MSLC-BN-2026-0412"
    for item in Equipment.objects.all():
        assert services.check_equipment_usable(equipment=item, on=today).allowed, item
    assert all(p.on_hand >= 0 for p in inventory_selectors.card_purchases(flashboard.organization))
    assert CardUsage.objects.exists()

"""The police detail (961 CMR 3.04(3)(e)) at the prevailing rate the Commission keeps, never a
listed worker; and the demo's extras recorded once."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from beano import rules
from beano.demo.extras import seed_extras
from occasions import extras_services
from occasions.models import (
    CharityTicketSale,
    DoorPrize,
    OtherSale,
    PoliceDetail,
    PrevailingPoliceRate,
    Raffle,
)
from organizations.models import AuditEvent
from tests.conftest import login
from tests.occasions.test_extras import refused_with

# Police detail: 3.04(3)(e)


@pytest.fixture
def fairhaven_rate(db):
    return PrevailingPoliceRate.objects.create(
        town="Fairhaven",
        hourly_rate=Decimal("58.00"),
        effective_from=dt.date(2026, 1, 1),
        source="Fairhaven Police Department",
    )


def police(occasion, by, rate: str = "58.00", name: str = "Officer Dana Medeiros"):
    return extras_services.record_police_detail(
        occasion=occasion,
        officer_name=name,
        department_town="Fairhaven",
        hours=Decimal("5.5"),
        hourly_rate=Decimal(rate),
        by=by,
    )


def test_a_police_detail_at_the_prevailing_rate_is_recorded(tenant, open_occasion, fairhaven_rate):
    detail = police(open_occasion, tenant.member_in_charge)
    assert detail.amount == Decimal("319.00")
    assert detail.prevailing_rate == fairhaven_rate


def test_a_police_detail_over_the_rate_or_without_one_is_refused(
    tenant, open_occasion, fairhaven_rate
):
    with pytest.raises(rules.RuleViolation) as refused:
        police(open_occasion, tenant.member_in_charge, "58.01")
    assert refused.value.citations == ["961 CMR 3.04(3)(e)"]
    refused_with("961 CMR 3.04(3)(e)")
    PrevailingPoliceRate.objects.filter(pk=fairhaven_rate.pk).update(
        effective_from=dt.date(2027, 1, 1)
    )
    with pytest.raises(rules.RuleViolation):
        police(open_occasion, tenant.member_in_charge)
    assert not PoliceDetail.objects.exists()


def test_a_worker_on_the_list_cannot_be_the_police_detail(
    tenant, open_occasion, fairhaven_rate, member
):
    from organizations.worker_services import add_to_worker_list

    add_to_worker_list(
        organization=tenant.organization,
        year=open_occasion.date.year,
        person=member.person,
        roles=["floor_worker"],
        identification="B-7",
        compensated=False,
        compensation_note="",
        good_moral_character_attested=False,
        attested_by="",
        on=open_occasion.date - dt.timedelta(days=1),
        by=tenant.head,
    )
    with pytest.raises(rules.RuleViolation) as refused:
        police(open_occasion, tenant.member_in_charge, name="  joseph  rebello ")
    assert [v.code for v in refused.value.violations] == ["F-3E-NO-OTHER-CAPACITY"]


# Demo data


def test_the_demo_extras_are_recorded_once(tenant, open_occasion):
    seed_extras(open_occasion)
    seed_extras(open_occasion)
    assert DoorPrize.objects.count() == 2
    assert Raffle.objects.get().prize_kind == "merchandise"
    assert CharityTicketSale.objects.count() == 2
    assert OtherSale.objects.filter(kind="food").count() == 2
    assert PoliceDetail.objects.get().hourly_rate == Decimal("58.00")
    assert set(PrevailingPoliceRate.objects.values_list("town", flat=True)) == {
        "Fairhaven",
        "Fall River",
    }


def test_a_commission_admin_keeps_the_prevailing_police_rates_audited(client, commission_admin):
    login(client, commission_admin)
    response = client.post(
        reverse("admin:occasions_prevailingpolicerate_add"),
        {
            "town": "New Bedford",
            "hourly_rate": "61.50",
            "effective_from": "2026-07-01",
            "source": "New Bedford Police Department",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert PrevailingPoliceRate.objects.get().hourly_rate == Decimal("61.50")
    event = AuditEvent.objects.get(action="admin.prevailingpolicerate.added")
    assert event.organization is None and event.actor == commission_admin
    for name in ("rafflepermit", "policedetail", "charityticketserialassignment"):
        assert client.get(reverse(f"admin:occasions_{name}_changelist")).status_code == 200

"""The pieces of the backup checked in this process: ``check_audit_chains`` fails on a break, an
organization pointing at another's rows is not exported alone, and records are compared with
their trail value by value."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import models

from beano.backup import trail


def test_check_audit_chains_exits_non_zero_on_a_break(tenant, other_tenant):
    from organizations.models import AuditEvent

    out = io.StringIO()
    call_command("check_audit_chains", stdout=out)
    assert "All 2 audit chains are intact;" in out.getvalue()
    event = AuditEvent.objects.filter(organization=other_tenant.organization).order_by("sequence")[
        1
    ]
    AuditEvent.objects.filter(pk=event.pk).update(action="organizations.role.removed")
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 2 audit chains have them"):
        call_command("check_audit_chains", stdout=out)
    assert f"Parish Two (#{other_tenant.organization.pk}): Broken at event 2" in out.getvalue()
    call_command("check_audit_chains", "--organization", str(tenant.organization.pk), stdout=out)


def test_an_organization_pointing_at_anothers_rows_is_not_exported_alone(
    tenant, other_tenant, tmp_path
):
    from organizations.models import Membership, Person

    person = Person.objects.create(legal_name="Ann Rose", date_of_birth=dt.date(1960, 1, 1))
    member = Membership.objects.create(
        organization=other_tenant.organization,
        person=person,
        kind="member",
        since=dt.date(2020, 1, 1),
    )
    family = Person.objects.create(legal_name="Bo Rose", date_of_birth=dt.date(1990, 1, 1))
    Membership.objects.create(
        organization=tenant.organization,
        person=family,
        kind="family",
        family_of=member,
        since=dt.date(2020, 1, 1),
    )
    with pytest.raises(CommandError, match=r"organizations.membership #\d+ → family_of"):
        call_command(
            "export_organization",
            str(tenant.organization.pk),
            "--output",
            str(tmp_path / "x.tar.gz"),
            stdout=io.StringIO(),
        )
    assert not (tmp_path / "x.tar.gz").exists()


@pytest.mark.parametrize(
    ("field", "recorded", "current", "agrees"),
    [
        (models.DecimalField(), "5.5", Decimal("5.50"), True),
        (models.DecimalField(), "38.00", Decimal("380.00"), False),
        # Events keep times to the millisecond (Django's JSON encoder).
        (
            models.DateTimeField(),
            "2026-11-27T21:50:20.123-05:00",
            dt.datetime(2026, 11, 28, 2, 50, 20, 123456, tzinfo=dt.UTC),
            True,
        ),
        (
            models.DateTimeField(),
            "2026-11-27T21:50:21-05:00",
            dt.datetime(2026, 11, 28, 2, 50, 20, tzinfo=dt.UTC),
            False,
        ),
        (models.CharField(), None, "", True),
        (models.CharField(), "•••", "secret", None),
        (models.JSONField(), 49, [1, 2, 3], None),
        (models.JSONField(), [1, 2], [1, 2, 3], False),
        (models.BooleanField(), True, True, True),
    ],
)
def test_records_are_compared_with_their_trail_value_by_value(field, recorded, current, agrees):
    assert trail.agrees(field, recorded, current) is agrees

"""A win at or over the W-2G threshold in force: the winner's details are required, backup
withholding stands for a missing TIN, and the TIN is encrypted at rest, never audited, never on
the raw row but for its last four digits."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from beano.rules.claims import W2G_CITATION
from games import payout_services
from games.models import (
    Payout,
)
from games.payout_services import W2GDetails
from games.sealed import unseal
from organizations.models import AuditEvent
from tests.conftest import PASSWORD
from tests.games.claims_helpers import (
    DETAILS,
    TIN,
    _verifier_on_the_floor,  # noqa: F401  (autouse)
)


def test_a_win_at_the_threshold_needs_the_w2g_details(big_win, tenant):
    with pytest.raises(ValidationError) as missing:
        payout_services.record_payout(
            winner=big_win,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
        )
    assert W2G_CITATION in str(missing.value)
    no_tin = W2GDetails(**{**DETAILS.__dict__, "tin": ""})
    with pytest.raises(ValidationError) as refused:
        payout_services.record_payout(
            winner=big_win,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
            w2g=no_tin,
        )
    assert "tin" in refused.value.error_dict
    assert not Payout.objects.exists()


def test_backup_withholding_stands_for_a_missing_tin(big_win, tenant):
    details = W2GDetails(**{**DETAILS.__dict__, "tin": "", "backup_withholding": True})
    payout = payout_services.record_payout(
        winner=big_win,
        by=tenant.member_in_charge,
        verified_by=tenant.head,
        verifier_secret=PASSWORD,
        w2g=details,
    )
    assert payout.backup_withholding and payout.tin_sealed == "" and payout.masked_tin == ""


def test_the_tin_is_encrypted_at_rest_and_never_audited(big_win, tenant):
    payout = payout_services.record_payout(
        winner=big_win,
        by=tenant.member_in_charge,
        verified_by=tenant.head,
        verifier_secret=PASSWORD,
        w2g=DETAILS,
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Payout._meta.db_table} WHERE id = %s", [payout.pk])
        raw = " ".join(str(v) for v in cursor.fetchone())
    for secret in ("123456789", TIN, "12345", "S98765432", "P1122334"):
        assert secret not in raw
    assert payout.masked_tin == "••••6789"
    assert unseal(Payout.objects.get().tin_sealed) == "123456789"
    events = " ".join(str(e.new_values) + str(e.old_values) for e in AuditEvent.objects.all())
    assert "6789" not in events and "S98765432" not in events
    assert "Mary A. Costa" in events


def test_the_raw_row_holds_no_run_of_the_tins_digits_but_the_last_four(big_win, tenant):
    """Read as the database stores it, column by column: no five consecutive digits of the TIN
    anywhere (nor of an ID number), and its last four only in tin_last4, for the masked display."""
    payout = payout_services.record_payout(
        winner=big_win,
        by=tenant.member_in_charge,
        verified_by=tenant.head,
        verifier_secret=PASSWORD,
        w2g=DETAILS,
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Payout._meta.db_table} WHERE id = %s", [payout.pk])
        names = [column[0] for column in cursor.description]
        row = dict(zip(names, (str(v) for v in cursor.fetchone()), strict=True))
    digits = TIN.replace("-", "")
    runs = {digits[i : i + 5] for i in range(len(digits) - 4)}
    runs |= {"98765", "87654", "76543", "65432", "11223", "12233", "22334"}
    for column, value in row.items():
        assert not any(run in value.replace("-", "") for run in runs), column
    assert [c for c, v in row.items() if "6789" in v] == ["tin_last4"]

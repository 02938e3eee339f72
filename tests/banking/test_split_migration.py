"""The drawer and the gaming bank account left reports for banking (issue 41, item 5) keeping
every row: from the database as the last release left it (reports up to ``0008_kept_extras``,
no banking), rows written with that release's models are read through banking's after the
migrations, on the same tables; and the audit events written before the split still vouch for
those rows (their ``target_type`` names reports, and the chain never changes an event)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from banking.models import BankEntry, BankReconciliation, Deposit, DrawerCount, GamingAccount
from organizations.audit import moved_labels, target_types

#: The last release's nodes: reports before the split, and no banking.
BEFORE = [("reports", "0008_kept_extras"), ("banking", None)]
MOVED = {
    "reports.drawercount": "banking.drawercount",
    "reports.gamingaccount": "banking.gamingaccount",
    "reports.deposit": "banking.deposit",
    "reports.bankentry": "banking.bankentry",
    "reports.bankreconciliation": "banking.bankreconciliation",
}


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    """Migrate to ``targets``; the apps of the state the applied migrations make."""
    MigrationExecutor(connection).migrate(targets)
    executor = MigrationExecutor(connection)  # the graph and what is applied, read again
    return executor._create_project_state(with_applied_migrations=True).apps


def _write_as_the_last_release(old: Any, occasion: Any, user: Any) -> dict[str, int]:
    """One row of each moved model, written with the last release's (reports') models."""
    now = timezone.now()
    closeout = old.get_model("reports", "CloseOut").objects.create(
        occasion_id=occasion.pk, opening_bank=Decimal("200.00"), cash_counted=Decimal("596.00")
    )
    drawer = old.get_model("reports", "DrawerCount").objects.create(
        closeout=closeout,
        pieces={"100": 5, "20": 4, "10": 1, "5": 1, "1": 1},
        total=Decimal("596.00"),
        counted_by_id=user.pk,
        verified_by_id=user.pk,
        counted_at=now,
    )
    account = old.get_model("reports", "GamingAccount").objects.create(
        organization_id=occasion.organization_id,
        bank_name="Fairhaven Savings",
        account_last4="4412",
        opened_on=dt.date(2026, 11, 1),
        opening_balance=Decimal("1000.00"),
        recorded_by_id=user.pk,
        recorded_at=now,
    )
    deposit = old.get_model("reports", "Deposit").objects.create(
        account=account,
        occasion_id=occasion.pk,
        amount=Decimal("396.00"),
        deposited_on=dt.date(2026, 12, 7),
        due_on=dt.date(2026, 12, 7),
        slip_reference="SLIP-1",
        recorded_at=now,
    )
    entry = old.get_model("reports", "BankEntry").objects.create(
        account=account,
        kind="expense",
        paid_on=dt.date(2026, 12, 8),
        payee="Hall rent",
        amount=Decimal("150.00"),
        reference="1001",
        occasion_id=occasion.pk,
        recorded_at=now,
    )
    month = old.get_model("reports", "BankReconciliation").objects.create(
        account=account,
        month=dt.date(2026, 11, 1),
        statement_balance=Decimal("1000.00"),
        book_balance=Decimal("1000.00"),
        difference=Decimal("0.00"),
        completed_at=now,
    )
    return {
        "drawer": drawer.pk,
        "account": account.pk,
        "deposit": deposit.pk,
        "entry": entry.pk,
        "month": month.pk,
        "closeout": closeout.pk,
    }


@pytest.mark.django_db(transaction=True)
def test_the_last_releases_rows_are_read_through_banking_after_the_split(tenant, occasion):
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(BEFORE)
    with pytest.raises(LookupError):
        old.get_model("banking", "Deposit")
    pks = _write_as_the_last_release(old, occasion, tenant.bookkeeper)
    _migrate(latest)

    drawer = DrawerCount.objects.select_related("closeout").get(pk=pks["drawer"])
    assert drawer.closeout.pk == pks["closeout"] and drawer.closeout.occasion == occasion
    assert drawer.total == Decimal("596.00") and drawer.pieces["100"] == 5
    assert drawer.verified_by == tenant.bookkeeper
    account = GamingAccount.objects.get(pk=pks["account"])
    assert account.organization == tenant.organization and account.account_last4 == "4412"
    assert tenant.organization.gaming_account == account
    deposit = Deposit.objects.get(pk=pks["deposit"])
    assert (deposit.account, deposit.occasion, deposit.amount) == (
        account,
        occasion,
        Decimal("396.00"),
    )
    assert occasion.deposit == deposit
    entry = BankEntry.objects.get(pk=pks["entry"])
    assert (entry.account, entry.payee, entry.reference) == (account, "Hall rent", "1001")
    assert BankReconciliation.objects.get(pk=pks["month"]).account == account
    # The same tables, and a row written now lands beside the old ones.
    assert {m._meta.db_table for m in (DrawerCount, GamingAccount, Deposit, BankEntry)} == {
        "reports_drawercount",
        "reports_gamingaccount",
        "reports_deposit",
        "reports_bankentry",
    }
    BankEntry.objects.create(
        account=account,
        kind="bank_charge",
        paid_on=dt.date(2026, 12, 9),
        payee="Fairhaven Savings",
        amount=Decimal("5.00"),
        reference="FEE-12",
        recorded_at=timezone.now(),
    )
    assert account.entries.count() == 2


def test_events_written_before_the_split_name_the_models_as_they_were():
    assert {old: new for old, new in moved_labels().items() if new in MOVED.values()} == MOVED
    assert target_types("banking.deposit") == ("banking.deposit", "reports.deposit")
    assert target_types("reports.deposit") == ("banking.deposit", "reports.deposit")
    assert target_types("reports.closeout") == ("reports.closeout",)

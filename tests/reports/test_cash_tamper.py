"""The money trail covers the drawer and the gaming account: a deposit's amount, a drawer's
pieces or a reconciliation's statement balance changed in its table, or a check inserted with no
audit event, is found by ``check_audit_chains``."""

from __future__ import annotations

from decimal import Decimal

import pytest

from banking.models import BankEntry, BankReconciliation, Deposit, DrawerCount
from organizations.models import AuditEvent, Organization
from tests.organizations.test_tamper_evidence import POST, check
from tests.reports.conftest import at


@pytest.fixture
def post(seeded_demo, db) -> Organization:
    return Organization.objects.get(name=POST)


def test_the_untouched_demo_checks_with_its_bank(post):
    ok, output = check()
    assert ok, output


def test_a_deposits_amount_changed_is_found(post):
    deposit = Deposit.objects.get(account__organization=post)
    event = AuditEvent.objects.get(target_type="banking.deposit", target_id=str(deposit.pk))
    Deposit.objects.filter(pk=deposit.pk).update(amount=deposit.amount - 100)
    ok, output = check()
    assert not ok
    assert (
        f"banking.deposit #{deposit.pk}: amount is '{deposit.amount - 100}', but audit event "
        f"{event.sequence} recorded '{deposit.amount}'"
    ) in output


def test_a_drawers_pieces_and_a_reconciliations_balance_changed_are_found(post):
    drawer = DrawerCount.objects.get()
    DrawerCount.objects.filter(pk=drawer.pk).update(pieces=drawer.pieces | {"100": 1})
    month = BankReconciliation.objects.filter(account__organization=post).first()
    BankReconciliation.objects.filter(pk=month.pk).update(
        statement_balance=month.statement_balance + Decimal("50")
    )
    ok, output = check()
    assert not ok
    assert f"banking.drawercount #{drawer.pk}: pieces is" in output
    assert f"banking.bankreconciliation #{month.pk}: statement_balance is" in output


def test_a_check_with_no_event_is_found(post):
    account = post.gaming_account
    check_out = BankEntry.objects.create(
        account=account,
        kind="bank_charge",
        paid_on=account.opened_on,
        payee="Nobody",
        amount=Decimal("500.00"),
        reference="X-1",
        recorded_at=at(10),
    )
    ok, output = check()
    assert not ok
    assert f"banking.bankentry #{check_out.pk}" in output and "no audit event" in output


def test_events_from_before_the_split_still_vouch_for_the_rows(post):
    """An installation upgraded from the last release holds events naming the drawer's and
    the account's rows ``reports.<model>`` (the chain never changes an event): the trail reads
    them as banking's, finds nothing wrong, and still finds a change."""
    from django.db.models import Value
    from django.db.models.functions import Replace

    from beano.backup import trail

    renamed = AuditEvent.objects.filter(organization=post, target_type__startswith="banking.")
    assert renamed.update(target_type=Replace("target_type", Value("banking."), Value("reports.")))
    assert trail.differences(post) == []
    deposit = Deposit.objects.get(account__organization=post)
    Deposit.objects.filter(pk=deposit.pk).update(amount=deposit.amount - 100)
    assert [(d.target_type, d.field) for d in trail.differences(post)] == [
        ("banking.deposit", "amount")
    ]

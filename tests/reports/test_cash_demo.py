"""What the demo shows of the cash: Post 171's last night's drawer counted by denomination (by
the bookkeeper, verified by the member in charge), a gaming account with a deposit and checks
out, months reconciled and the last ended one not, and the exceptions report listing it."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from banking.bank_selectors import last_ended_month
from banking.models import BankEntry, BankReconciliation, Deposit, DrawerCount, GamingAccount
from tests.conftest import login


def test_the_demo_counts_a_drawer_deposits_and_reconciles(seeded_demo, db):
    drawer = DrawerCount.objects.select_related("closeout", "counted_by", "verified_by").get()
    assert drawer.total == drawer.closeout.cash_counted
    assert (drawer.counted_by.username, drawer.verified_by.username) == (
        "post171-books",
        "post171-mic",
    )
    account = GamingAccount.objects.get(organization__name="American Legion Post 171")
    deposit = Deposit.objects.get(account=account, occasion=drawer.closeout.occasion)
    assert deposit.amount == drawer.total - drawer.closeout.opening_bank
    assert deposit.days_late == 0
    assert BankEntry.objects.filter(account=account, kind="expense").exists()
    reconciled = set(
        BankReconciliation.objects.filter(account=account).values_list("month", flat=True)
    )
    last = last_ended_month(timezone.localdate())
    assert reconciled and last not in reconciled
    assert all(m < last for m in reconciled)


def test_the_demo_pages_show_it(seeded_demo, db, client):
    from django.contrib.auth import get_user_model

    account = GamingAccount.objects.get()
    login(client, get_user_model().objects.get(username="post171-books"))
    page = client.get(reverse("bank_account", args=[account.organization_id])).content.decode()
    assert "Fairhaven Co-operative Bank …7301" in page
    assert (
        f'{last_ended_month(timezone.localdate()):%B %Y}</td><td colspan="6">Not reconciled' in page
    )
    inspector = get_user_model().objects.get(username="inspector")
    login(client, inspector)
    page = client.get(reverse("inspect_exceptions"), {"date_from": "", "date_to": ""})
    text = page.content.decode()
    assert f"{last_ended_month(timezone.localdate()):%B %Y} not reconciled" in text
    assert "American Legion Post 171" in text


def test_the_demo_drawer_is_on_its_report(seeded_demo, db):
    from reports.models import FinancialReport

    report = FinancialReport.objects.filter(occasion__closeout__drawer__isnull=False).latest(
        "version"
    )
    assert report.figures["drawer"]["total"] == report.figures["cash"]["counted"]
    assert report.figures["drawer"]["verified_by"]

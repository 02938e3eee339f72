"""The audit trail page gives the chain check's verdict: a payout's amount changed in the
database behind the application's back (its hashes untouched) is a difference on both pages,
never "Intact" on one of them."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from games.models import Payout
from tests.conftest import login
from tests.games.test_form5754 import big_win, pay  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def _pages(client, org_id: int) -> tuple[str, str]:
    trail = client.get(reverse("audit_log", args=[org_id])).content.decode()
    check = client.get(reverse("chain_check", args=[org_id])).content.decode()
    return trail, check


def test_both_pages_say_intact_while_the_records_are_as_recorded(
    client,
    tenant,
    big_win,  # noqa: F811
):
    pay(big_win, tenant, [])
    login(client, tenant.bookkeeper)
    trail, check = _pages(client, tenant.organization.pk)
    assert "<strong>Chain check:</strong> Intact through event" in trail
    assert "<strong>Intact</strong>" in check


def test_a_payout_changed_in_the_database_is_not_intact_on_the_audit_trail_page(
    client,
    tenant,
    inspector,
    big_win,  # noqa: F811
):
    payout = pay(big_win, tenant, [])
    Payout.objects.filter(pk=payout.pk).update(amount=payout.amount + Decimal("100.00"))
    for user in (tenant.bookkeeper, inspector):
        login(client, user)
        trail, check = _pages(client, tenant.organization.pk)
        verdict = trail.split('id="chain-verdict">', 1)[1].split("</span>", 1)[0]
        assert "Intact" not in verdict
        assert "Not intact" in verdict
        assert f"games.payout #{payout.pk}: amount" in trail
        assert f"games.payout #{payout.pk}: amount" in check
        assert "list-group-item-danger" in check

"""The year-end W-2G register (CSV and the Form 1096 totals): one line per Form W-2G, a group's
Form 5754 making one per person; TINs shown by their last four digits only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Payout
from reports.w2g_register import register
from tests.conftest import login
from tests.games.test_form5754 import GROUP, big_win, pay  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def test_the_register_lists_each_w2g_and_the_1096_totals(client, tenant, big_win):  # noqa: F811
    pay(big_win, tenant, GROUP)
    r = register(tenant.organization, 2026)
    assert [(line.payee, line.amount, line.tin, line.shared_from) for line in r.lines] == [
        ("Mary A. Costa", GROUP[0].share, "••••6789", "Mary A. Costa"),
        ("John Costa", GROUP[1].share, "••••4321", "Mary A. Costa"),
    ]
    assert (r.forms, str(r.total)) == (2, "75.00")
    assert register(tenant.organization, 2025).lines == []

    login(client, tenant.bookkeeper)
    page = client.get(reverse("w2g_register", args=[tenant.organization.pk, 2026]))
    assert page.status_code == 200 and "Form 1096" in page.content.decode()
    csv = client.get(reverse("w2g_register_csv", args=[tenant.organization.pk, 2026]))
    text = b"".join(csv.streaming_content if csv.streaming else [csv.content]).decode()
    assert "John Costa" in text and "••••4321" in text and "Form 1096" in text
    assert "987654321" not in text and "123456789" not in text


def test_a_single_winners_w2g_is_one_line(tenant, big_win):  # noqa: F811
    payout = pay(big_win, tenant, [])
    (line,) = register(tenant.organization, 2026).lines
    assert (line.payee, line.amount, line.tin) == ("Mary A. Costa", payout.amount, "••••6789")


def test_another_organization_gets_404_and_an_inspector_reads(
    client,
    tenant,
    other_tenant,
    inspector,
    big_win,  # noqa: F811
):
    pay(big_win, tenant, GROUP)
    login(client, other_tenant.head)
    for name in ("w2g_register", "w2g_register_csv"):
        assert client.get(reverse(name, args=[tenant.organization.pk, 2026])).status_code == 404
    login(client, inspector)
    url = reverse("w2g_register", args=[tenant.organization.pk, 2026])
    assert client.get(url).status_code == 200
    assert client.post(url, {}).status_code == 403
    assert client.get(reverse("w2g_register", args=[tenant.organization.pk, 1999])).status_code == (
        404
    )
    assert Payout.objects.count() == 1

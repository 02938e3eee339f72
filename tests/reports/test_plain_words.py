"""Plain words on the bookkeeper's pages (issue 40, item 9): what a volunteer bookkeeper reads
is words; the chain's hashes and the counting formulas are there for an auditor, behind a
"details" disclosure, and a card stock typed with its type's name is not said twice."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from organizations.models import CardPurchase
from tests.conftest import login

pytestmark = pytest.mark.django_db

#: Jargon a bookkeeper should only meet when she asks for the details.
JARGON = (
    "Audit chain at filing",
    "SHA-256",
    "issued − returned − voided",
    "bought − used − voided",
)


def _outside_details(page: str) -> str:
    return re.sub(r"<details\b.*?</details>", "", page, flags=re.S)


def test_the_filed_reports_page_keeps_the_hashes_behind_details(client, tenant, filed_report):
    login(client, tenant.bookkeeper)
    args = [tenant.organization.pk, filed_report.occasion_id]
    page = client.get(reverse("report_versions", args=args)).content.decode()
    assert "Audit chain at filing" in page and "Sealed when filed" in page
    assert not [j for j in JARGON if j in _outside_details(page)]


def test_the_close_out_and_serials_pages_keep_the_formulas_behind_details(
    client, tenant, filed_report
):
    login(client, tenant.bookkeeper)
    args = [tenant.organization.pk, filed_report.occasion_id]
    for name in ("report_closeout", "occasion_serials"):
        page = client.get(reverse(name, args=args)).content.decode()
        assert "How it is counted" in page, name
        assert not [j for j in JARGON if j in _outside_details(page)], name


def test_the_bookkeepers_landing_and_overview_put_no_citation_on_a_heading(client, tenant):
    login(client, tenant.bookkeeper)
    dashboard = client.get(reverse("dashboard")).content.decode()
    overview = client.get(reverse("organization_home", args=[tenant.organization.pk]))
    assert "Financial reports coming due" in dashboard
    assert "Financial reports owed" in overview.content.decode()
    page = dashboard + overview.content.decode()
    headings = re.findall(r"<h[1-6][^>]*>.*?</h[1-6]>", page, flags=re.S)
    assert not [h for h in headings if "961 CMR" in h]


@pytest.mark.parametrize(
    ("series", "said"),
    [
        ("Admission Orange", "Admission Orange"),
        ("admission  orange", "admission orange"),
        ("Orange", "Admission Orange"),
        ("", "Admission"),
    ],
)
def test_a_card_stock_says_its_type_once(series, said):
    assert CardPurchase(card_type="admission", series=series).kind == said

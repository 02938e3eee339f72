"""A hall that never records its stock is flagged: a closed occasion whose door sold paper while
none was issued to it from stock by serial (no issue, no count back: nothing to reconcile) is an
exception on the inspector's report, filterable as the others, and a warning on the hall's own
paper and close-out pages."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from equipment.models import PaperIssue
from inspections.exceptions import SOURCES, ExceptionQuery, exceptions
from occasions.models import Occasion
from organizations.models import Organization
from tests.conftest import login
from tests.reports.conftest import at

URL = reverse("inspect_exceptions")
SUBJECT = "Paper sold at the door but none issued from stock by serial"

pytestmark = pytest.mark.django_db


def rows(tenant, **query):
    return exceptions(
        ExceptionQuery(
            organizations=Organization.objects.filter(pk=tenant.organization.pk),
            date_from=query.get("date_from"),
            date_to=query.get("date_to"),
            threshold=D("5.00"),
            today=dt.date(2027, 1, 15),
        ),
        ["paper_unissued"],
    )


def serials_url(occasion):
    return reverse("occasion_serials", args=[occasion.organization_id, occasion.pk])


def test_a_closed_night_that_sold_paper_with_none_issued_is_an_exception(known_occasion, tenant):
    (row,) = rows(tenant)
    assert (row.kind, row.day, row.subject) == ("paper_unissued", known_occasion.date, SUBJECT)
    # The voided sale of 5 admissions is left out; packages and charity tickets are not paper.
    assert row.detail.startswith("280 cards sold (Admissions 100, Bonus cards 40, ")
    assert "nothing to reconcile" in row.detail
    assert row.url == serials_url(known_occasion)
    assert SOURCES["paper_unissued"][0] == "Paper sold but not issued by serial"
    with CaptureQueriesContext(connection) as queries:
        rows(tenant)
    assert len(queries) == 2
    assert rows(tenant, date_to=dt.date(2026, 12, 3)) == []
    assert len(rows(tenant, date_from=dt.date(2026, 12, 4), date_to=dt.date(2026, 12, 4))) == 1


def test_a_night_with_paper_issued_by_serial_is_not_this_exception(known_occasion, tenant):
    from tests.reports.test_paper import buy

    PaperIssue.objects.create(
        purchase=buy(tenant, "bonus", 70_000),
        occasion=known_occasion,
        serial_from=70_000,
        serial_to=70_039,
        issued_at=at(16, 30),
        issued_by=tenant.member_in_charge,
        returned=0,
        returned_at=at(22, 45),
        returned_by=tenant.member_in_charge,
    )
    assert rows(tenant) == []


def test_a_night_still_open_or_that_sold_no_paper_is_not_flagged(known_occasion, tenant):
    Occasion.objects.filter(pk=known_occasion.pk).update(status=Occasion.Status.OPEN)
    assert rows(tenant) == []
    Occasion.objects.filter(pk=known_occasion.pk).update(status=Occasion.Status.CLOSED)
    known_occasion.sales.filter(voided_at__isnull=True).update(
        voided_at=at(22), voided_by=tenant.head, void_witness=tenant.worker, void_reason="Test"
    )
    assert rows(tenant) == []


def test_the_inspector_sees_filters_and_downloads_it_read_only(client, known_occasion, inspector):
    login(client, inspector)
    page = client.get(URL).content.decode()
    assert SUBJECT in page and "Paper sold but not issued by serial" in page
    assert serials_url(known_occasion) in page
    only = client.get(URL, {"kind": "paper_unissued"}).content.decode()
    assert SUBJECT in only and "1 exception<" in only
    assert SUBJECT not in client.get(URL, {"kind": "deposits"}).content.decode()
    assert SUBJECT not in client.get(URL, {"date_from": "2026-12-05"}).content.decode()
    csv = client.get(reverse("inspect_exceptions_csv"), {"kind": "paper_unissued"})
    text = b"".join(csv.streaming_content).decode()
    assert "Paper sold but not issued by serial" in text and SUBJECT in text
    assert client.post(URL, {"kind": "paper_unissued"}).status_code == 403
    # The night's paper page, which the row links to, is read and cannot be written.
    assert "paper-unissued" in client.get(serials_url(known_occasion)).content.decode()
    issue = reverse(
        "occasion_serials_issue", args=[known_occasion.organization_id, known_occasion.pk]
    )
    assert client.post(issue, {}).status_code in (403, 404)
    assert not PaperIssue.objects.exists()


def test_the_hall_is_warned_and_another_organization_sees_nothing(
    client, known_occasion, tenant, other_tenant, inspector
):
    from tests.builders import CommissionStaffFactory

    login(client, tenant.bookkeeper)
    page = client.get(serials_url(known_occasion)).content.decode()
    assert 'id="paper-unissued"' in page and SUBJECT in page
    assert "the door's counts stand alone" not in page
    closeout = reverse("report_closeout", args=[known_occasion.organization_id, known_occasion.pk])
    assert 'id="paper-unissued"' in client.get(closeout).content.decode()
    login(client, other_tenant.head)
    assert client.get(serials_url(known_occasion)).status_code == 404
    assert client.get(URL).status_code == 403
    elsewhere = CommissionStaffFactory(
        user__username="inspector-elsewhere", organizations=[other_tenant.organization]
    ).user
    login(client, elsewhere)
    assert SUBJECT not in client.get(URL).content.decode()
    assert client.get(serials_url(known_occasion)).status_code == 404

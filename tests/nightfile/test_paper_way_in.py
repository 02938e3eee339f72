"""The bookkeeper's way in to a night from paper (issue 40, item 3): every past authorized day with
nothing recorded says so on her calendar, landing page and Reports page and offers "Enter from
paper" (and "Report not played" to the head and the member in charge, who may record it); the
paper path starts from the day, skips what a live opening needs and takes the opening checklist
as attested on the sheet; the rules judge it as they judge the live night, with the same
citation. The hole: past Fridays said "Scheduled" with no button for her, and only the head got
"Prepare this occasion", which opened a live page eight days late."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from beano import rules
from beano.rules.opening import CHECKLIST
from occasions import floor_services
from occasions.models import Occasion, OpeningCheck, PaperRecord, WorkerPresence
from organizations.models import AuditEvent
from tests.conftest import login
from tests.fixtures.night import SAMPLE_PRICES
from tests.nightfile.test_night_pages import _entries, formset, section
from tests.reports.conftest import NIGHT, at

MORNING = at(10, 0, NIGHT + dt.timedelta(days=6))  # the Thursday after: Dec 4's report is due
DAY = NIGHT.isoformat()


def day_url(name: str, tenant: Any, day: str = DAY) -> str:
    return reverse(name, kwargs={"org_id": tenant.organization.pk, "day": day})


def as_user(user: Any) -> Client:
    client = Client()
    login(client, user)
    return client


@pytest.fixture
def morning(report_clock: Any) -> dt.datetime:
    return report_clock(MORNING)


def _pages(tenant: Any) -> dict[str, str]:
    org = tenant.organization.pk
    return {
        "calendar": reverse("occasion_calendar", args=[org]) + "?month=2026-12",
        "reports": reverse("reports_home", args=[org]),
        "dashboard": reverse("dashboard"),
    }


# The day says so, and offers what the viewer may do -------------------------------------------


@pytest.mark.parametrize("page", ["calendar", "reports", "dashboard"])
def test_the_bookkeeper_sees_nothing_recorded_and_enter_from_paper(tenant, morning, page):
    html = as_user(tenant.bookkeeper).get(_pages(tenant)[page], follow=True).content.decode()
    assert "Nothing recorded" in html
    assert day_url("paper_for_day", tenant) in html
    # Reporting a day not played is the head's and the member in charge's (occasion page's rule).
    assert day_url("day_not_played", tenant) not in html
    assert "Prepare this occasion" not in html


@pytest.mark.parametrize("page", ["calendar", "reports"])
def test_the_head_is_offered_both_ways_in(tenant, morning, page):
    html = as_user(tenant.head).get(_pages(tenant)[page]).content.decode()
    assert day_url("paper_for_day", tenant) in html
    assert day_url("day_not_played", tenant) in html


@pytest.mark.parametrize("page", ["calendar", "reports"])
def test_the_inspector_reads_nothing_recorded_and_is_offered_nothing(
    tenant, inspector, morning, page
):
    html = as_user(inspector).get(_pages(tenant)[page]).content.decode()
    assert "Nothing recorded" in html
    assert "/paper/" not in html and "/not-played/" not in html


def test_a_day_still_to_come_is_prepared_live_not_entered_from_paper(tenant, report_clock):
    report_clock(at(10, 0, NIGHT - dt.timedelta(days=1)))
    html = as_user(tenant.head).get(_pages(tenant)["calendar"]).content.decode()
    assert "Prepare this occasion" in html
    assert day_url("paper_for_day", tenant) not in html


# The paper path from the day ------------------------------------------------------------------


def test_the_bookkeeper_begins_the_night_from_its_day(tenant, morning):
    books = as_user(tenant.bookkeeper)
    page = books.get(day_url("paper_for_day", tenant)).content.decode()
    assert "Enter Friday, December 4, 2026 from its control sheets" in page
    assert "flashboard" not in page.lower().replace("no flashboard", "")
    response = books.post(
        day_url("paper_for_day", tenant),
        {"sheets": "Sign-in, checklist, door, games", "reason": "Played on paper"},
    )
    occasion = Occasion.objects.get(organization=tenant.organization, date=NIGHT)
    assert response.status_code == 302
    assert response["Location"] == section(occasion, "workers")
    record = PaperRecord.objects.get(occasion=occasion)
    assert (record.scope, record.entered_by) == (PaperRecord.Scope.WHOLE, tenant.bookkeeper)
    actions = set(
        AuditEvent.objects.filter(actor=tenant.bookkeeper).values_list("action", flat=True)
    )
    assert {"occasions.occasion.scheduled", "occasions.paper_record.begun"} <= actions
    # Begun: the day's link now goes to what is recorded from paper.
    again = books.get(day_url("paper_for_day", tenant))
    assert again["Location"] == reverse("paper_home", args=[tenant.organization.pk, occasion.pk])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"sheets": "", "reason": "Played on paper"}, "This field is required."),
        ({"sheets": "x" * 301, "reason": "Played on paper"}, "at most 300 characters"),
    ],
)
def test_bad_input_saves_nothing(tenant, morning, data, message):
    response = as_user(tenant.bookkeeper).post(day_url("paper_for_day", tenant), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Occasion.objects.filter(organization=tenant.organization).exists()


def test_a_night_still_to_come_is_not_entered_from_paper(tenant, report_clock):
    report_clock(at(10, 0, NIGHT - dt.timedelta(days=1)))
    response = as_user(tenant.bookkeeper).post(
        day_url("paper_for_day", tenant), {"sheets": "All", "reason": "Paper"}, follow=True
    )
    assert "A night still to come is not entered from paper." in response.content.decode()
    assert not Occasion.objects.filter(organization=tenant.organization).exists()


def test_a_night_still_to_come_is_refused_by_the_service_too(tenant, occasion, report_clock):
    from django.core.exceptions import ValidationError

    from occasions import paper

    report_clock(at(10, 0, NIGHT - dt.timedelta(days=1)))
    with pytest.raises(ValidationError, match="still to come"):
        paper.begin(occasion=occasion, sheets="All", reason="Paper", by=tenant.bookkeeper)
    assert not PaperRecord.objects.exists()


@pytest.mark.parametrize("day", ["2026-12-05", "2026-13-01", "yesterday"])
def test_a_day_the_license_does_not_authorize_is_not_found(tenant, morning, day):
    for name in ("paper_for_day", "day_not_played"):
        assert as_user(tenant.head).get(day_url(name, tenant, day)).status_code == 404


def test_the_head_reports_the_day_not_played_and_the_bookkeeper_may_not(tenant, morning):
    url = day_url("day_not_played", tenant)
    assert as_user(tenant.bookkeeper).post(url, {"reason": "Storm"}).status_code == 403
    assert as_user(tenant.head).post(url, {"reason": ""}).status_code == 200
    assert not Occasion.objects.filter(organization=tenant.organization).exists()
    response = as_user(tenant.head).post(url, {"reason": "Hall closed for a storm"})
    occasion = Occasion.objects.get(organization=tenant.organization, date=NIGHT)
    assert response["Location"] == reverse(
        "occasion_detail", args=[tenant.organization.pk, occasion.pk]
    )
    assert (occasion.status, occasion.not_played_reason) == (
        Occasion.Status.NOT_PLAYED,
        "Hall closed for a storm",
    )


# The occasion page of a past day not opened live ----------------------------------------------


def test_the_occasion_page_of_a_past_unopened_day_offers_paper_not_a_live_opening(
    tenant, occasion, morning
):
    html = (
        as_user(tenant.bookkeeper)
        .get(reverse("occasion_detail", args=[tenant.organization.pk, occasion.pk]))
        .content.decode()
    )
    assert reverse("paper_home", args=[tenant.organization.pk, occasion.pk]) in html
    assert "Enter from paper" in html
    for live in ("Next: open the occasion", "still to confirm", "Make the flashboard link"):
        assert live not in html, live
    assert "Not opened on its night" in html


def test_tonight_still_offers_the_live_opening(tenant, occasion, report_clock):
    report_clock(at(17, 0))
    html = (
        as_user(tenant.member_in_charge)
        .get(reverse("occasion_detail", args=[tenant.organization.pk, occasion.pk]))
        .content.decode()
    )
    assert "Next: open the occasion" in html and "still to confirm" in html
    assert "Enter from paper" not in html


# The checklist as attested on the sheet -------------------------------------------------------


def _begin_with_crew(books: Client, tenant: Any) -> Occasion:
    books.post(day_url("paper_for_day", tenant), {"sheets": "All the sheets", "reason": "Paper"})
    occasion = Occasion.objects.get(organization=tenant.organization, date=NIGHT)
    entries = {e.person.legal_name: e.pk for e in _entries(occasion)}
    rows = [
        {
            "entry": entries["Linda Souza"],
            "role": "member_in_charge",
            "identification": "P-02",
            "signed_in": "18:30",
        },
        {
            "entry": entries["Mary Gallagher"],
            "role": "seller",
            "identification": "P-06",
            "signed_in": "18:31",
        },
    ]
    assert books.post(section(occasion, "workers"), formset("w", rows, extra=1)).status_code == 302
    assert books.post(section(occasion, "prices"), formset("p", SAMPLE_PRICES)).status_code == 302
    return occasion


def _opening(occasion: Occasion, checked_at: str, **extra: Any) -> dict[str, Any]:
    linda = WorkerPresence.objects.get(occasion=occasion, entry__person__legal_name="Linda Souza")
    return {
        "items": [i.code for i in CHECKLIST],
        "attested_by": linda.pk,
        "checked_at": checked_at,
        "opened_at": "18:45",
    } | extra


def test_the_checklist_is_entered_as_attested_by_the_member_in_charge(night_records, morning):
    tenant = night_records
    books = as_user(tenant.bookkeeper)
    occasion = _begin_with_crew(books, tenant)
    page = books.get(section(occasion, "opening")).content.decode()
    assert "Attested by (signed on the sheet)" in page and "Linda Souza, in at 6:30 PM" in page
    response = books.post(section(occasion, "opening"), _opening(occasion, "18:40"))
    assert response.status_code == 302, response.content.decode()[-2000:]
    checks = OpeningCheck.objects.filter(occasion=occasion)
    assert checks.count() == len(CHECKLIST)
    assert {c.attested_by.entry.person.legal_name for c in checks} == {"Linda Souza"}
    assert {c.confirmed_at for c in checks} == {at(18, 40)}
    occasion.refresh_from_db()
    assert occasion.opened_at == at(18, 45)
    event = AuditEvent.objects.filter(action="occasions.opening_check.confirmed").first()
    assert event.new_values["attested_by"] == "Linda Souza"
    assert event.provenance["entered"] == "after the fact"
    shown = books.get(reverse("opening_checklist", args=[tenant.organization.pk, occasion.pk]))
    assert "Linda Souza (attested on paper)" in shown.content.decode()


def test_only_a_member_in_charge_of_the_night_attests_the_checklist(night_records, morning):
    tenant = night_records
    books = as_user(tenant.bookkeeper)
    occasion = _begin_with_crew(books, tenant)
    mary = WorkerPresence.objects.get(occasion=occasion, entry__person__legal_name="Mary Gallagher")
    response = books.post(
        section(occasion, "opening"), _opening(occasion, "18:40", attested_by=mary.pk)
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not OpeningCheck.objects.filter(occasion=occasion).exists()


def test_a_checklist_attested_before_its_signer_was_on_the_floor_is_refused_as_live(
    night_records, report_clock
):
    """No path easier than the live one: Linda Souza signed in at 6:30 PM; her checklist at
    6:20 PM is refused on paper with the citation that refuses her confirming it live then."""
    tenant = night_records
    report_clock(MORNING)
    books = as_user(tenant.bookkeeper)
    occasion = _begin_with_crew(books, tenant)
    response = books.post(section(occasion, "opening"), _opening(occasion, "18:20"))
    page = response.content.decode()
    assert "Nothing was saved" in page
    assert not OpeningCheck.objects.filter(occasion=occasion).exists()

    # Live, the same night with the same crew: Linda's own login confirming at 6:20 PM.
    report_clock(at(18, 20))
    with pytest.raises(rules.RuleViolation) as refused:
        floor_services.confirm_check(
            occasion=occasion, item=CHECKLIST[0].code, by=tenant.member_in_charge
        )
    citations = {v.citation for v in refused.value.violations}
    assert citations == {"961 CMR 3.04(1)(b)"}
    for citation in citations:
        assert citation in page

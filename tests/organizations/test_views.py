"""Every organization page, from its own roles, from another organization (404) and as a
Commission inspector (reads, never writes)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from nightfile import control_sheets
from organizations import access_matrix
from organizations.models import AuditEvent, Membership, Organization
from tests.conftest import login
from tests.pdf_once import rendered_once

# Every page under /org/<org_id>/: (url name, the fixture giving the object its <pk> names, or
# None, and whether the page exists only to write). Add each new organization URL here; the first
# test fails until you do.
ORG_PAGES = [
    ("organization_home", None, False),
    ("organization_edit", None, True),
    ("member_list", None, False),
    ("member_add", None, True),
    ("member_edit", "member", True),
    ("audit_log", None, False),
    ("authorization_list", None, False),
    ("authorization_document", "authorization", False),
    ("org_refused_actions", None, False),
    ("occasion_calendar", None, False),
    ("occasion_for_day", "authorized_day", True),
    ("occasion_detail", "occasion", False),
    ("occasion_not_played", "occasion", True),
    ("day_not_played", "authorized_day", True),
    ("paper_for_day", "authorized_day", True),
    ("resumption_notice", None, True),
    ("price_list", "occasion", False),
    ("price_list_print", "occasion", False),
    ("door_sales", "open_occasion", False),
    ("sale_counts", "open_occasion", False),
    ("sale_receipts", "open_occasion", False),
    ("night_heartbeat", "open_occasion", True),
    ("sale_record", "open_occasion", True),
    ("sale_void", "open_occasion", True),
    ("attendance_announce", "open_occasion", True),
    ("offline_acts", "open_occasion", True),
    ("offline_pack", "open_occasion", False),
    ("occasion_start_play", "open_occasion", True),
    ("occasion_start_second_half", "open_occasion", True),
    ("opening_checklist", "occasion", False),
    ("opening_check", "occasion", True),
    ("occasion_open", "occasion", True),
    ("workers_present", "occasion", False),
    ("worker_sign_out", "presence_kwargs", True),
    ("worker_hand_over", "occasion", True),
    ("occasion_close", "occasion", False),
    ("hand_laptop", "occasion", True),
    ("paper_home", "occasion", False),
    ("paper_section", "paper_section_kwargs", True),
    ("paper_games", "occasion", True),
    ("paper_game", "paper_game_kwargs", True),
    ("occasion_close_late", "occasion", True),
    ("night_upload", None, True),
    ("night_upload_confirm", None, True),
    ("api_tokens", None, False),
    ("api_token_revoke", "api_token", True),
    ("worker_list", None, False),
    ("worker_list_print", None, False),
    ("worker_add", None, True),
    ("worker_edit", "worker_entry", True),
    ("worker_remove", "worker_entry", True),
    ("conviction_add", None, True),
    ("equipment_list", None, False),
    ("equipment_add", None, True),
    ("equipment_edit", "equipment_item", True),
    ("equipment_retire", "equipment_item", True),
    ("equipment_proof", "equipment_item", False),
    ("card_inventory", None, False),
    ("card_purchase_add", None, True),
    ("card_usage_add", "card_purchase", True),
    ("card_purchase_proof", "card_purchase", False),
    ("occasion_extras", "open_occasion", False),
    ("extras_varying", "open_occasion", True),
    ("extras_refund", "open_occasion", True),
    ("extras_door_prize", "open_occasion", True),
    ("extras_gift", "open_occasion", True),
    ("extras_raffle", "open_occasion", True),
    ("extras_raffle_tickets", "open_occasion", True),
    ("extras_raffle_drawing", "open_occasion", True),
    ("extras_charity_sale", "open_occasion", True),
    ("extras_charity_redemption", "open_occasion", True),
    ("extras_other_sale", "open_occasion", True),
    ("extras_police", "open_occasion", True),
    ("extras_transportation", "open_occasion", True),
    ("raffle_permits", None, False),
    ("raffle_permit_document", "raffle_permit", False),
    ("jackpot_list", None, False),
    ("jackpot_start", None, True),
    ("jackpot_detail", "jackpot_series", False),
    ("jackpot_rules_change", "jackpot_series", True),
    ("jackpot_game_outcome", "progressive_game", True),
    ("occasion_jackpot", "progressive_game_occasion", False),
    ("occasion_jackpot_attach", "occasion", True),
    ("game_program", "occasion", False),
    ("game_add", "occasion", True),
    ("program_copy", "occasion", True),
    ("prize_part_add", "program_game_kwargs", True),
    ("game_remove", "program_game_kwargs", True),
    ("game_confirm_balls", "program_game_kwargs", True),
    ("game_start", "program_game_kwargs", True),
    ("game_finish", "program_game_kwargs", True),
    ("prize_part_announce", "prize_part_kwargs", True),
    ("prize_part_remove", "prize_part_kwargs", True),
    ("game_claims", "claims_game_kwargs", False),
    ("claim_record", "claims_game_kwargs", True),
    ("claim_verify_draw", "claim_kwargs", True),
    ("claim_verify_card", "claim_kwargs", True),
    ("winners_split", "claims_game_kwargs", False),
    ("winners_record", "part_kwargs", True),
    ("payout_record", "winner_kwargs", True),
    ("draw_home", "open_occasion", False),
    ("draw_console", "game_kwargs", False),
    ("draw_board", "game_kwargs", False),
    ("draw_call", "game_kwargs", True),
    ("draw_correct", "ball_call_kwargs", True),
    ("flashboard_link", "open_occasion", True),
    ("reports_home", None, False),
    ("report_closeout", "closed_occasion", False),
    ("report_drawer", "closed_occasion", False),
    # Paper by serial (961 CMR 3.04(4)(e)), the gaming bank account and the W-2G register.
    ("occasion_serials", "occasion", False),
    ("occasion_serials_issue", "occasion", True),
    ("occasion_serials_count_back", "paper_issue_kwargs", True),
    ("occasion_serials_explain", "occasion", True),
    ("paper_stock", None, False),
    ("paper_stock_destroy", None, True),
    ("paper_stock_take", None, True),
    ("bank_account", None, False),
    ("bank_save_account", None, True),
    ("bank_record_deposit", None, True),
    ("bank_record_entry", None, True),
    ("bank_reconcile", None, True),
    ("w2g_register", "w2g_year", False),
    ("w2g_register_csv", "w2g_year", False),
    ("report_add_expense", "closed_occasion", True),
    ("report_record_stock", "closed_occasion", True),
    ("report_remove_expense", "expense_kwargs", True),
    ("control_sheets", "occasion", False),
    ("report_versions", "closed_occasion", False),
    ("report_file", "closed_occasion", True),
    ("report_open_amendment", "closed_occasion", True),
    ("report_withdraw_amendment", "closed_occasion", True),
    ("report_status", "report_kwargs", False),
    ("report_pdf", "rendered_report_kwargs", False),
    ("report_rerender", "report_kwargs", True),
    ("annual_report", "year_kwargs", False),
    ("annual_add_disbursement", "year_kwargs", True),
    ("annual_void_disbursement", "disbursement_kwargs", True),
    ("annual_file", "year_kwargs", True),
    ("annual_status", "annual_kwargs", False),
    ("annual_pdf", "rendered_annual_kwargs", False),
    ("occasion_record", "occasion", False),
    ("occasion_record_export", "record_export_kwargs", False),
    ("record_history", "history_kwargs", False),
    ("chain_check", None, False),
    ("org_compliance_prizes", None, False),
    ("org_compliance_workers", None, False),
    ("org_compliance_winners", None, False),
    ("org_compliance_equipment", None, False),
    ("org_compliance_inventory", None, False),
    ("inspections_list", None, False),
    ("organization_year", None, False),
    # The Commission admin's licensing pages of one organization (everyone else: 403 or 404).
    ("onboarding_license_add", None, True),
    ("onboarding_authorization_add", None, True),
    ("onboarding_arrangements", None, True),
    ("people_list", None, False),
    ("people_invite", None, True),
    ("people_roles", "people_login", True),
    ("people_deactivate", "people_login", True),
    ("people_send_again", "people_login", True),
]

#: Fixtures that name no object of the organization (a day, a year): nothing to look up.
NO_OBJECT = {"authorized_day", "year_kwargs", "w2g_year"}


@pytest.fixture(autouse=True)
def _pdfs_rendered_once():
    """The matrix asks who may reach each page, not what a PDF shows: the control sheets are
    rendered once (tests/pdf_once.py)."""
    with rendered_once(control_sheets, "_pdf"):
        yield


@pytest.fixture
def people_login(tenant):
    """A login of the organization (its worker), on the people pages."""
    return tenant.worker


@pytest.fixture
def paper_issue_kwargs(occasion, tenant):
    """Paper issued to ``occasion``'s door, not yet counted back."""
    from django.utils import timezone

    from equipment.models import PaperIssue
    from tests.reports.test_paper import buy

    purchase = buy(tenant, "admission", 90_000)
    issue = PaperIssue.objects.create(
        purchase=purchase,
        occasion=occasion,
        serial_from=90_000,
        serial_to=90_009,
        issued_at=timezone.now(),
        issued_by=tenant.member_in_charge,
    )
    return {"pk": occasion.pk, "issue_id": issue.pk}


@pytest.fixture
def w2g_year():
    return {"year": 2026}


@pytest.fixture
def authorized_day(tenant):
    return {"day": "2026-12-04"}


@pytest.fixture
def record_export_kwargs(occasion):
    return {"pk": occasion.pk, "kind": "calls"}


@pytest.fixture
def history_kwargs(occasion):
    """The history of ``occasion``, made (and so audited) by its organization's service."""
    return {"target_type": "occasions.occasion", "target_id": occasion.pk}


@pytest.fixture
def progressive_game_occasion(progressive_game):
    """An occasion whose program has a progressive game carrying a jackpot."""
    return progressive_game.occasion


@pytest.fixture
def api_token(tenant):
    """A read token of the organization (its revoke page)."""
    from api import tokens

    return tokens.issue(
        name="Flashboard", scope="read", by=tenant.head, organization=tenant.organization
    )[0]


def _patterns(resolver: URLResolver, prefix: str = "") -> list[str]:
    """The organization's pages (the API's operations, answered by token, are held to the
    matrix in tests/api/)."""
    names = []
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            names += _patterns(p, prefix + str(p.pattern))
        elif (
            isinstance(p, URLPattern)
            and "<int:org_id>" in prefix + str(p.pattern)
            and p.name not in access_matrix.API_ENDPOINTS
        ):
            names.append(p.name)
    return names


def test_every_organization_url_is_covered_here():
    assert sorted(_patterns(get_resolver())) == sorted(name for name, _, _ in ORG_PAGES)


def _url(request, name: str, org: Organization, fixture: str | None) -> str:
    kwargs = {"org_id": org.pk}
    if fixture is not None:
        value = request.getfixturevalue(fixture)
        kwargs.update(value if isinstance(value, dict) else {"pk": value.pk})
    return reverse(name, kwargs=kwargs)


@pytest.mark.parametrize("name,fixture,form_page", ORG_PAGES)
def test_another_organization_and_the_inspectors_get_only_what_they_may(
    request, tenant, other_tenant, inspector, name, fixture, form_page
):
    """Each page of the organization, with its object, as each person who must not write it:
    another organization's head gets 404 (the same answer as "does not exist"), for the page
    and for its object named under their own organization; an inspector in scope reads it (200,
    or 403 for a page that exists only to write), is refused every POST with 403 and writes
    nothing to the audit trail; an inspector whose scope is the other organization gets 404.
    One case a page, so that its objects are built once for the four of them."""
    own = _url(request, name, tenant.organization, fixture)
    elsewhere = _url(request, name, other_tenant.organization, fixture)
    other_head, reader = Client(), Client()
    login(other_head, other_tenant.head)
    login(reader, inspector)
    # (who and what, what they got, what they must get), in the order asked
    checks = [
        ("another organization's head: GET", other_head.get(own).status_code, 404),
        (
            "another organization's head: POST",
            other_head.post(own, {"telephone": "1"}).status_code,
            404,
        ),
    ]
    if fixture is not None and fixture not in NO_OBJECT:
        # A page nobody writes through refuses every POST (403) before it looks anything up:
        # the same answer for any object, it tells nothing.
        nobody_writes = not access_matrix.ORG_PAGES[name].write
        checks += [
            (
                "the object under their own organization: POST",
                other_head.post(elsewhere, {}).status_code,
                403 if nobody_writes else 404,
            ),
            # A POST-only URL answers GET with 405 before looking at the object: it tells nothing.
            (
                "the object under their own organization: GET 404 or 405",
                other_head.get(elsewhere).status_code in (404, 405),
                True,
            ),
        ]
    events = AuditEvent.objects.count()
    checks += [
        ("the inspector: GET", reader.get(own).status_code, 403 if form_page else 200),
        (
            "the inspector: POST",
            reader.post(own, {"telephone": "617-555-0000", "kind": "lapsed"}).status_code,
            403,
        ),
        ("the inspector: events audited", AuditEvent.objects.count() - events, 0),
        ("the inspector, outside their scope: GET", reader.get(elsewhere).status_code, 404),
    ]
    assert {who: got for who, got, _ in checks} == {who: must for who, _, must in checks}


def test_a_statewide_inspector_sees_every_organization(
    client, tenant, other_tenant, statewide_inspector
):
    login(client, statewide_inspector)
    for org in (tenant.organization, other_tenant.organization):
        assert client.get(reverse("organization_home", args=[org.pk])).status_code == 200
    page = client.get(reverse("dashboard"), follow=True).content.decode()
    assert tenant.organization.name in page and other_tenant.organization.name in page


def test_anonymous_users_are_sent_to_log_in(client, tenant):
    response = client.get(reverse("organization_home", args=[tenant.organization.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_head_edits_the_details_and_the_change_is_audited(client, tenant):
    login(client, tenant.head)
    url = reverse("organization_edit", args=[tenant.organization.pk])
    response = client.post(
        url,
        {
            "street": "9 Water St",
            "town": "Fairhaven",
            "zip_code": "02719",
            "telephone": "508-555-0199",
            "federal_id": "",
        },
    )
    assert response.status_code == 302
    tenant.organization.refresh_from_db()
    assert tenant.organization.street == "9 Water St"
    event = AuditEvent.objects.filter(organization=tenant.organization).last()
    assert event.action == "organizations.organization.updated"
    assert event.new_values == {"street": "9 Water St", "telephone": "508-555-0199"}


def test_a_worker_may_not_edit_details_or_members(client, tenant, member):
    login(client, tenant.worker)
    assert (
        client.get(reverse("organization_edit", args=[tenant.organization.pk])).status_code == 403
    )
    assert client.get(reverse("member_add", args=[tenant.organization.pk])).status_code == 403
    assert client.get(reverse("member_list", args=[tenant.organization.pk])).status_code == 200
    assert client.get(reverse("audit_log", args=[tenant.organization.pk])).status_code == 403


def test_bad_input_gets_a_message_and_saves_nothing(client, tenant):
    login(client, tenant.member_in_charge)
    url = reverse("member_add", args=[tenant.organization.pk])
    before = Membership.objects.count(), AuditEvent.objects.count()
    for data in (
        {},
        {
            "legal_name": "X" * 500,
            "date_of_birth": "1990-01-01",
            "kind": "member",
            "since": "2020-01-01",
        },
        {
            "legal_name": "Al",
            "date_of_birth": "3020-01-01",
            "kind": "member",
            "since": "2020-01-01",
        },
        {"legal_name": "Al", "date_of_birth": "not a date", "kind": "boss", "since": "2020-01-01"},
        {
            "legal_name": "Al",
            "date_of_birth": "1990-01-01",
            "kind": "family",
            "since": "2020-01-01",
        },
        {
            "legal_name": "Al",
            "date_of_birth": "1990-01-01",
            "kind": "member",
            "since": "2020-01-01",
            "family_of": "999999",
        },
    ):
        response = client.post(url, data)
        assert response.status_code == 200
        assert b"invalid-feedback" in response.content or b"alert-danger" in response.content
    assert (Membership.objects.count(), AuditEvent.objects.count()) == before


def test_the_member_in_charge_adds_a_family_member(client, tenant, member):
    login(client, tenant.member_in_charge)
    response = client.post(
        reverse("member_add", args=[tenant.organization.pk]),
        {
            "legal_name": "Emily Rebello",
            "date_of_birth": "2006-09-12",
            "kind": "family",
            "family_of": member.pk,
            "relationship": "granddaughter",
            "since": "2024-09-12",
        },
    )
    assert response.status_code == 302
    added = Membership.objects.get(person__legal_name="Emily Rebello")
    assert added.family_of == member
    page = client.get(reverse("member_list", args=[tenant.organization.pk])).content.decode()
    assert "granddaughter of Joseph Rebello" in page


def test_the_audit_page_shows_the_chain_check(client, tenant, member):
    login(client, tenant.bookkeeper)
    page = client.get(reverse("audit_log", args=[tenant.organization.pk])).content.decode()
    assert "Intact through event" in page
    assert "organizations.membership.added" in page


def test_the_audit_page_shows_a_price_lists_event(client, tenant, occasion):
    """Its values carry the key "items", which the template once took for the dict's method."""
    from tests.fixtures.night import open_for_tests

    open_for_tests(occasion)  # posts the sample price list
    login(client, tenant.bookkeeper)
    response = client.get(reverse("audit_log", args=[tenant.organization.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "occasions.price_list.set" in page
    assert "Admission (3-on regular card)" in page


@pytest.mark.parametrize("role", ["head", "member_in_charge", "bookkeeper", "worker"])
def test_each_role_lands_on_its_dashboard(client, tenant, role):
    login(client, getattr(tenant, role))
    page = client.get(reverse("dashboard")).content.decode()
    assert tenant.organization.name in page
    if role in ("head", "member_in_charge", "worker"):
        assert "Next authorized occasions" in page
    if role in ("head", "bookkeeper"):
        assert "Financial reports coming due" in page


def test_the_dashboard_keeps_its_query_count_as_organizations_grow(
    client, commission_admin, django_assert_num_queries
):
    from tests.conftest import make_organization

    make_organization("Hall 1")
    login(client, commission_admin)
    client.get(reverse("dashboard"))
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as small:
        client.get(reverse("dashboard"))
    for i in range(2, 30):
        make_organization(f"Hall {i}")
    with CaptureQueriesContext(connection) as large:
        response = client.get(reverse("dashboard"))
    assert b"Hall 29" in response.content
    assert len(large) == len(small)

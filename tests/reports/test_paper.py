"""Paper by serial (961 CMR 3.04(4)(d)2, (e)): issued to the door, counted back, destroyed and
counted on the shelf with a witness; the stock follows; a night whose door counts and serials
disagree is flagged at the close-out and refused at filing until explained."""

from __future__ import annotations

import datetime as dt
import importlib
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from beano.rules.base import RuleViolation
from beano.rules.models import RefusedAction
from equipment import paper_selectors, paper_services
from equipment.inventory_selectors import card_purchases
from equipment.inventory_services import on_hand
from equipment.models import PaperDestruction, PaperExplanation, PaperIssue, StockTake
from organizations.audit import verify_chain
from organizations.equipment_services import record_card_purchase
from organizations.models import AuditEvent, CardPurchase
from reports import services
from reports.models import FinancialReport
from tests.conftest import PASSWORD, login
from tests.reports.conftest import COUNTS, at

pytestmark = pytest.mark.django_db

#: The known night's categories and the card types that hold them.
TYPES = {
    "admission": "admission",
    "extra_regular": "extra_regular",
    "bonus": "bonus",
    "special": "special_game",
    "winner_take_all": "winner_take_all",
}


def buy(tenant, card_type: str, first: int, quantity: int = 200) -> CardPurchase:
    return record_card_purchase(
        organization=tenant.organization,
        by=tenant.bookkeeper,
        supplier="Bay State Bingo Supply",
        invoice_number=f"INV-{card_type}",
        invoice_date=dt.date(2026, 10, 1),
        card_type=card_type,
        series="Green",
        serial_from=first,
        serial_to=first + quantity - 1,
        quantity=quantity,
        unit_cost=D("0.05"),
        proof_reference="Binder",
    )


def issue(occasion, purchase, by, first: int, last: int, minute: int = 45) -> PaperIssue:
    """Issued before the door opened at 17:00, entered after the fact."""
    return paper_services.issue_paper(
        occasion=occasion,
        purchase=purchase,
        serial_from=first,
        serial_to=last,
        by=by,
        at=at(16, minute),
    )


def issue_and_count(occasion, purchase, by, *, issued: int, sold: int, voided: int = 0):
    first = purchase.serial_from
    row = issue(occasion, purchase, by, first, first + issued - 1, minute=30)
    return paper_services.count_back(
        issue=row, returned=issued - sold - voided, voided=voided, by=by, at=at(22, 40)
    )


@pytest.fixture
def every_category(tenant):
    return {
        category: buy(tenant, card_type, 10_000 * (i + 1))
        for i, (category, card_type) in enumerate(TYPES.items())
    }


# --- The stock follows the paper ------------------------------------------------------------


def test_stock_on_hand_follows_issue_return_destroy_and_stock_take(
    known_occasion, tenant, card_purchase
):
    assert on_hand(card_purchase) == 100
    row = issue(known_occasion, card_purchase, tenant.member_in_charge, 1, 60)
    assert on_hand(card_purchase) == 40  # 100 bought − 60 issued
    paper_services.count_back(
        issue=row, returned=15, voided=1, by=tenant.member_in_charge, at=at(22, 40)
    )
    assert on_hand(card_purchase) == 55  # + 15 counted back; the voided one is gone
    assert PaperIssue.objects.get().sold == 44
    paper_services.destroy_paper(
        purchase=card_purchase,
        quantity=5,
        reason="damaged",
        destroyed_on=dt.date(2026, 12, 4),
        witness=tenant.head,
        witness_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    assert on_hand(card_purchase) == 50  # − 5 destroyed
    take = paper_services.take_stock(
        purchase=card_purchase,
        counted=48,
        reason="Two cards found stuck together and thrown away at the door.",
        counted_on=dt.date(2026, 12, 4),
        witness=tenant.head,
        witness_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    assert (take.expected, take.difference) == (50, -2)
    assert on_hand(card_purchase) == 48  # the count stands
    got = card_purchases(tenant.organization).get()
    assert (got.issued, got.returned, got.destroyed, got.adjusted, got.on_hand) == (
        60,
        15,
        5,
        -2,
        48,
    )
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {
        "reports.paper.issued",
        "reports.paper.counted_back",
        "reports.paper.destroyed",
        "reports.paper.stock_taken",
    } <= actions
    assert verify_chain(tenant.organization).ok


def test_an_issue_beyond_the_purchase_or_over_serials_still_out_is_refused(
    known_occasion, tenant, card_purchase
):
    issue(known_occasion, card_purchase, tenant.member_in_charge, 1, 50)
    for first, last, words in ((40, 70, "overlap"), (51, 120, "not all of this purchase")):
        with pytest.raises(RuleViolation) as refused:
            issue(known_occasion, card_purchase, tenant.member_in_charge, first, last, 50)
        assert "961 CMR 3.04(4)(e)" in str(refused.value) and words in str(refused.value)
    assert PaperIssue.objects.count() == 1
    assert RefusedAction.objects.filter(action="inventory.issue").count() == 2


def test_paper_issued_after_the_close_is_refused_as_of_its_moment(
    known_occasion, tenant, card_purchase
):
    """Judged as of the moment it happened: the same issue written at 4:45 PM is allowed."""
    with pytest.raises(RuleViolation) as refused:
        paper_services.issue_paper(
            occasion=known_occasion,
            purchase=card_purchase,
            serial_from=1,
            serial_to=10,
            by=tenant.member_in_charge,  # now: 11:30 PM, after the 10:30 close
        )
    assert "961 CMR 3.04(4)(e)" in str(refused.value)
    assert not PaperIssue.objects.exists()
    row = issue(known_occasion, card_purchase, tenant.member_in_charge, 1, 10)
    assert row.from_paper and row.issued_at == at(16, 45)


def test_more_counted_back_than_issued_is_refused_and_nothing_saved(
    known_occasion, tenant, card_purchase
):
    row = issue(known_occasion, card_purchase, tenant.member_in_charge, 1, 10)
    with pytest.raises(RuleViolation, match="only 10 were issued"):
        paper_services.count_back(issue=row, returned=9, voided=2, by=tenant.member_in_charge)
    row.refresh_from_db()
    assert row.returned is None and row.voided == 0


def test_a_destruction_and_a_stock_take_need_a_witness_signing_for_themselves(
    tenant, card_purchase
):
    for witness, secret in ((tenant.head, "wrong"), (tenant.bookkeeper, PASSWORD), (None, "")):
        with pytest.raises(RuleViolation) as refused:
            paper_services.destroy_paper(
                purchase=card_purchase,
                quantity=5,
                reason="expired",
                destroyed_on=dt.date(2026, 11, 1),
                witness=witness,
                witness_secret=secret,
                by=tenant.bookkeeper,
            )
        assert "961 CMR 3.04(4)(e)" in str(refused.value)
    with pytest.raises(RuleViolation, match="say why they differ"):
        paper_services.take_stock(
            purchase=card_purchase,
            counted=90,
            counted_on=dt.date(2026, 11, 1),
            witness=tenant.head,
            witness_secret=PASSWORD,
            by=tenant.bookkeeper,
        )
    assert not PaperDestruction.objects.exists() and not StockTake.objects.exists()
    assert on_hand(card_purchase) == 100


def test_another_organizations_paper_cannot_be_issued(known_occasion, other_tenant, tenant):
    theirs = buy(other_tenant, "admission", 1)
    with pytest.raises(ValidationError):
        issue(known_occasion, theirs, tenant.member_in_charge, 1, 5)
    assert not PaperIssue.objects.exists()


# --- The close-out and the filing ------------------------------------------------------------


def test_serials_that_agree_with_the_door_file_without_explanation(counted, tenant, every_category):
    for category, purchase in every_category.items():
        sold = COUNTS[category]
        issue_and_count(counted, purchase, tenant.member_in_charge, issued=sold + 20, sold=sold)
    paper = paper_selectors.occasion_paper(counted, {k: COUNTS[k] for k in TYPES})
    assert paper.kept and not paper.flagged
    assert services.file_report(occasion=counted, by=tenant.bookkeeper).version == 1


def test_door_counts_and_serials_that_disagree_are_flagged_and_refused_until_explained(
    client, counted, tenant, every_category
):
    """The issue's night: the door sold extras and bonus cards the stock never gave out."""
    mic = tenant.member_in_charge
    issue_and_count(counted, every_category["admission"], mic, issued=120, sold=100)
    issue_and_count(counted, every_category["special"], mic, issued=70, sold=59, voided=1)
    login(client, tenant.bookkeeper)
    page = client.get(reverse("report_closeout", args=[tenant.organization.pk, counted.pk]))
    text = page.content.decode()
    assert "counts and the serials disagree" in text and "cannot be filed" in text
    assert "Extra regular cards: 50 sold by the door, 0 by serial" in text
    assert "Special game cards: 60 sold by the door, 59 by serial" in text

    with pytest.raises(RuleViolation) as refused:
        services.file_report(occasion=counted, by=tenant.bookkeeper)
    assert refused.value.decision.violations[0].citation == "961 CMR 3.04(4)(d)"
    assert "explain the difference" in str(refused.value)
    assert not FinancialReport.objects.exists()
    assert RefusedAction.objects.filter(action="report.file").exists()

    response = client.post(
        reverse("occasion_serials_explain", args=[tenant.organization.pk, counted.pk]),
        {"explanation": "Extras and bonus cards came from last season's box; one special torn."},
    )
    assert response.status_code == 302
    assert services.file_report(occasion=counted, by=tenant.bookkeeper).version == 1


def test_paper_never_counted_back_stops_the_filing(counted, tenant, card_purchase):
    issue(counted, card_purchase, tenant.member_in_charge, 1, 100)
    paper_services.explain_paper(
        occasion=counted, explanation="The rest came from the old stock box.", by=tenant.head
    )
    with pytest.raises(RuleViolation, match="Count back the unsold paper"):
        services.file_report(occasion=counted, by=tenant.bookkeeper)
    assert not FinancialReport.objects.exists()


def test_a_night_with_no_paper_taken_from_stock_is_not_flagged(counted):
    paper = paper_selectors.occasion_paper(counted, {"admission": 100})
    assert not paper.kept and not paper.flagged and not paper.facts(played=True).disagreements


# --- The pages ---------------------------------------------------------------------------------


def test_the_member_in_charge_issues_and_counts_back_through_the_page(
    client, known_occasion, tenant, card_purchase
):
    client.force_login(tenant.member_in_charge)
    base = [tenant.organization.pk, known_occasion.pk]
    response = client.post(
        reverse("occasion_serials_issue", args=base),
        {"purchase": card_purchase.pk, "serial_from": "1", "serial_to": "40", "at_time": "4:45 PM"},
    )
    assert response.status_code == 302
    row = PaperIssue.objects.get()
    assert row.issued_at == at(16, 45) and row.from_paper
    prefix = f"issue-{row.pk}-"
    response = client.post(
        reverse("occasion_serials_count_back", args=[*base, row.pk]),
        {prefix + "returned": "12", prefix + "voided": "0", prefix + "at_time": "22:40"},
    )
    assert response.status_code == 302
    assert PaperIssue.objects.get().sold == 28
    page = client.get(reverse("occasion_serials", args=base)).content.decode()
    assert "28 sold" in page and "1–40" in page


def test_bad_input_gets_a_clear_message_and_saves_nothing(
    client, known_occasion, tenant, card_purchase
):
    client.force_login(tenant.member_in_charge)
    url = reverse("occasion_serials_issue", args=[tenant.organization.pk, known_occasion.pk])
    purchase = card_purchase.pk
    for data, message in (
        ({"purchase": purchase, "serial_from": "abc", "serial_to": "10"}, "digits 0 to 9"),
        (
            {"purchase": purchase, "serial_from": "1", "serial_to": "10", "at_time": "25:00"},
            "not a time of day",
        ),
        (
            {"purchase": purchase, "serial_from": "90", "serial_to": "120", "at_time": "16:45"},
            "not all of this purchase",
        ),
    ):
        response = client.post(url, data)
        assert response.status_code == 400
        assert message in response.content.decode()
    assert not PaperIssue.objects.exists()
    login(client, tenant.bookkeeper)
    response = client.post(
        reverse("paper_stock_destroy", args=[tenant.organization.pk]),
        {
            "purchase": purchase,
            "quantity": "1e3",
            "reason": "damaged",
            "destroyed_on": "2026-11-01",
            "witness": tenant.head.pk,
            "witness_secret": PASSWORD,
        },
    )
    assert response.status_code == 400 and "digits 0 to 9" in response.content.decode()
    assert not PaperDestruction.objects.exists()


def test_another_organization_gets_404(client, known_occasion, tenant, other_tenant, card_purchase):
    row = issue(known_occasion, card_purchase, tenant.member_in_charge, 1, 10)
    login(client, other_tenant.head)
    org, occ = tenant.organization.pk, known_occasion.pk
    for url in (
        reverse("occasion_serials", args=[org, occ]),
        reverse("occasion_serials_issue", args=[org, occ]),
        reverse("occasion_serials_count_back", args=[org, occ, row.pk]),
        reverse("occasion_serials_explain", args=[org, occ]),
        reverse("paper_stock", args=[org]),
        reverse("paper_stock_destroy", args=[org]),
        reverse("paper_stock_take", args=[org]),
    ):
        assert client.get(url).status_code == 404, url
        assert client.post(url, {f"issue-{row.pk}-returned": "1"}).status_code == 404, url
    # Their own organization's address with this organization's occasion and issue.
    own = reverse("occasion_serials_count_back", args=[other_tenant.organization.pk, occ, row.pk])
    assert client.post(own, {f"issue-{row.pk}-returned": "1"}).status_code == 404
    row.refresh_from_db()
    assert row.returned is None


def test_an_inspector_reads_and_never_writes(
    client, known_occasion, tenant, inspector, card_purchase
):
    row = issue(known_occasion, card_purchase, tenant.member_in_charge, 1, 10)
    login(client, inspector)
    org, occ = tenant.organization.pk, known_occasion.pk
    page = client.get(reverse("occasion_serials", args=[org, occ]))
    assert page.status_code == 200 and "Issue to the door" not in page.content.decode()
    assert client.get(reverse("paper_stock", args=[org])).status_code == 200
    for url, data in (
        (
            reverse("occasion_serials_issue", args=[org, occ]),
            {"purchase": card_purchase.pk, "serial_from": "20", "serial_to": "30"},
        ),
        (
            reverse("occasion_serials_count_back", args=[org, occ, row.pk]),
            {f"issue-{row.pk}-returned": "1"},
        ),
        (reverse("occasion_serials_explain", args=[org, occ]), {"explanation": "x" * 20}),
        (reverse("paper_stock_take", args=[org]), {"purchase": card_purchase.pk, "counted": "1"}),
    ):
        assert client.post(url, data).status_code == 403, url
    assert PaperIssue.objects.count() == 1 and not PaperExplanation.objects.exists()
    assert not StockTake.objects.exists()


def test_the_paper_page_keeps_its_queries_as_issues_grow(
    client, known_occasion, tenant, every_category
):
    login(client, tenant.head)
    url = reverse("occasion_serials", args=[tenant.organization.pk, known_occasion.pk])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    issue_and_count(known_occasion, every_category["admission"], tenant.head, issued=10, sold=8)
    queries()  # the first request warms the session and the caches
    few = queries()
    for n, purchase in enumerate(every_category.values()):
        first = purchase.serial_from + 50
        for k in range(3):
            issue(known_occasion, purchase, tenant.head, first + 10 * k, first + 10 * k + 9, 50 + n)
    assert PaperIssue.objects.count() == 16
    assert queries() == few


# --- The free-text occasions of the card inventory, linked ----------------------------------


def test_the_migration_reads_the_free_text_labels_as_dates():
    migration = importlib.import_module("organizations.migrations.0011_card_usage_occasion_links")
    used_on = dt.date(2026, 12, 4)
    assert migration._date_named("Occasion of Fri Dec 4, 2026", used_on) == used_on
    assert migration._date_named("Occasion of Dec 4", used_on) == used_on
    assert migration._date_named("Occasion of  Nov 27", used_on) == dt.date(2026, 11, 27)
    assert migration._date_named("Friday evening", used_on) is None


def test_cards_used_at_the_close_out_are_linked_to_their_occasion(counted, tenant, card_purchase):
    usage = services.record_stock_used(
        occasion=counted,
        purchase=card_purchase,
        quantity_used=10,
        quantity_voided=0,
        by=tenant.bookkeeper,
    )
    assert usage.occasion == counted and usage.occasion_label == ""

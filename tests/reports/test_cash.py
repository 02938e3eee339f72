"""The drawer counted by denomination, by one person and verified by a second who confirms for
themselves (961 CMR 3.04(1)(e)), compared with the cash expected; its total is the close-out's
cash counted, and a report whose cash was changed after the drawer count is refused at filing."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.urls import reverse

from banking import drawer_services
from banking.models import DrawerCount
from beano import rules
from beano.rules.models import RefusedAction
from organizations.models import AuditEvent
from organizations.services import assign_role
from reports import services
from reports.figures import compute_figures
from reports.models import CloseOut
from tests.conftest import PASSWORD, login, make_user
from tests.fixtures.floor import on_floor
from tests.reports.conftest import COUNTS, KNOWN

#: $596.00, the cash expected with a $200 bank: 20 × $20, 15 × $10, 9 × $5, 4 quarters.
PIECES = {"20": 20, "10": 15, "5": 9, "0.25": 4}


def drawer_url(occasion):
    return reverse("report_drawer", args=[occasion.organization_id, occasion.pk])


def count(occasion, tenant, pieces=PIECES, verifier=None, secret=PASSWORD, by=None):
    return drawer_services.count_drawer(
        occasion=occasion,
        pieces=pieces,
        verified_by=verifier if verifier is not None else tenant.head,
        verifier_secret=secret,
        by=by or tenant.bookkeeper,
    )


def closed_out(occasion, tenant):
    services.save_closeout(
        occasion=occasion,
        opening_bank=D("200.00"),
        cash_counted=None,
        counts=COUNTS,
        explanation="",
        by=tenant.bookkeeper,
    )


def test_the_drawer_counted_by_two_becomes_the_cash_counted(known_occasion, tenant):
    on_floor(tenant.head, known_occasion)
    closed_out(known_occasion, tenant)
    drawer = count(known_occasion, tenant)
    assert drawer.total == KNOWN["cash_expected_with_200_bank"]
    closeout = CloseOut.objects.get(occasion=known_occasion)
    assert closeout.cash_counted == D("596.00")
    assert closeout.cash_counted_by == tenant.bookkeeper
    assert closeout.cash_verified_by == tenant.head
    assert drawer.verified_by == tenant.head and drawer.counted_by == tenant.bookkeeper
    event = AuditEvent.objects.get(action="reports.drawer.counted")
    assert event.new_values["pieces"] == PIECES and event.new_values["total"] == "596.00"
    figures = compute_figures(known_occasion)
    assert figures["cash"]["variance"] == D("0.00")
    services.file_report(occasion=known_occasion, by=tenant.bookkeeper)


@pytest.mark.parametrize(
    "verifier,secret,message",
    [
        ("none", "", "A second person verifies the cash counted"),
        ("self", PASSWORD, "cannot also verify the count"),
        ("head", "wrong-password", "has not confirmed the count with their own password or PIN"),
        ("absent", PASSWORD, "did not work at this occasion"),
    ],
)
def test_a_drawer_without_its_own_second_person_is_refused_under_3_04_1_e(
    known_occasion, tenant, verifier, secret, message
):
    on_floor(tenant.head, known_occasion)
    on_floor(tenant.bookkeeper, known_occasion, role="bookkeeper")
    closed_out(known_occasion, tenant)
    absent = make_user("post-one-absent")  # a worker's login, not on that night's floor
    assign_role(organization=tenant.organization, by=None, user=absent, role="worker")
    who = {
        "none": None,
        "self": tenant.bookkeeper,
        "head": tenant.head,
        "absent": absent,
    }[verifier]
    with pytest.raises(rules.RuleViolation, match=message):
        drawer_services.count_drawer(
            occasion=known_occasion,
            pieces=PIECES,
            verified_by=who,
            verifier_secret=secret,
            by=tenant.bookkeeper,
        )
    assert not DrawerCount.objects.exists()
    assert CloseOut.objects.get().cash_counted is None
    assert RefusedAction.objects.get().citations == "961 CMR 3.04(1)(e)"


def test_a_compensated_bookkeeper_verifies_no_cash_count_citing_1g(known_occasion, tenant):
    """The hole: refused under the count's paragraph, (1)(e), with (1)(g) in its words."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from organizations.models import DirectorAuthorization

    on_floor(tenant.head, known_occasion)
    on_floor(tenant.bookkeeper, known_occasion, role="bookkeeper")
    person = tenant.bookkeeper.org_roles.first().person
    person.worker_list_entries.update(compensated=True)
    closed_out(known_occasion, tenant)
    with pytest.raises(rules.RuleViolation) as refused:
        count(known_occasion, tenant, verifier=tenant.bookkeeper, by=tenant.head)
    assert refused.value.citations == ["961 CMR 3.04(1)(g)"]
    assert "cannot verify the cash count" in refused.value.messages[0]
    assert not DrawerCount.objects.exists()
    DirectorAuthorization.objects.create(
        organization=tenant.organization,
        kind="1g_bookkeeper",
        reference_number="MSLC-1G-0007",
        subject="The bookkeeper may verify the cash",
        person=person,
        valid_from=known_occasion.date,
        document=SimpleUploadedFile("letter.pdf", b"%PDF-1.4 letter", "application/pdf"),
    )
    drawer = count(known_occasion, tenant, verifier=tenant.bookkeeper, by=tenant.head)
    assert drawer.verified_by == tenant.bookkeeper


def save_cash(occasion, tenant, verifier=None, secret=PASSWORD, cash="596.00"):
    return services.save_closeout(
        occasion=occasion,
        opening_bank=D("200.00"),
        cash_counted=D(cash),
        counts=COUNTS,
        explanation="",
        cash_verified_by=verifier,
        cash_verifier_secret=secret,
        by=tenant.bookkeeper,
    )


def test_the_cash_saved_again_with_the_same_figure_records_a_new_verifier(known_occasion, tenant):
    """The hole: the verifier's fields were ignored when the figure had not changed, so the
    page said "saved" and kept the first verifier."""
    on_floor(tenant.head, known_occasion)
    on_floor(tenant.worker, known_occasion)
    save_cash(known_occasion, tenant, verifier=tenant.head)
    closeout = save_cash(known_occasion, tenant, verifier=tenant.worker)
    assert closeout.cash_verified_by == tenant.worker
    event = AuditEvent.objects.filter(action="reports.closeout.saved").latest("sequence")
    assert event.new_values["cash_verified_by"] == tenant.worker.get_username()


def test_the_same_figure_with_a_new_verifiers_wrong_pin_is_refused(known_occasion, tenant):
    on_floor(tenant.head, known_occasion)
    on_floor(tenant.worker, known_occasion)
    save_cash(known_occasion, tenant, verifier=tenant.head)
    with pytest.raises(rules.RuleViolation, match="has not confirmed the count"):
        save_cash(known_occasion, tenant, verifier=tenant.worker, secret="wrong")
    assert CloseOut.objects.get().cash_verified_by == tenant.head
    assert RefusedAction.objects.get().citations == "961 CMR 3.04(1)(e)"


def test_the_same_figure_saved_again_without_a_verifier_keeps_the_verification(
    known_occasion, tenant
):
    on_floor(tenant.head, known_occasion)
    first = save_cash(known_occasion, tenant, verifier=tenant.head)
    again = save_cash(known_occasion, tenant)  # the counts corrected, the cash untouched
    assert again.cash_verified_by == tenant.head
    assert again.cash_verified_at == first.cash_verified_at


def test_the_cash_changed_after_the_drawer_count_is_refused_at_filing(known_occasion, tenant):
    on_floor(tenant.head, known_occasion)
    closed_out(known_occasion, tenant)
    count(known_occasion, tenant)
    services.save_closeout(
        occasion=known_occasion,
        opening_bank=D("200.00"),
        cash_counted=D("600.00"),
        counts=COUNTS,
        explanation="Four dollars found in the caller's apron after the count.",
        cash_verified_by=tenant.head,
        cash_verifier_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    with pytest.raises(rules.RuleViolation, match="count the drawer again"):
        services.file_report(occasion=known_occasion, by=tenant.bookkeeper)
    assert RefusedAction.objects.get().citations == "961 CMR 3.04(1)(e)"
    count(known_occasion, tenant, pieces=PIECES | {"1": 4})
    report = services.file_report(occasion=known_occasion, by=tenant.bookkeeper)
    assert report.figures["cash"]["counted"] == "600.00"


@pytest.mark.parametrize(
    "pieces,message",
    [
        ({}, "Count at least one piece"),
        ({"20": -1}, "Give the number of pieces"),
        ({"3": 1}, "Unknown denomination"),
        ({"20": True}, "Give the number of pieces"),
    ],
)
def test_a_bad_drawer_saves_nothing(known_occasion, tenant, pieces, message):
    on_floor(tenant.head, known_occasion)
    with pytest.raises(Exception, match=message):
        count(known_occasion, tenant, pieces=pieces)
    assert not DrawerCount.objects.exists()


def test_the_drawer_page_counts_and_compares_with_the_cash_expected(client, known_occasion, tenant):
    on_floor(tenant.head, known_occasion)
    login(client, tenant.bookkeeper)
    page = client.get(drawer_url(known_occasion)).content.decode()
    assert "Cash expected" in page and "$396.00" in page  # no opening bank entered yet
    data = {f"n_{k}": v for k, v in PIECES.items()}
    data |= {"verified_by": tenant.head.pk, "verifier_secret": PASSWORD}
    response = client.post(drawer_url(known_occasion), data)
    assert response.status_code == 302
    assert DrawerCount.objects.get().total == D("596.00")
    page = client.get(drawer_url(known_occasion)).content.decode()
    assert "+$200.00" in page and "$20 bills" in page


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"n_20": "1e3"}, "whole number"),
        ({"n_20": "-2"}, "cannot be negative"),
        ({"verifier_secret": "nope"}, "has not confirmed"),
    ],
)
def test_the_drawer_page_refuses_bad_input_and_saves_nothing(
    client, known_occasion, tenant, changes, message
):
    on_floor(tenant.head, known_occasion)
    login(client, tenant.bookkeeper)
    data = {f"n_{k}": v for k, v in PIECES.items()}
    data |= {"verified_by": tenant.head.pk, "verifier_secret": PASSWORD} | changes
    response = client.post(drawer_url(known_occasion), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not DrawerCount.objects.exists()


def test_the_drawer_page_is_another_organizations_404_and_an_inspectors_read(
    client, known_occasion, other_tenant, inspector
):
    login(client, other_tenant.head)
    assert client.get(drawer_url(known_occasion)).status_code == 404
    assert client.post(drawer_url(known_occasion), {}).status_code == 404
    login(client, inspector)
    assert client.get(drawer_url(known_occasion)).status_code == 200
    assert client.post(drawer_url(known_occasion), {"n_20": "1"}).status_code == 403
    assert not DrawerCount.objects.exists()


def test_the_closeout_page_links_the_drawer_without_naming_banking(client, known_occasion, tenant):
    """The close-out (reports) names no page of banking, the app above it: its counts and cash
    card shows the drawer's link banking puts at its place (``beano.links``)."""
    login(client, tenant.bookkeeper)
    url = reverse("report_closeout", args=[known_occasion.organization_id, known_occasion.pk])
    page = client.get(url).content.decode()
    assert f'href="{drawer_url(known_occasion)}">The drawer counted by denomination</a>' in page

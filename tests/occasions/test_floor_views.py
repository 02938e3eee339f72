"""The floor pages on the hall laptop: plain posts and htmx, refusals with their citations, bad
input never a server error. Access from other organizations and inspectors is covered for every
page in tests/organizations/test_views.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from beano.rules.models import RefusedAction
from occasions.models import Handover, Occasion, OpeningCheck, WorkerPresence
from organizations.models import AuditEvent
from tests.conftest import login
from tests.fixtures.floor import on_floor
from tests.occasions.conftest import at, listed

#: The POST of a final act confirmed from its summary (occasions.confirm).
YES = {"confirmed": "yes"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, occasion: Occasion, **extra: int) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk, **extra})


@pytest.fixture
def mic_client(client, tenant, clock):
    clock["now"] = at(18, 50)
    login(client, tenant.member_in_charge)
    return client


# The opening checklist


def test_the_checklist_shows_every_item_with_its_citation(mic_client, occasion):
    page = mic_client.get(url("opening_checklist", occasion)).content.decode()
    for citation in ("3.04(1)(a)", "3.04(3)(c)", "3.04(4)(b)", "3.04(9)(c)", "3.04(7)"):
        assert citation in page
    assert "0</strong> of 11 confirmed" in page
    assert 'hx-post="' in page and "Open the occasion" in page


def test_a_plain_post_confirms_an_item_and_comes_back_to_the_checklist(
    mic_client, tenant, occasion
):
    on_floor(tenant.member_in_charge, occasion)  # signed in first (3.04(1)(b))
    response = mic_client.post(
        url("opening_check", occasion), {"item": "notices", "confirmed": "on"}
    )
    assert response.status_code == 302
    assert response["Location"] == url("opening_checklist", occasion)
    assert OpeningCheck.objects.get().item == "notices"


def test_htmx_confirms_and_withdraws_and_gets_the_checklist_back(mic_client, tenant, occasion):
    on_floor(tenant.member_in_charge, occasion)
    response = mic_client.post(
        url("opening_check", occasion), {"item": "no_minors", "confirmed": "on"}, **HTMX
    )
    page = response.content.decode()
    assert response.status_code == 200 and "<html" not in page
    assert 'id="opening-checklist"' in page and "1</strong> of 11 confirmed" in page
    mic_client.post(url("opening_check", occasion), {"item": "no_minors"}, **HTMX)
    assert not OpeningCheck.objects.exists()


@pytest.mark.parametrize(
    "data", [{}, {"item": "bar_closed", "confirmed": "on"}, {"item": ["x", "y"], "confirmed": "2"}]
)
def test_bad_checklist_input_is_answered_not_a_server_error(mic_client, occasion, data):
    assert mic_client.post(url("opening_check", occasion), data).status_code == 302
    response = mic_client.post(url("opening_check", occasion), data, **HTMX)
    assert response.status_code == 200 and "Refused" in response.content.decode()
    assert not OpeningCheck.objects.exists()


def test_open_shows_every_refusal_with_its_citation_and_logs_it(mic_client, occasion):
    for extra in ({}, HTMX):
        response = mic_client.post(url("occasion_open", occasion), YES, **extra)
        page = response.content.decode()
        assert response.status_code == 200
        assert "961 CMR 3.04(9)(b)" in page and "961 CMR 3.04(4)(c)" in page
    assert RefusedAction.objects.filter(action="occasion.open").count() == 2
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.SCHEDULED


def test_open_by_htmx_sends_the_browser_to_the_occasion(mic_client, ready):
    response = mic_client.post(url("occasion_open", ready), YES, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == url("occasion_detail", ready)
    ready.refresh_from_db()
    assert ready.is_open
    page = mic_client.get(url("opening_checklist", ready)).content.decode()
    assert "Opened at 6:50 PM" in page and "check-toggle" in page and "hx-post" not in page


def test_the_occasion_page_carries_the_floor_sections(mic_client, ready):
    page = mic_client.get(url("occasion_detail", ready)).content.decode()
    assert "Every item is confirmed." in page
    assert "2 workers signed in now." in page
    assert page.index("Opening checklist") < page.index("Price list")
    mic_client.post(url("occasion_open", ready), YES)
    page = mic_client.get(url("occasion_detail", ready)).content.decode()
    assert "Opened at" in page and "Close the occasion" in page


# Workers present


def test_a_plain_sign_in_comes_back_to_the_page_with_the_worker_present(
    mic_client, tenant, occasion
):
    entry = listed(tenant, "Mary Gallagher", ["seller"], "P-06")
    on_floor(tenant.member_in_charge, occasion)  # who signs others in is signed in first
    data = {"entry": entry.pk, "role": "seller", "identification": "P-06"}
    response = mic_client.post(url("workers_present", occasion), data, follow=True)
    page = response.content.decode()
    assert "Mary Gallagher is signed in as Seller." in page
    assert WorkerPresence.objects.filter(entry=entry).exists()


def test_htmx_sign_in_refused_for_no_identification_shows_the_citation(
    mic_client, tenant, occasion
):
    entry = listed(tenant, "Emily Souza", ["seller"], "")
    page = mic_client.get(url("workers_present", occasion)).content.decode()
    assert "No ID recorded on the list" in page
    data = {"entry": entry.pk, "role": "seller", "identification": ""}
    response = mic_client.post(url("workers_present", occasion), data, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200 and 'id="workers-panel"' in page and "<html" not in page
    assert "961 CMR 3.04(1)(d)" in page
    assert not WorkerPresence.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"entry": "abc", "role": "seller"},
        {"entry": "999999", "role": "seller"},
        {"entry": "{entry}", "role": "pope"},
        {"entry": "{entry}", "role": "seller", "identification": "x" * 61},
    ],
)
def test_bad_sign_in_input_is_answered_not_a_server_error(mic_client, tenant, occasion, data):
    entry = listed(tenant, "Mary Gallagher", ["seller"], "P-06")
    data = {k: v.format(entry=entry.pk) for k, v in data.items()}
    for extra in ({}, HTMX):
        response = mic_client.post(url("workers_present", occasion), data, **extra)
        assert response.status_code == 200
        assert "Refused" in response.content.decode()
    assert not WorkerPresence.objects.exists()


def test_another_organizations_worker_cannot_be_picked(mic_client, occasion, other_tenant):
    stranger = listed(other_tenant, "Paul Costa", ["seller"], "X-1")
    data = {"entry": stranger.pk, "role": "seller", "identification": "X-1"}
    response = mic_client.post(url("workers_present", occasion), data)
    assert "Choose a person on this year" in response.content.decode()
    assert not WorkerPresence.objects.exists()


def test_sign_out_and_handover_through_the_page(mic_client, tenant, ready, crew, clock):
    mic_client.post(url("occasion_open", ready), YES)
    linda = WorkerPresence.objects.get(role="member_in_charge")
    response = mic_client.post(url("worker_sign_out", ready, presence_pk=linda.pk), **HTMX)
    assert "961 CMR 3.04(1)(a)" in response.content.decode()
    data = {"entry": crew["anne"].pk, "role": "member_in_charge", "identification": "P-07"}
    mic_client.post(url("workers_present", ready), data, **HTMX)
    anne = WorkerPresence.objects.get(entry=crew["anne"])
    bad = mic_client.post(url("worker_hand_over", ready), {"to_presence": linda.pk}, **HTMX)
    assert bad.status_code == 200 and "Refused" in bad.content.decode()
    clock["now"] = at(20, 0)
    response = mic_client.post(
        url("worker_hand_over", ready), {"to_presence": anne.pk, "reason": "Called away"}
    )
    assert response.status_code == 302 and Handover.objects.get().to_presence == anne
    response = mic_client.post(url("worker_sign_out", ready, presence_pk=linda.pk), **HTMX)
    page = response.content.decode()
    assert "Linda Souza is signed out." in page and "Handovers" in page
    assert not WorkerPresence.objects.get(pk=linda.pk).is_present


def test_a_presence_of_another_occasion_is_not_found(mic_client, tenant, presence):
    other = Occasion.objects.create(
        organization=tenant.organization,
        license=presence.occasion.license,
        date=presence.occasion.date.replace(day=11),
    )
    response = mic_client.post(url("worker_sign_out", other, presence_pk=presence.pk))
    assert response.status_code == 404


def test_a_worker_reads_the_floor_but_cannot_sign_anyone_in(client, tenant, occasion, clock):
    entry = listed(tenant, "Mary Gallagher", ["seller"], "P-06")
    login(client, tenant.worker)
    page = client.get(url("workers_present", occasion)).content.decode()
    assert "Sign in from the" not in page
    data = {"entry": entry.pk, "role": "seller", "identification": "P-06"}
    assert client.post(url("workers_present", occasion), data).status_code == 403
    assert client.post(url("occasion_open", occasion)).status_code == 403


# The close


def test_the_close_page_summarises_and_closes_once(mic_client, ready, clock):
    mic_client.post(url("occasion_open", ready), YES)
    page = mic_client.get(url("occasion_close", ready)).content.decode()
    assert "Karen Pacheco" in page and "3.04(1)(g)" in page and "Close the occasion" in page
    clock["now"] = at(22, 15)
    response = mic_client.post(url("occasion_close", ready), YES)
    assert response.status_code == 302
    ready.refresh_from_db()
    assert ready.status == Occasion.Status.CLOSED
    again = mic_client.post(url("occasion_close", ready), YES)
    assert again.status_code == 200 and "closing is not possible" in again.content.decode()
    page = mic_client.get(url("workers_present", ready)).content.decode()
    assert "everyone was signed out at 10:15 PM" in page


def test_close_is_refused_on_the_page_without_the_paid_bookkeeper(mic_client, ready):
    mic_client.post(url("occasion_open", ready), YES)
    WorkerPresence.objects.filter(role="bookkeeper").delete()
    response = mic_client.post(url("occasion_close", ready), YES)
    page = response.content.decode()
    assert response.status_code == 200 and "961 CMR 3.04(1)(g)" in page
    assert "Karen Pacheco is a compensated bookkeeper but was not present" in page


# The confirmation before the final acts: an unconfirmed POST does nothing and shows the summary


def _unchanged(occasion, status):
    occasion.refresh_from_db()
    return occasion.status == status


def test_an_unconfirmed_open_does_nothing_and_shows_what_it_will_do(mic_client, ready):
    events = AuditEvent.objects.count()
    for extra in ({}, HTMX):
        response = mic_client.post(url("occasion_open", ready), **extra)
        page = response.content.decode()
        assert response.status_code == 200 and "Open the occasion?" in page
        assert "Record Linda Souza as the member in charge, with 2 workers signed in." in page
        assert 'name="confirmed" value="yes"' in page and "Yes, open the occasion" in page
        assert "An opening cannot be undone" in page
        assert "It would be refused now" not in page
    assert ("<html" in page) is False  # htmx gets the checklist back, the summary in it
    assert _unchanged(ready, Occasion.Status.SCHEDULED)
    assert AuditEvent.objects.count() == events


def test_an_unconfirmed_open_names_what_the_rules_would_refuse_and_logs_nothing(
    mic_client, occasion
):
    page = mic_client.post(url("occasion_open", occasion)).content.decode()
    assert "It would be refused now" in page and "961 CMR 3.04(9)(b)" in page
    assert not RefusedAction.objects.exists()
    assert _unchanged(occasion, Occasion.Status.SCHEDULED)


def test_an_unconfirmed_close_does_nothing_and_shows_what_is_unfinished(mic_client, ready, clock):
    mic_client.post(url("occasion_open", ready), YES)
    events = AuditEvent.objects.count()
    clock["now"] = at(22, 15)
    response = mic_client.post(url("occasion_close", ready))
    page = response.content.decode()
    assert response.status_code == 200 and "Close the occasion?" in page
    assert "Close the occasion at 10:15 PM." in page
    assert "2 still signed in (" in page and "the close signs them out" in page
    assert "The door&#x27;s attendance count has not been announced." in page
    assert "can be amended from the close-out page" in page
    assert _unchanged(ready, Occasion.Status.OPEN)
    assert AuditEvent.objects.count() == events
    assert WorkerPresence.objects.filter(signed_out_at__isnull=True).count() == 2

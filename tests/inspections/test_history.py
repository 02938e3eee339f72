"""A record's history from the audit trail, and the chain check: intact through event N, or
the first event that was altered."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.urls import reverse

from organizations.models import AuditEvent
from tests.conftest import login


def test_a_records_history_shows_who_changed_what(client, tenant, inspector, worker_entry):
    from django.utils import timezone

    from organizations.worker_services import update_worker_list_entry

    update_worker_list_entry(
        entry=worker_entry,
        roles=["seller", "floor_worker"],
        identification="B-202",
        compensated=False,
        compensation_note="",
        good_moral_character_attested=False,
        attested_by="",
        on=timezone.localdate(),
        by=tenant.head,
    )
    login(client, inspector)
    url = reverse(
        "record_history",
        kwargs={
            "org_id": tenant.organization.pk,
            "target_type": "organizations.workerlistentry",
            "target_id": worker_entry.pk,
        },
    )
    page = client.get(url).content.decode()
    assert "B-101" in page and "B-202" in page and tenant.head.username in page
    worker_list = client.get(reverse("worker_list", args=[tenant.organization.pk])).content.decode()
    assert url in worker_list


def test_a_history_of_nothing_is_404(client, tenant, inspector):
    login(client, inspector)
    for target_type, target_id in (("occasions.occasion", "999999"), ("nonsense", "1")):
        url = reverse(
            "record_history",
            kwargs={
                "org_id": tenant.organization.pk,
                "target_type": target_type,
                "target_id": target_id,
            },
        )
        assert client.get(url).status_code == 404


def test_the_chain_check_finds_an_altered_event(client, tenant, inspector, member, worker_entry):
    url = reverse("chain_check", args=[tenant.organization.pk])
    login(client, inspector)
    events = AuditEvent.objects.filter(organization=tenant.organization)
    last = events.order_by("-sequence").first().sequence
    page = client.get(url).content.decode()
    assert f"<strong>Intact</strong> through event {last}." in page
    altered = events.get(action="organizations.membership.added")
    AuditEvent.objects.filter(pk=altered.pk).update(actor_label="someone-else")
    page = client.get(url).content.decode()
    assert f"Broken at event {altered.sequence}</strong>" in page
    assert "its content was changed after it was written" in page
    assert client.post(url).status_code == 403
    login(client, tenant.worker)
    assert client.get(url).status_code == 403


def test_an_event_entered_after_the_fact_says_where_it_came_from(client, tenant, occasion):
    """On the record's history and on the organization's audit trail, in words."""
    from django.db import transaction

    from organizations.audit import provenance, record_event

    entered = {
        "entered": "after the fact",
        "source": "pages",
        "paper_record": 1,
        "sheet": "Door tally",
        "entered_by": tenant.bookkeeper.username,
        "entered_at": "2026-12-09T09:14:00-05:00",
    }
    closed = {
        "entered": "after the fact",
        "closed_late": True,
        "reason": "Forgotten on the night",
        "entered_by": tenant.member_in_charge.username,
        "entered_at": "2026-12-07T09:20:00-05:00",
    }
    with transaction.atomic():
        for values, action in ((entered, "occasions.sale.tallied"), (closed, "occasions.closed")):
            with provenance(values):
                record_event(
                    organization=tenant.organization, actor=None, action=action, target=occasion
                )
    login(client, tenant.head)
    history = reverse(
        "record_history",
        kwargs={
            "org_id": tenant.organization.pk,
            "target_type": "occasions.occasion",
            "target_id": occasion.pk,
        },
    )
    trail = reverse("audit_log", args=[tenant.organization.pk])
    for url in (history, trail):
        page = client.get(url).content.decode()
        assert (
            "Entered after the fact from the Door tally sheet by post-one-bookkeeper on "
            "Dec 9, 2026 at 9:14 AM"
        ) in page
        assert (
            "Closed after the fact by post-one-member_in_charge on Dec 7, 2026 at 9:20 AM: "
            "Forgotten on the night"
        ) in page


def test_the_chain_check_checks_what_the_chain_vouches_for(client, tenant, inspector, member):
    """Beyond the chain: the money records against their trail, and the last checkpoint."""
    from organizations import checkpoints
    from organizations.models import AuditChain
    from reports.models import LawfulPurposeDisbursement
    from reports.services import record_disbursement

    org = tenant.organization
    url = reverse("chain_check", args=[org.pk])
    login(client, inspector)
    before = AuditChain.objects.get(organization=org)
    paid = record_disbursement(
        organization=org,
        paid_on=dt.date(2026, 1, 5),
        payee="Fairhaven Food Pantry",
        purpose="Groceries",
        amount=Decimal("250.00"),
        by=tenant.bookkeeper,
    )
    page = client.get(url).content.decode()
    assert "none of this chain yet" in page
    assert "1 money record (sales" in page
    checkpoints.write()
    page = client.get(url).content.decode()
    assert f"the chain still holds event {before.length + 1} as the checkpoint" in page

    LawfulPurposeDisbursement.objects.filter(pk=paid.pk).update(amount=Decimal("2500.00"))
    page = client.get(url).content.decode()
    assert "<strong>Intact</strong>" in page
    assert (
        f"reports.lawfulpurposedisbursement #{paid.pk}: amount is &#x27;2500.00&#x27;, but audit "
        f"event {before.length + 1} recorded &#x27;250.00&#x27;"
    ) in page

    # The disbursement's event cut off and the head as it was before put back: only the
    # checkpoint tells, and the disbursement is left with no event.
    AuditEvent.objects.filter(organization=org, sequence__gt=before.length).delete()
    before.save()
    page = client.get(url).content.decode()
    assert "<strong>Intact</strong>" in page
    assert f"recorded {before.length + 1} events" in page and "cut short" in page
    assert f"#{paid.pk}: no audit event records it" in page

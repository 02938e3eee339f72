"""The periodic whole check of the audit chains and its checkpoint: the task checks every chain
from its first event and records the last event it found intact, sealed; the audit trail page
checks only the events after it and says when the whole chain was last verified. An event
changed before the checkpoint is found by the task and by ``check_audit_chains``; one changed
after it, by the page too."""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from organizations import services
from organizations.models import AuditChain, AuditEvent, ChainVerification
from organizations.tasks import verify_audit_chains
from organizations.verification import page_check
from tests.conftest import login


def _write(tenant, n: int) -> None:
    for i in range(n):
        services.update_organization_details(
            organization=tenant.organization, by=tenant.head, telephone=f"508-555-{1000 + i}"
        )


def _events(tenant) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(organization=tenant.organization).order_by("sequence"))


def _tamper(event: AuditEvent) -> None:
    AuditEvent.objects.filter(pk=event.pk).update(new_values={"telephone": "508-555-9999"})


@pytest.fixture
def verified(tenant):
    """Six events, then the periodic task run: the checkpoint is the sixth."""
    _write(tenant, 6)
    result = verify_audit_chains()
    assert result["broken"] == []
    return ChainVerification.objects.get(chain__organization=tenant.organization)


def test_the_task_checks_every_chain_whole_and_records_a_sealed_checkpoint(
    tenant, other_tenant, verified
):
    events = _events(tenant)
    assert verified.through_sequence == len(events)
    assert verified.through_hash == events[-1].hash
    assert verified.verified_at is not None and verified.problem == ""
    assert verified.sealed and verified.seal_key_id == settings.AUDIT_KEY_ID
    # Every chain, the other organization's too.
    assert ChainVerification.objects.filter(chain__organization=other_tenant.organization).exists()


def test_the_page_checks_only_the_events_after_the_checkpoint(client, tenant, verified):
    _write(tenant, 2)
    check = page_check(tenant.organization)
    assert check.from_checkpoint and check.ok
    assert check.check.intact_through == verified.through_sequence + 2
    login(client, tenant.head)
    page = client.get(reverse("audit_log", args=[tenant.organization.pk])).content.decode()
    assert f"Checked now from event {verified.through_sequence}" in page
    assert "The whole chain was last verified" in page and "alert-success" in page


def test_an_event_changed_after_the_checkpoint_is_found_by_the_page(client, tenant, verified):
    _write(tenant, 3)
    changed = _events(tenant)[verified.through_sequence + 1]
    _tamper(changed)
    check = page_check(tenant.organization)
    assert check.from_checkpoint and not check.ok
    assert check.check.broken_at == changed.sequence
    login(client, tenant.head)
    page = client.get(reverse("audit_log", args=[tenant.organization.pk])).content.decode()
    assert f"Broken at event {changed.sequence}" in page and "alert-danger" in page


def test_an_event_changed_before_the_checkpoint_is_found_by_the_task_and_the_command(
    client, tenant, verified
):
    changed = _events(tenant)[2]
    _tamper(changed)
    # The page checks from the checkpoint: not its to find.
    assert page_check(tenant.organization).ok
    with pytest.raises(CommandError):
        call_command("check_audit_chains", stdout=io.StringIO())
    result = verify_audit_chains()
    assert result["broken"] == [f"org:{tenant.organization.pk}"]
    row = ChainVerification.objects.get(pk=verified.pk)
    assert f"Broken at event {changed.sequence}" in row.problem
    # The checkpoint stays where it was; the page now says what the whole check found.
    assert (row.through_sequence, row.verified_at) == (
        verified.through_sequence,
        verified.verified_at,
    )
    login(client, tenant.head)
    page = client.get(reverse("audit_log", args=[tenant.organization.pk])).content.decode()
    assert "The last whole check" in page and f"Broken at event {changed.sequence}" in page
    assert "alert-danger" in page


def test_the_checkpoints_own_event_changed_is_found_by_the_page(tenant, verified):
    _write(tenant, 1)
    last = AuditEvent.objects.get(
        organization=tenant.organization, sequence=verified.through_sequence
    )
    last.new_values = {"telephone": "forged"}
    last.hash = "f" * 64
    last.save()
    check = page_check(tenant.organization)
    assert not check.ok and check.check.broken_at == verified.through_sequence


def test_a_checkpoint_moved_without_the_key_is_not_trusted(tenant, verified):
    """Moving the checkpoint on past a changed event (the database alone) breaks its seal: the
    page checks the whole chain and finds the change."""
    _write(tenant, 3)
    events = _events(tenant)
    changed = events[verified.through_sequence]
    _tamper(changed)
    ChainVerification.objects.filter(pk=verified.pk).update(
        through_sequence=events[-1].sequence, through_hash=events[-1].hash
    )
    check = page_check(tenant.organization)
    assert not check.from_checkpoint
    assert not check.ok and check.check.broken_at == changed.sequence


def test_without_a_checkpoint_the_page_checks_the_whole_chain(client, tenant):
    _write(tenant, 2)
    check = page_check(tenant.organization)
    assert not check.from_checkpoint and check.ok
    login(client, tenant.head)
    page = client.get(reverse("audit_log", args=[tenant.organization.pk])).content.decode()
    assert "no periodic whole check has recorded a checkpoint yet" in page


def test_the_page_reads_as_many_queries_whatever_the_chain_before_the_checkpoint(tenant):
    _write(tenant, 3)
    verify_audit_chains()
    _write(tenant, 1)
    with CaptureQueriesContext(connection) as short:
        assert page_check(tenant.organization).ok
    _write(tenant, 40)
    verify_audit_chains()
    _write(tenant, 1)
    with CaptureQueriesContext(connection) as long:
        check = page_check(tenant.organization)
    assert check.ok and check.from_checkpoint
    assert len(long) == len(short)
    # Only the checkpoint's event and the one after it were read.
    chain = AuditChain.objects.get(organization=tenant.organization)
    assert check.check.intact_through == chain.length


def test_the_whole_check_runs_hourly_from_beat():
    entry = next(
        e
        for e in settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "organizations.verify_audit_chains"
    )
    assert entry["schedule"].minute == {settings.AUDIT_VERIFY_MINUTE}
    assert len(entry["schedule"].hour) == 24

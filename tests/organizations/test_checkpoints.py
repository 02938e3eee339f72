"""Checkpoints of the audit chains, written outside the database (a file of JSON lines, and an
e-mail to the Commission), and the check against the last of them."""

from __future__ import annotations

import io
import json
import stat

import pytest
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError

from organizations import checkpoints, services
from organizations.audit import verify_chain
from organizations.models import AuditChain, AuditEvent


def lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_checkpoint_appends_each_chains_length_and_head(tenant, other_tenant, settings):
    out = io.StringIO()
    call_command("audit_checkpoint", stdout=out, stderr=io.StringIO())
    file = settings.AUDIT_CHECKPOINT_FILE
    written = lines(file)
    chains = {c.key: c for c in AuditChain.objects.all()}
    assert {(w["chain"], w["length"], w["head"]) for w in written} == {
        (c.key, c.length, c.head_hash) for c in chains.values()
    }
    assert written[0]["name"] in {"Post One", "Parish Two"}
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert out.getvalue().splitlines() == file.read_text().splitlines()
    # Append-only: the next checkpoint goes after the first, which stays as it was.
    services.update_organization_details(
        organization=tenant.organization, by=tenant.head, telephone="508-555-0100"
    )
    call_command("audit_checkpoint", stdout=io.StringIO(), stderr=io.StringIO())
    again = lines(file)
    assert again[: len(written)] == written and len(again) == 2 * len(written)
    key = f"org:{tenant.organization.pk}"
    assert checkpoints.last()[key].length == chains[key].length + 1


def test_the_nightly_task_emails_the_checkpoint_to_the_commission(tenant, settings):
    from organizations.tasks import write_audit_checkpoint

    settings.AUDIT_CHECKPOINT_EMAIL = ["audits@example.gov"]
    result = write_audit_checkpoint.apply().get()
    assert result["chains"] == 1
    (message,) = mail.outbox
    assert message.to == ["audits@example.gov"]
    assert "Audit chain checkpoint" in message.subject
    (name, content, _kind) = message.attachments[0]
    assert name.endswith(".jsonl")
    assert content == settings.AUDIT_CHECKPOINT_FILE.read_text()
    assert f'"chain": "org:{tenant.organization.pk}"' in message.body


def test_no_address_no_email(tenant, settings):
    settings.AUDIT_CHECKPOINT_EMAIL = []
    checkpoints.write()
    assert mail.outbox == [] and settings.AUDIT_CHECKPOINT_FILE.exists()


def test_beat_sends_the_checkpoint_task_every_night(settings):
    from beano.celery import app

    app.loader.import_default_modules()
    (entry,) = [
        e
        for e in settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "organizations.write_audit_checkpoint"
    ]
    assert entry["task"] in app.tasks
    assert entry["schedule"].hour == {settings.AUDIT_CHECKPOINT_HOUR}


def test_the_last_checkpoint_of_each_chain_is_read_from_the_end(tmp_path):
    file = tmp_path / "checkpoints.jsonl"
    old = [
        checkpoints.Checkpoint(f"2026-01-{d:02d}T03:15:00+00:00", f"org:{n}", n, "x", d, "a" * 64)
        for d in range(1, 29)
        for n in range(1, 200)
    ]
    checkpoints.append(old, file)
    assert file.stat().st_size > 4 * checkpoints.BLOCK
    newest = checkpoints.last(file)
    assert len(newest) == 199 and {c.length for c in newest.values()} == {28}
    assert checkpoints.last(file, chains=["org:7"]) == {"org:7": newest["org:7"]}
    assert checkpoints.last(tmp_path / "none.jsonl") == {}


def test_the_check_passes_while_every_chain_holds_its_checkpoint(tenant, member):
    checkpoints.write()
    services.update_membership(membership=member, by=tenant.head, kind="lapsed", until=None)
    out = io.StringIO()
    call_command("check_audit_chains", stdout=out)
    assert "Holds its checkpoint of" in out.getvalue()


def test_a_chain_cut_short_and_its_old_head_put_back_is_found_by_the_checkpoint(tenant, member):
    """Someone with an old copy of the database puts back its head row (length, head and the
    seal the key made then) and the record as it was, over the events deleted since: the chain
    and the trail check again, and only the checkpoint kept outside the database tells."""
    org = tenant.organization
    old = AuditChain.objects.get(organization=org)
    for kind in ("lapsed", "member", "lapsed", "member", "lapsed"):
        services.update_membership(membership=member, by=tenant.head, kind=kind, until=None)
    checkpoints.write()
    AuditEvent.objects.filter(organization=org, sequence__gt=old.length).delete()
    old.save()
    type(member).objects.filter(pk=member.pk).update(kind="member")
    assert verify_chain(org).ok

    out = io.StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("check_audit_chains", stdout=out)
    assert (
        "Checkpoint: cut short: the checkpoint of" in out.getvalue()
        and f"recorded {old.length + 5} events" in out.getvalue()
        and f"the chain now holds {old.length}." in out.getvalue()
    )


def test_a_checkpoint_kept_elsewhere_can_be_named(tenant, member, tmp_path):
    kept = tmp_path / "from-the-email.jsonl"
    checkpoints.append(checkpoints.take(), kept)
    org = tenant.organization
    chain = AuditChain.objects.get(organization=org)
    AuditEvent.objects.filter(organization=org, sequence=chain.length).delete()
    # A chain whose checkpoint is elsewhere is not compared with it unless named.
    with pytest.raises(CommandError):
        call_command("check_audit_chains", "--checkpoint", str(kept), stdout=io.StringIO())
    with pytest.raises(CommandError, match="No checkpoint file at"):
        call_command("check_audit_chains", "--checkpoint", str(tmp_path / "x"))


def test_a_checkpointed_chain_that_is_gone_is_named(tenant, settings):
    checkpoints.append(
        [checkpoints.Checkpoint("2026-01-01T03:15:00+00:00", "org:999999", 999999, "Gone", 4, "a")]
    )
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 checkpointed chain"):
        call_command("check_audit_chains", stdout=out)
    assert "The chain org:999999 (Gone) recorded by the checkpoint of" in out.getvalue()


def test_a_damaged_checkpoint_file_stops_the_check(tenant, settings):
    settings.AUDIT_CHECKPOINT_FILE.write_text("not json\n")
    with pytest.raises(CommandError, match="has a line that is not a checkpoint"):
        call_command("check_audit_chains", stdout=io.StringIO())

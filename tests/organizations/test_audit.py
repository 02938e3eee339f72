import datetime as dt
import hashlib
import hmac
import itertools

import pytest
from django.db import transaction

from organizations import services
from organizations.audit import record_event, verify_chain
from organizations.models import AuditChain, AuditEvent


@pytest.fixture
def events(tenant, member):
    services.update_organization_details(
        organization=tenant.organization, by=tenant.head, telephone="508-555-0100"
    )
    services.update_membership(membership=member, by=tenant.head, kind="lapsed", until=None)
    return list(AuditEvent.objects.filter(organization=tenant.organization).order_by("sequence"))


def test_it_chains_each_event_to_the_one_before(tenant, events):
    assert [e.sequence for e in events] == list(range(1, len(events) + 1))
    for before, after in itertools.pairwise(events):
        assert after.prev_hash == before.hash
    check = verify_chain(tenant.organization)
    assert check.ok
    assert check.intact_through == len(events)
    assert str(check) == f"Intact through event {len(events)}."


def test_it_records_who_what_and_the_old_and_new_values(tenant, events):
    update = next(e for e in events if e.action == "organizations.organization.updated")
    assert update.actor == tenant.head
    assert update.actor_label == tenant.head.username
    assert update.old_values == {"telephone": ""}
    assert update.new_values == {"telephone": "508-555-0100"}
    lapse = next(e for e in events if e.action == "organizations.membership.updated")
    assert lapse.old_values == {"kind": "member"} and lapse.new_values == {"kind": "lapsed"}


def test_it_finds_an_altered_event(tenant, events):
    target = events[2]
    AuditEvent.objects.filter(pk=target.pk).update(new_values={"telephone": "508-555-9999"})
    check = verify_chain(tenant.organization)
    assert not check.ok
    assert check.broken_at == target.sequence
    assert check.intact_through == target.sequence - 1
    assert "changed" in check.reason


def test_it_finds_an_event_rehashed_after_alteration(tenant, events):
    """Recomputing the altered event's own hash still breaks the link from the next event."""
    target = events[1]
    target.new_values = {"role": "forged"}
    target.hash = target.compute_hash()
    target.save()
    check = verify_chain(tenant.organization)
    assert check.broken_at == target.sequence + 1
    assert "does not follow" in check.reason


def test_it_finds_a_deleted_event(tenant, events):
    AuditEvent.objects.filter(pk=events[1].pk).delete()
    check = verify_chain(tenant.organization)
    assert check.broken_at == 2
    assert "missing" in check.reason


def test_it_finds_the_last_event_deleted(tenant, events):
    AuditEvent.objects.filter(pk=events[-1].pk).delete()
    check = verify_chain(tenant.organization)
    assert check.broken_at == len(events)
    assert AuditChain.objects.get(organization=tenant.organization).length == len(events)


def test_each_organization_has_its_own_chain(tenant, other_tenant, events):
    assert verify_chain(other_tenant.organization).ok
    first_other = AuditEvent.objects.filter(organization=other_tenant.organization).first()
    assert first_other.sequence == 1


def test_it_masks_secrets(tenant):
    with transaction.atomic():
        event = record_event(
            organization=tenant.organization,
            actor=tenant.head,
            action="test.secret",
            target=tenant.organization,
            new={"password": "hunter2", "winner_tin": "123-45-6789", "amount": "10.00"},
        )
    assert event.new_values == {"password": "•••", "winner_tin": "•••", "amount": "10.00"}
    assert "123-45-6789" not in str(AuditEvent.objects.get(pk=event.pk).__dict__)


@pytest.mark.django_db(transaction=True)
def test_it_refuses_to_write_outside_a_transaction(tenant):
    with pytest.raises(RuntimeError, match="inside the service's transaction"):
        record_event(
            organization=tenant.organization,
            actor=None,
            action="test.outside",
            target=tenant.organization,
        )


def test_a_rolled_back_change_leaves_no_event(tenant):
    before = AuditEvent.objects.count()
    with pytest.raises(ValueError, match="not editable"):
        services.update_organization_details(
            organization=tenant.organization, by=tenant.head, name="Renamed"
        )
    with pytest.raises(Exception):  # noqa: B017 - any refusal; the point is nothing was written
        services.add_member(
            organization=tenant.organization,
            by=tenant.head,
            legal_name="Nobody",
            date_of_birth=dt.date(1990, 1, 1),
            kind="family",
            since=dt.date(2020, 1, 1),
        )
    assert AuditEvent.objects.count() == before
    assert verify_chain(tenant.organization).ok


def test_an_events_provenance_reads_as_a_sentence():
    from organizations.templatetags.audit_tags import provenance_words

    imported = {
        "entered": "after the fact",
        "source": "file",
        "sheet": "Sign-in sheet",
        "entered_by": "books",
        "entered_at": "2026-12-09T14:14:00Z",
        "file": "known.json",
    }
    assert provenance_words(imported) == (
        "entered after the fact from the Sign-in sheet (night file known.json) by books on "
        "Dec 9, 2026 at 9:14 AM"
    )
    assert provenance_words({}) == "" and provenance_words(None) == ""


# -- keyed hashes, legacy events, rotation --------------------------------------------------


def _plain_legacy(organization):
    """The chain as an installation from before the audit key left it: plain SHA-256 hashes,
    named sha256-legacy; then sealed, as migration 0009 seals every chain."""
    import importlib

    from django.apps import apps

    prev = "0" * 64
    for event in AuditEvent.objects.filter(organization=organization).order_by("sequence"):
        event.key_id, event.prev_hash = "sha256-legacy", prev
        event.hash = hashlib.sha256(event.payload()).hexdigest()
        event.save(update_fields=["key_id", "prev_hash", "hash"])
        prev = event.hash
    AuditChain.objects.filter(organization=organization).update(head_hash=prev, seal="")
    importlib.import_module("organizations.migrations.0009_audit_keys").seal_existing_chains(
        apps, None
    )


def test_events_are_keyed_with_the_installations_audit_key(tenant, events, settings):
    key = settings.AUDIT_KEYS[settings.AUDIT_KEY_ID]
    for event in events:
        assert event.key_id == settings.AUDIT_KEY_ID
        assert event.hash == hmac.new(key, event.payload(), hashlib.sha256).hexdigest()
        assert event.hash != hashlib.sha256(event.payload()).hexdigest()
    chain = AuditChain.objects.get(organization=tenant.organization)
    assert chain.seal_key_id == settings.AUDIT_KEY_ID and chain.seal == chain.compute_seal()


def test_legacy_events_verify_ahead_of_the_keyed_ones(tenant, events, member):
    _plain_legacy(tenant.organization)
    assert verify_chain(tenant.organization).ok
    services.update_membership(membership=member, by=tenant.head, kind="member", until=None)
    last = AuditEvent.objects.filter(organization=tenant.organization).last()
    before = AuditEvent.objects.get(organization=tenant.organization, sequence=last.sequence - 1)
    assert before.key_id == "sha256-legacy" and last.key_id != "sha256-legacy"
    assert last.prev_hash == before.hash
    assert verify_chain(tenant.organization).intact_through == last.sequence


def test_a_legacy_event_rewritten_and_hashed_again_is_found_by_the_seal(tenant, events):
    """Someone without the key rewrites a legacy event and every hash after it, and moves the
    head: only the head's seal, which the key makes, stops them."""
    _plain_legacy(tenant.organization)
    prev = "0" * 64
    for event in AuditEvent.objects.filter(organization=tenant.organization).order_by("sequence"):
        if event.sequence == 2:
            event.new_values = {"role": "forged"}
        event.prev_hash = prev
        event.hash = hashlib.sha256(event.payload()).hexdigest()
        event.save()
        prev = event.hash
    AuditChain.objects.filter(organization=tenant.organization).update(head_hash=prev)
    check = verify_chain(tenant.organization)
    assert check.broken_at == len(events) + 1
    assert "does not carry its seal" in check.reason


def test_an_event_under_a_key_this_installation_does_not_hold_is_named(tenant, events):
    AuditEvent.objects.filter(pk=events[2].pk).update(key_id="kunknown")
    check = verify_chain(tenant.organization)
    assert check.broken_at == 3
    assert "audit key kunknown, which this installation does not hold" in check.reason


def test_the_audit_key_rotates_with_the_old_one_kept_as_a_fallback(tenant, events, settings):
    from beano.env import audit_key_id

    old_id = settings.AUDIT_KEY_ID
    new = b"the-next-audit-key-of-this-installation-0123456789"
    settings.AUDIT_KEYS = {audit_key_id(new): new, old_id: settings.AUDIT_KEYS[old_id]}
    settings.AUDIT_KEY_ID = audit_key_id(new)
    assert verify_chain(tenant.organization).ok
    services.update_organization_details(
        organization=tenant.organization, by=tenant.head, telephone="508-555-0199"
    )
    last = AuditEvent.objects.filter(organization=tenant.organization).last()
    assert last.key_id == audit_key_id(new) != old_id
    assert verify_chain(tenant.organization).ok
    # Without the old key, the events it keyed no longer check, and the check says why.
    settings.AUDIT_KEYS = {audit_key_id(new): new}
    check = verify_chain(tenant.organization)
    assert check.broken_at == 1 and old_id in check.reason


def test_a_chain_whose_head_is_not_sealed_is_broken(tenant, events):
    AuditChain.objects.filter(organization=tenant.organization).update(seal="")
    check = verify_chain(tenant.organization)
    assert check.broken_at == len(events) + 1 and "not sealed" in check.reason

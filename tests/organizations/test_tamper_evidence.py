"""Tamper evidence against someone who holds the database but not the installation's secrets:
``check_audit_chains`` on the demo, untouched (status 0) and after each kind of tampering such a
person can do (non-zero, naming what disagrees).

The demo is seeded once for the module; each test changes it inside its own transaction, which
is rolled back after it."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import io
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from organizations.models import AuditChain, AuditEvent, Organization

POST = "American Legion Post 171"


@pytest.fixture
def post(seeded_demo: None, db: Any) -> Organization:
    return Organization.objects.get(name=POST)


def check() -> tuple[bool, str]:
    """``check_audit_chains``: whether it passed, and everything it wrote."""
    out = io.StringIO()
    try:
        call_command("check_audit_chains", stdout=out, stderr=out)
    except CommandError as error:
        return False, out.getvalue() + str(error)
    return True, out.getvalue()


def test_the_untouched_demo_checks(post):
    ok, output = check()
    assert ok, output
    assert f"{POST} (#{post.pk}): Intact through event" in output
    assert "filed reports" in output and "money records" in output


# -- (a) an event edited and the chain hashed again without the installation's key ----------


def attackers_payload(event: AuditEvent) -> bytes:
    """The event's content as the published code hashes it: all an attacker needs but the key."""
    payload = {
        "organization": event.organization_id,
        "sequence": event.sequence,
        "actor": event.actor_label,
        "action": event.action,
        "target": [event.target_type, event.target_id, event.target_repr],
        "old": event.old_values,
        "new": event.new_values,
        "at": event.created_at.astimezone(dt.UTC).isoformat(timespec="microseconds"),
        "prev": event.prev_hash,
    }
    if event.provenance:
        payload["provenance"] = event.provenance
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str).encode()


def keyed(key: bytes) -> Callable[[bytes], str]:
    return lambda message: hmac.new(key, message, hashlib.sha256).hexdigest()


def plain(message: bytes) -> str:
    return hashlib.sha256(message).hexdigest()


ATTACKERS = {
    # Plain SHA-256, the events marked as written before the audit key existed.
    "plain SHA-256 as legacy events": ("sha256-legacy", plain),
    # Plain SHA-256 under the installation's key id.
    "plain SHA-256 under the key's id": (None, plain),
    # A key of the attacker's own, under the installation's key id.
    "a key of their own under the key's id": (None, keyed(b"attackers-own-key-" * 3)),
    # The application's SECRET_KEY, which the audit key is kept apart from.
    "SECRET_KEY under the key's id": (None, keyed(settings.SECRET_KEY.encode())),
    # A key of their own under a key id of their own.
    "a key of their own under its own id": ("k-attacker", keyed(b"attackers-own-key-" * 3)),
}


def rehash(organization: Organization, start: int, key_id: str | None, digest: Callable) -> None:
    """Every event from ``start`` on hashed again as ``digest`` makes it, and the head moved to
    the new last hash, as someone with the database and the published code would."""
    prev = AuditEvent.objects.get(organization=organization, sequence=start - 1).hash
    events = AuditEvent.objects.filter(organization=organization, sequence__gte=start)
    fields = ["prev_hash", "hash"] if key_id is None else ["prev_hash", "hash", "key_id"]
    for event in events.order_by("sequence"):
        event.prev_hash = prev
        if key_id is not None:
            event.key_id = key_id
        event.hash = digest(attackers_payload(event))
        event.save(update_fields=fields)
        prev = event.hash
    AuditChain.objects.filter(organization=organization).update(head_hash=prev)


def test_the_attackers_code_is_the_installations_but_for_the_key(post):
    """With the installation's own key, the attacker's hashing gives every stored hash: what
    stops them below is the key alone."""
    events = AuditEvent.objects.filter(organization=post).order_by("sequence")[:50]
    for event in events:
        assert keyed(settings.AUDIT_KEYS[event.key_id])(attackers_payload(event)) == event.hash


@pytest.mark.parametrize("attacker", list(ATTACKERS))
def test_an_event_edited_and_the_chain_hashed_again_without_the_key_is_found(post, attacker):
    from games.models import Payout

    payout = Payout.objects.filter(winner__claim__game__occasion__organization=post).first()
    event = AuditEvent.objects.get(target_type="games.payout", target_id=str(payout.pk))
    event.new_values = {**event.new_values, "amount": "750.00"}
    event.save(update_fields=["new_values"])
    Payout.objects.filter(pk=payout.pk).update(amount=Decimal("750.00"))
    key_id, digest = ATTACKERS[attacker]
    rehash(post, event.sequence, key_id, digest)

    ok, output = check()
    assert not ok
    assert f"{POST} (#{post.pk}): Broken at event {event.sequence}" in output


# -- (b) the last five events deleted and the head moved back ---------------------------------


def test_the_last_five_events_deleted_and_the_head_moved_back_are_found(post):
    chain = AuditChain.objects.get(organization=post)
    kept = chain.length - 5
    AuditEvent.objects.filter(organization=post, sequence__gt=kept).delete()
    head = AuditEvent.objects.get(organization=post, sequence=kept)
    AuditChain.objects.filter(pk=chain.pk).update(length=kept, head_hash=head.hash)

    ok, output = check()
    assert not ok
    assert f"{POST} (#{post.pk}): Broken at event {kept + 1}" in output
    assert "does not carry its seal" in output


# -- (c) a money record changed in its table, with no event -----------------------------------


def test_a_payouts_amount_changed_in_its_table_is_found(post):
    from games.models import Payout

    payout = Payout.objects.filter(winner__claim__game__occasion__organization=post).first()
    event = AuditEvent.objects.get(target_type="games.payout", target_id=str(payout.pk))
    Payout.objects.filter(pk=payout.pk).update(amount=payout.amount + 5)

    ok, output = check()
    assert not ok
    assert f"{POST} (#{post.pk}): Intact through event" in output  # the chain itself is fine
    assert (
        f"games.payout #{payout.pk}: amount is '{payout.amount + 5}', but audit event "
        f"{event.sequence} recorded '{payout.amount}'"
    ) in output


def test_a_sale_lines_amount_changed_in_its_table_is_found(post):
    from occasions.models import SaleLine

    line = SaleLine.objects.filter(sale__occasion__organization=post, quantity__gt=1).first()
    SaleLine.objects.filter(pk=line.pk).update(amount=line.amount * 10)
    number = list(line.sale.lines.order_by("pk")).index(line) + 1

    ok, output = check()
    assert not ok
    assert (
        f"occasions.sale #{line.sale_id}: line {number} amount is '{line.amount * 10}', but audit "
        f"event"
    ) in output


def test_a_line_added_to_a_sale_is_found(post):
    from occasions.models import SaleLine

    line = SaleLine.objects.filter(sale__occasion__organization=post).first()
    count = line.sale.lines.count()
    line.pk = None
    line.save()

    ok, output = check()
    assert not ok
    assert f"occasions.sale #{line.sale_id}: it has {count + 1} line(s), but audit event" in output


def test_a_close_out_count_changed_is_found(post):
    from reports.models import ClosingCount

    count = ClosingCount.objects.filter(closeout__occasion__organization=post).first()
    ClosingCount.objects.filter(pk=count.pk).update(counted=count.counted + 1)

    ok, output = check()
    assert not ok
    assert (
        f"reports.closeout #{count.closeout_id}: count of {count.category} is "
        f"{count.counted + 1}, but audit event"
    ) in output


def test_a_money_record_with_no_event_and_one_gone_are_found(post):
    from reports.models import Expense, LawfulPurposeDisbursement

    expense = Expense.objects.filter(occasion__organization=post).first()
    expense.pk = None
    expense.save()
    gone = LawfulPurposeDisbursement.objects.filter(organization=post).first()
    LawfulPurposeDisbursement.objects.filter(pk=gone.pk).delete()

    ok, output = check()
    assert not ok
    assert f"reports.expense #{expense.pk}: no audit event records it" in output
    assert (
        f"reports.lawfulpurposedisbursement #{gone.pk}: it is gone, but audit event" in output
        and "(reports.disbursement.recorded) is its last" in output
    )


def test_filed_figures_changed_are_found_even_with_their_sha256_recomputed(post):
    from reports.figures import digest
    from reports.models import FinancialReport

    report = FinancialReport.objects.filter(organization=post).order_by("version").first()
    figures = report.figures
    figures["net"]["net_proceeds"] = "9999.00"
    FinancialReport.objects.filter(pk=report.pk).update(figures=figures)
    ok, output = check()
    assert not ok
    assert "Its figures do not match their SHA-256" in output

    FinancialReport.objects.filter(pk=report.pk).update(figures_sha256=digest(figures))
    ok, output = check()
    assert not ok
    assert "Its figures do not match their SHA-256" not in output
    assert "Its figures' SHA-256 is not the one its filing recorded (audit event" in output
    assert f"reports.financialreport #{report.pk}: figures_sha256 is" in output


def test_a_filed_reports_recorded_chain_head_changed_is_found(post):
    from reports.models import FinancialReport

    report = FinancialReport.objects.filter(organization=post).first()
    FinancialReport.objects.filter(pk=report.pk).update(chain_head_hash="f" * 64)

    ok, output = check()
    assert not ok
    assert f"recorded at filing is not event {report.chain_length} of the chain" in output

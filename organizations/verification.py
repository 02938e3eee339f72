"""The chains checked whole by a periodic task, and the audit trail page checked from there.

Recomputing every keyed hash of a chain costs time in proportion to its length (a year of a
busy hall: seconds). So the periodic task ``organizations.verify_audit_chains`` (the beat
schedule) checks each chain from its first event and records the last event it found intact as
the chain's checkpoint (``ChainVerification``, sealed under the audit key); the audit trail page
then checks only the events after the checkpoint and says when the whole chain was last
verified. ``check_audit_chains`` still checks everything, as the periodic task does: an event
changed before the checkpoint is theirs to find, one changed after it is the page's too."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from beano import locking
from organizations import extensions
from organizations.audit import ChainCheck, chain_key, verify_chain
from organizations.models import AuditChain, AuditEvent, ChainVerification, Organization

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PageCheck:
    """What the audit trail page checked: the chain's hashes from ``verification``'s
    checkpoint, or (no sealed checkpoint yet) the whole chain; and, as the chain check page does,
    what the chain vouches for (``problems``: a money record changed behind the application's
    back is one), so that the two pages give one verdict."""

    check: ChainCheck
    verification: ChainVerification | None
    from_checkpoint: bool
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.check.ok and not self.problems

    def __str__(self) -> str:
        return str(self.check)


def verify_whole(chain: AuditChain) -> ChainVerification:
    """Check ``chain`` from its first event and record the result: on success the checkpoint
    moves to the last event found intact; on failure it stays and the problem is recorded."""
    check = verify_chain(chain.organization)
    now = timezone.now()
    with transaction.atomic():
        row, _ = locking.lock(ChainVerification.objects).get_or_create(
            chain=chain, defaults={"checked_at": now}
        )
        row.chain = chain
        row.checked_at = now
        row.problem = "" if check.ok else str(check)[:500]
        if check.ok:
            if check.intact_through:
                row.through_sequence = check.intact_through
                row.through_hash = (
                    AuditEvent.objects.filter(
                        organization=chain.organization, sequence=check.intact_through
                    )
                    .values_list("hash", flat=True)
                    .get()
                )
            row.verified_at = now
            row.reseal()
        row.save()
    if not check.ok:
        logger.error("Audit chain %s: %s", chain.key, check)
    return row


def verify_all() -> list[ChainVerification]:
    """Every chain checked whole, each recorded (the periodic task)."""
    chains = AuditChain.objects.select_related("organization").order_by("key")
    return [verify_whole(chain) for chain in chains]


def verify_unverified() -> list[ChainVerification]:
    """The chains whose whole check has not reached their last event (or never ran), checked
    whole and recorded: the demo's seeding, which leaves each chain with its checkpoint."""
    chains = (
        AuditChain.objects.select_related("organization", "verification")
        .order_by("key")
        .filter(Q(verification__isnull=True) | Q(verification__through_sequence__lt=F("length")))
    )
    return [verify_whole(chain) for chain in chains]


def page_check(organization: Organization) -> PageCheck:
    """The audit trail page's check: from the chain's sealed checkpoint, or whole without one.
    A checkpoint whose seal does not check is not trusted: the whole chain is checked."""
    verification = (
        ChainVerification.objects.select_related("chain")
        .filter(chain__key=chain_key(organization))
        .first()
    )
    problems = tuple(extensions.vouched_problems(organization))
    if verification is not None and verification.through_sequence and verification.sealed:
        since = (verification.through_sequence, verification.through_hash)
        return PageCheck(verify_chain(organization, since=since), verification, True, problems)
    return PageCheck(verify_chain(organization), verification, False, problems)

"""Background work on organizations. Tasks take ids, reload, and call the service."""

from __future__ import annotations

from celery import shared_task

from organizations import checkpoints, verification
from organizations.audit import verify_chain
from organizations.models import Organization


@shared_task(name="organizations.verify_audit_chain")
def verify_audit_chain(organization_id: int | None) -> dict[str, object]:
    """Check an organization's audit chain (None: the Commission's) and return the result."""
    organization = (
        Organization.objects.get(pk=organization_id) if organization_id is not None else None
    )
    check = verify_chain(organization)
    return {
        "organization": organization_id,
        "ok": check.ok,
        "intact_through": check.intact_through,
        "broken_at": check.broken_at,
        "message": str(check),
    }


@shared_task(name="organizations.write_audit_checkpoint")
def write_audit_checkpoint() -> dict[str, object]:
    """Nightly, from beat: every chain's length and head appended to the checkpoint file outside
    the database and e-mailed to the Commission (organizations.checkpoints)."""
    written = checkpoints.write()
    return {"chains": len(written), "file": str(checkpoints.path())}


@shared_task(name="organizations.verify_audit_chains")
def verify_audit_chains() -> dict[str, object]:
    """Periodic, from beat: every chain checked from its first event, its checkpoint recorded
    (``organizations.verification``) so that the audit trail page checks only what follows."""
    rows = verification.verify_all()
    broken = [row.chain.key for row in rows if row.problem]
    return {"chains": len(rows), "broken": broken}

"""Writing and checking the audit trail. Every service write calls ``record_event`` inside its
own transaction, so the event and the change commit or roll back together."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.utils import timezone

from organizations.models import GENESIS_HASH, AuditChain, AuditEvent, Organization

#: Where the acts being recorded come from, when not live (set by ``provenance``).
_provenance: ContextVar[dict[str, Any] | None] = ContextVar("audit_provenance", default=None)

SECRET_FIELD_WORDS = ("password", "secret", "token", "tin", "ssn", "taxpayer")
MASK = "•••"


def _is_secret(field: str) -> bool:
    name = field.lower()
    return any(
        name == word or name.endswith("_" + word) or name.startswith(word + "_")
        for word in SECRET_FIELD_WORDS
    )


def _jsonable(values: Mapping[str, Any] | None) -> dict[str, Any]:
    """Plain JSON with secrets masked; what is stored is exactly what is hashed."""
    if not values:
        return {}
    masked = {k: (MASK if _is_secret(k) and v not in (None, "") else v) for k, v in values.items()}
    return json.loads(json.dumps(masked, cls=DjangoJSONEncoder))


def snapshot(instance: models.Model, fields: Iterable[str]) -> dict[str, Any]:
    """The named fields of ``instance`` (foreign keys as ids) for an event's old/new values."""
    out: dict[str, Any] = {}
    for name in fields:
        field = instance._meta.get_field(name)
        out[name] = getattr(instance, field.attname)
    return out


def changed(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[dict, dict]:
    """Only the keys whose value differs, as (old, new)."""
    old_j, new_j = _jsonable(old), _jsonable(new)
    keys = [k for k in new_j if old_j.get(k) != new_j.get(k)]
    return {k: old_j.get(k) for k in keys}, {k: new_j[k] for k in keys}


def acting_user(by: Any) -> Any:
    """The user to store as the one who acted, or None for the system (the demo seed)."""
    return by if getattr(by, "is_authenticated", False) else None


@contextmanager
def provenance(values: Mapping[str, Any]) -> Iterator[None]:
    """Every event recorded inside carries ``values`` as its provenance: an act entered after the
    fact from the night's paper control sheets, or imported from a night file, says so."""
    token = _provenance.set(_jsonable(values))
    try:
        yield
    finally:
        _provenance.reset(token)


def current_provenance() -> dict[str, Any]:
    return dict(_provenance.get() or {})


def _chain_key(organization: Organization | None) -> str:
    return f"org:{organization.pk}" if organization is not None else "commission"


def record_event(
    *,
    organization: Organization | None,
    actor: Any,
    action: str,
    target: models.Model,
    old: Mapping[str, Any] | None = None,
    new: Mapping[str, Any] | None = None,
) -> AuditEvent:
    """Append one event to the organization's chain (or the Commission's when None).

    Must run inside the caller's transaction; the chain's head row is locked so that concurrent
    writers append one after the other."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("record_event must be called inside the service's transaction")
    key = _chain_key(organization)
    AuditChain.objects.get_or_create(key=key, defaults={"organization": organization})
    chain = AuditChain.objects.select_for_update().get(key=key)
    actor_user = acting_user(actor)
    event = AuditEvent(
        organization=organization,
        sequence=chain.length + 1,
        actor=actor_user,
        actor_label=actor_user.get_username() if actor_user else "system",
        action=action,
        target_type=target._meta.label_lower,
        target_id=str(target.pk),
        target_repr=str(target)[:200],
        old_values=_jsonable(old),
        new_values=_jsonable(new),
        provenance=current_provenance(),
        created_at=timezone.now(),
        prev_hash=chain.head_hash,
    )
    event.hash = event.compute_hash()
    event.save()
    chain.length = event.sequence
    chain.head_hash = event.hash
    chain.save(update_fields=["length", "head_hash"])
    return event


@dataclass(frozen=True)
class ChainCheck:
    """The result of checking one chain: intact through ``intact_through``, or broken at
    ``broken_at`` (the sequence number of the first event that does not check) and why."""

    intact_through: int
    broken_at: int | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.broken_at is None

    def __str__(self) -> str:
        if self.ok:
            return f"Intact through event {self.intact_through}."
        return f"Broken at event {self.broken_at}: {self.reason}"


def verify_chain(organization: Organization | None) -> ChainCheck:
    """Recompute every hash of the chain in order; name the first event that does not check."""
    events = AuditEvent.objects.filter(organization=organization).order_by("sequence")
    prev_hash = GENESIS_HASH
    expected_sequence = 1
    for event in events.iterator(chunk_size=2000):
        if event.sequence != expected_sequence:
            return ChainCheck(
                expected_sequence - 1,
                expected_sequence,
                f"event {expected_sequence} is missing (next stored is {event.sequence}).",
            )
        if event.prev_hash != prev_hash:
            return ChainCheck(
                expected_sequence - 1, event.sequence, "it does not follow the event before it."
            )
        if event.compute_hash() != event.hash:
            return ChainCheck(
                expected_sequence - 1,
                event.sequence,
                "its content was changed after it was written.",
            )
        prev_hash = event.hash
        expected_sequence += 1
    length = expected_sequence - 1
    head = AuditChain.objects.filter(key=_chain_key(organization)).first()
    if head is not None and head.length > length:
        return ChainCheck(length, length + 1, f"event {length + 1} is missing from the end.")
    return ChainCheck(length)

"""Writing and checking the audit trail. Every service write calls ``record_event`` inside its
own transaction, so the event and the change commit or roll back together.

Hashes are keyed with the installation's audit key (see ``organizations.models.audit``), so the
check below tells an event rewritten by someone without the key (with plain SHA-256, or under a
key of their own) from one the installation wrote."""

from __future__ import annotations

import functools
import hmac
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.utils import timezone

from beano import locking
from beano.actors import Actor
from beano.env import LEGACY_AUDIT_KEY_ID
from organizations.models import GENESIS_HASH, AuditChain, AuditEvent, Organization
from organizations.models.audit import UnknownAuditKey

#: Where the acts being recorded come from, when not live (set by ``provenance``).
_provenance: ContextVar[dict[str, Any] | None] = ContextVar("audit_provenance", default=None)
#: The request being answered (set by ``acting_in``): whose act a change made outside the
#: services (a signal on a model the admin or a package saves) is recorded as.
_request: ContextVar[Any] = ContextVar("audit_request", default=None)
#: The login whose session the hall laptop runs, while it is handed to a worker of the night
#: (set by ``in_the_session_of``): named in the provenance of the worker's acts.
_session_login: ContextVar[Any] = ContextVar("audit_session_login", default=None)

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


def acting_user(by: Actor) -> Any:
    """The user to store as the one who acted, or None for the system (the demo seed)."""
    return by if getattr(by, "is_authenticated", False) else None


@contextmanager
def provenance(values: Mapping[str, Any]) -> Iterator[None]:
    """Every event recorded inside carries ``values`` as its provenance: an act entered after the
    fact from the night's paper control sheets, or imported from a night file, says so. Inside
    another provenance, both are kept (the inner's values first): a night file sent through
    the API names its sheet and the API's client."""
    token = _provenance.set({**(_provenance.get() or {}), **_jsonable(values)})
    try:
        yield
    finally:
        _provenance.reset(token)


def current_provenance() -> dict[str, Any]:
    return dict(_provenance.get() or {})


@contextmanager
def in_the_session_of(login: Any) -> Iterator[None]:
    """Acts recorded inside are done at a hall laptop whose session is ``login``'s, handed to
    another user: each event names both (the actor, and ``session`` in its provenance)."""
    token = _session_login.set(login)
    try:
        yield
    finally:
        _session_login.reset(token)


def _provenance_of(actor: Any) -> dict[str, Any]:
    """The provenance of an event by ``actor``: where it came from, and the session's login
    when it is someone else's."""
    values = current_provenance()
    login = _session_login.get()
    if login is not None and getattr(actor, "pk", None) != login.pk:
        values["session"] = login.get_username()
    return values


@contextmanager
def acting_in(request: Any) -> Iterator[None]:
    """Changes recorded while ``request`` is answered are its user's acts (``current_actor``).
    The user is read when an event is recorded, not before: most requests record nothing."""
    token = _request.set(request)
    try:
        yield
    finally:
        _request.reset(token)


def current_actor() -> Any:
    """The user of the request being answered, or None (a command, the shell, a task)."""
    request = _request.get()
    return getattr(request, "user", None) if request is not None else None


def current_request() -> Any:
    """The request being answered, or None (a command, the shell, a task)."""
    return _request.get()


def chain_key(organization: Organization | None) -> str:
    return f"org:{organization.pk}" if organization is not None else "commission"


#: From an organization to its chain's head row: a service that locks the organization's row
#: (an occasion's writes all do) may lock the head in the same statement by this path, the join
#: made an inner one (PostgreSQL locks no row on the nullable side of an outer join), and hand
#: the row to ``record_event``. On
#: PostgreSQL a row locked by a statement that waited is read as the holder left it, so the head
#: is current however long the wait.
CHAIN_PATH = "audit_chain"


def ensure_chain(organization_id: int) -> bool:
    """Make the organization's chain head if it has none yet (True), so that a statement that
    locks it with the organization finds it; an organization's first event makes it otherwise."""
    _, made = AuditChain.objects.get_or_create(
        key=f"org:{organization_id}", defaults={"organization_id": organization_id}
    )
    return made


#: The chain's head locked by its (unique) key: most writes that record an event without
#: handing the head they locked run it (a sign-in, a role given, an office's change).
_LOCKED_HEAD = locking.LockingStatement(AuditChain, lambda key: AuditChain.objects.filter(key=key))


def record_event(
    *,
    organization: Organization | None,
    actor: Any,
    action: str,
    target: models.Model,
    old: Mapping[str, Any] | None = None,
    new: Mapping[str, Any] | None = None,
    chain: AuditChain | None = None,
) -> AuditEvent:
    """Append one event to the organization's chain (or the Commission's when None).

    Must run inside the caller's transaction; the chain's head row is locked so that concurrent
    writers append one after the other. ``chain``: the head row as the caller already locked
    it in this transaction, in the statement that locked what it changes (``CHAIN_PATH``, e.g.
    ``occasions.services.lock_occasion(with_chain=True)``): no statement of its own then."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("record_event must be called inside the service's transaction")
    key = chain_key(organization)
    if chain is not None and chain.key != key:
        raise ValueError(f"The chain given is {chain.key}'s, not {key}'s.")
    if chain is None:
        found = _LOCKED_HEAD.all(key)
        if not found:  # the chain's first event: made, then locked as every later writer does
            AuditChain.objects.get_or_create(key=key, defaults={"organization": organization})
            found = _LOCKED_HEAD.all(key)
        chain = found[0]
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
        provenance=_provenance_of(actor_user),
        created_at=timezone.now(),
        prev_hash=chain.head_hash,
        key_id=settings.AUDIT_KEY_ID,
    )
    event.hash = event.compute_hash()
    event.save()
    chain.length = event.sequence
    chain.head_hash = event.hash
    chain.reseal()
    chain.save(update_fields=["length", "head_hash", "seal", "seal_key_id"])
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

    @staticmethod
    def broken_at_of(said: str) -> int | None:
        """The event a check's words (``str`` of a broken check, as ``ChainVerification.problem``
        keeps them) name as the first that does not check; None for any other words."""
        found = re.match(r"Broken at event (\d+):", said)
        return int(found.group(1)) if found else None


def _unknown_key(key_id: str) -> str:
    return (
        f"it is hashed with audit key {key_id}, which this installation does not hold (a "
        "key of another installation belongs in AUDIT_KEY_FALLBACKS, or it was forged)."
    )


def _event_problem(event: AuditEvent, prev_hash: str, keyed: bool) -> str:
    """Why ``event`` does not check after an event hashed ``prev_hash``, or ""."""
    if event.prev_hash != prev_hash:
        return "it does not follow the event before it."
    if event.key_id == LEGACY_AUDIT_KEY_ID and keyed:
        return (
            "it is hashed without the audit key (sha256-legacy) after keyed events: it was "
            "rewritten by someone who does not hold the key."
        )
    try:
        intact = event.compute_hash() == event.hash
    except UnknownAuditKey:
        return _unknown_key(event.key_id)
    if not intact:
        return (
            "its content was changed after it was written (or its hash recomputed without "
            "the audit key)."
        )
    return ""


def verify_chain(
    organization: Organization | None, *, since: tuple[int, str] | None = None
) -> ChainCheck:
    """Recompute every hash of the chain in order under the keys the events name; name the first
    event that does not check. Legacy events (plain SHA-256) are accepted only ahead of the
    chain's first keyed event; then the head row must name the last event and carry its seal.

    ``since``: a checkpoint (the sequence and hash of the last event a whole check found
    intact): only that event, which must still bear that hash, and the events after it are
    checked. An event changed before it is the periodic whole check's to find."""
    events = AuditEvent.objects.filter(organization=organization).order_by("sequence")
    start, vouched = 1, ""
    if since is not None and since[0] > 0:
        start, vouched = since
        events = events.filter(sequence__gte=start)
    prev_hash = GENESIS_HASH
    expected_sequence = start
    keyed = False
    for event in events.iterator(chunk_size=2000):
        if event.sequence != expected_sequence:
            return ChainCheck(
                expected_sequence - 1,
                expected_sequence,
                f"event {expected_sequence} is missing (next stored is {event.sequence}).",
            )
        if vouched and event.sequence == start:
            if event.hash != vouched:
                return ChainCheck(
                    start - 1,
                    start,
                    "it is not the event the last whole check verified (its hash differs from "
                    "the checkpoint's).",
                )
            prev_hash = event.prev_hash  # vouched for by the whole check
        problem = _event_problem(event, prev_hash, keyed)
        if problem:
            return ChainCheck(expected_sequence - 1, event.sequence, problem)
        keyed = keyed or event.key_id != LEGACY_AUDIT_KEY_ID
        prev_hash = event.hash
        expected_sequence += 1
    if vouched and expected_sequence == start:
        return ChainCheck(start - 1, start, f"event {start}, the checkpoint's, is missing.")
    length = expected_sequence - 1
    return _check_head(organization, length, prev_hash)


def _check_head(organization: Organization | None, length: int, last_hash: str) -> ChainCheck:
    """The head row against the events found: it names the last of them, and its seal (which
    only the key makes) says the installation put it there."""
    head = AuditChain.objects.filter(key=chain_key(organization)).first()
    if head is None:
        if length:
            return ChainCheck(length, length + 1, "the chain's head row is missing.")
        return ChainCheck(0)
    if head.length > length:
        return ChainCheck(length, length + 1, f"event {length + 1} is missing from the end.")
    if head.length < length or head.head_hash != last_hash:
        return ChainCheck(
            length,
            length,
            f"the chain's head says event {head.length}, not the last event stored ({length}).",
        )
    if length == 0:
        return ChainCheck(0)
    if not head.seal:
        return ChainCheck(length, length + 1, "the chain's head is not sealed.")
    try:
        sealed = hmac.compare_digest(head.compute_seal(), head.seal)
    except UnknownAuditKey:
        return ChainCheck(length, length + 1, "its head's seal " + _unknown_key(head.seal_key_id))
    if not sealed:
        return ChainCheck(
            length,
            length + 1,
            f"the chain's head (event {length}) does not carry its seal: it was moved, most "
            "likely back over events removed from the end, by someone without the audit key.",
        )
    return ChainCheck(length)


@functools.cache
def moved_labels() -> Mapping[str, str]:
    """The labels of the models that moved to another app keeping their table (``db_table``),
    each with the label it has now: events written before the move name the app it was in
    (``reports.deposit`` is ``banking.deposit`` since issue 41 split reports), and the chain
    never changes an event."""
    from django.apps import apps

    now = {m._meta.label_lower for m in apps.get_models()}
    moved: dict[str, str] = {}
    for model in apps.get_models():
        meta = model._meta
        former = meta.db_table.removesuffix("_" + meta.model_name)
        if former != meta.db_table and former != meta.app_label and "_" not in former:
            label = f"{former}.{meta.model_name}"
            if label not in now:
                moved[label] = meta.label_lower
    return MappingProxyType(moved)  # read once: the models do not change after start-up


def target_types(target_type: str) -> tuple[str, ...]:
    """Every label the events of one model's rows carry: the one given, the label its model
    has now, and the one it had before it moved."""
    moved = moved_labels()
    now = moved.get(target_type, target_type)
    return (now, *sorted(old for old, new in moved.items() if new == now))

"""A submission from the floor answered once: ``answered_once`` gives a service an optional
keyword ``request_key``, the key the browser made for one submission (a door sale, a ball call,
a claim). The first submission with a key is recorded as the service records it, and the key
with it, in the same transaction; the same key again (a "Send again" after a dropped answer, a
doubled request) records nothing and answers with what the first one recorded. A refused
submission rolls back with its key, so it can be corrected and sent again.

The key is written after the record, in the same statement that finds it taken: a new key (the
floor's every entry) costs one insert and no lookup. A key already recorded shows as the rules
refusing the act again (a ball already called) or as the insert finding it; either way the
transaction rolls back and the first record is the answer."""

from __future__ import annotations

import functools
import inspect
import uuid
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone

from occasions.models import FloorSubmission
from organizations.audit import acting_user

Record = TypeVar("Record", bound=models.Model)


def _earlier(
    occasion_id: int,
    key: uuid.UUID,
    action: FloorSubmission.Action,
    user: Any,
    model: type[Record],
) -> Record | None:
    """What the submission with ``key`` recorded, or None if the key is new. A key is one
    person's and one act's: the same key from someone else, or for another act, is not a retry
    of that submission, and is refused."""
    earlier = FloorSubmission.objects.filter(occasion_id=occasion_id, key=key).first()
    if earlier is None:
        return None
    if earlier.user_id != getattr(user, "pk", None):
        raise ValidationError(
            "This entry carries the key of another person's entry, so nothing was recorded: "
            "reload the page and enter it again."
        )
    if earlier.action != action:
        raise ValidationError(
            f"This entry carries the key of {earlier.get_action_display()}, so nothing was "
            "recorded: reload the page and enter it again."
        )
    return model._default_manager.get(pk=earlier.target_id)


def _record_key(
    occasion_id: int, key: uuid.UUID, action: FloorSubmission.Action, user: Any, record: Any
) -> bool:
    """Record the key with what it recorded, in one statement: True, or False when the key was
    recorded already (``ON CONFLICT DO NOTHING``, SQLite and PostgreSQL alike: no savepoint, and
    the transaction stays usable). On PostgreSQL a doubled request's insert waits here on the
    unique index until the first one's transaction ends, then finds its key."""
    meta = FloorSubmission._meta
    columns = ["occasion_id", "key", "action", "user_id", "target_type", "target_id", "created_at"]
    connection = transaction.get_connection()
    fields = [meta.get_field(c.removesuffix("_id") if c != "target_id" else c) for c in columns]
    values = [occasion_id, key, action, getattr(user, "pk", None)]
    values += [record._meta.label_lower, record.pk, timezone.now()]
    params = [f.get_db_prep_save(v, connection) for f, v in zip(fields, values, strict=True)]
    names = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    sql = (
        f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({names}) "
        f"VALUES ({', '.join(['%s'] * len(params))}) ON CONFLICT DO NOTHING RETURNING 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() is not None


def answered_once(
    action: FloorSubmission.Action,
    model: type[Record],
    occasion_of: Callable[[Mapping[str, Any]], int],
) -> Callable[[Callable[..., Record]], Callable[..., Record]]:
    """Give a service the keyword ``request_key``. Goes under ``rules.atomic()``, so that the
    lookup, the service and the key are one transaction; ``occasion_of`` takes the service's
    keyword arguments and gives the id of the occasion the key is unique in."""

    def decorate(service: Callable[..., Record]) -> Callable[..., Record]:
        @functools.wraps(service)
        def run(*, request_key: uuid.UUID | None = None, **kwargs: Any) -> Record:
            if request_key is None:
                return service(**kwargs)
            occasion_id = occasion_of(kwargs)
            user = acting_user(kwargs.get("by"))
            try:
                record = service(**kwargs)
            except ValidationError:
                # Refused: unless the key was recorded already (sent again, the first one's
                # answer lost), whose record is then the answer and this refusal no act. A
                # transaction the service broke (a database error) is refused as it stands.
                if transaction.get_rollback():
                    raise
                earlier = _earlier(occasion_id, request_key, action, user, model)
                if earlier is None:
                    raise
                transaction.set_rollback(True)
                return earlier
            if not _record_key(occasion_id, request_key, action, user, record):
                # The key was recorded already: what this run wrote is rolled back with the
                # transaction, and the first one's record is the answer.
                earlier = _earlier(occasion_id, request_key, action, user, model)
                transaction.set_rollback(True)
                if earlier is None:  # the key's row went between the two statements
                    raise ValidationError("This entry was not recorded: send it again.")
                return earlier
            return record

        signature = inspect.signature(service)
        key = inspect.Parameter(
            "request_key",
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation="uuid.UUID | None",
        )
        run.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*signature.parameters.values(), key]
        )
        return run

    return decorate

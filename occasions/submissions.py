"""A submission from the floor answered once: ``answered_once`` gives a service an optional
keyword ``request_key``, the key the browser made for one submission (a door sale, a ball call,
a claim). The first submission with a key is recorded as the service records it, and the key
with it, in the same transaction; the same key again (a "Send again" after a dropped answer, a
doubled request) records nothing and answers with what the first one recorded. A refused
submission rolls back with its key, so it can be corrected and sent again."""

from __future__ import annotations

import functools
import hashlib
import inspect
import uuid
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
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


def _wait_for_the_same_key(occasion_id: int, key: uuid.UUID) -> None:
    """A doubled request waits here until the first one's transaction ends, then finds its key
    and answers with its record, instead of being judged again as a second act (a ball called
    twice is refused). PostgreSQL: a lock on the key alone, to the end of the transaction; a row
    lock taken here would come before the service's own row locks, in an order other writers do
    not keep. SQLite needs none: each write transaction takes the database's lock as it begins
    (IMMEDIATE, in settings)."""
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        return
    digest = hashlib.blake2b(f"{occasion_id}:{key}".encode(), digest_size=8).digest()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest, "big", signed=True)]
        )


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
            _wait_for_the_same_key(occasion_id, request_key)
            earlier = _earlier(occasion_id, request_key, action, user, model)
            if earlier is not None:
                return earlier
            try:
                with transaction.atomic():
                    record = service(**kwargs)
                    FloorSubmission.objects.create(
                        occasion_id=occasion_id,
                        key=request_key,
                        action=action,
                        user=user,
                        target_type=record._meta.label_lower,
                        target_id=record.pk,
                        created_at=timezone.now(),
                    )
            except IntegrityError:
                # Only a database that let two writers past the lock gets here: the unique
                # index refused the second key, the second record rolled back with it, and the
                # first one's record is the answer.
                earlier = _earlier(occasion_id, request_key, action, user, model)
                if earlier is None:
                    raise
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

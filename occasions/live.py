"""A version number per occasion for the pages that poll it (the flashboard): every service
that changes what such a page shows calls ``changed`` inside its transaction, and a poll keeps
its answer in the cache with the version it was made at, so the database is read again only
after a change.

The number lives in the cache (Redis in production, shared by every web process). It moves at
once and again when the transaction commits: a poll that read the database before the commit
cannot keep its answer under the number that follows it. It starts at a random value, so a number
lost with the cache (evicted, Redis restarted) never comes back to match an answer made before.
When the cache cannot be reached, pages read the database every time."""

from __future__ import annotations

import logging
import secrets
from functools import partial
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.base import BaseCache
from django.db import transaction

log = logging.getLogger(__name__)

#: How long an occasion's number is kept without a change (a night is shorter).
VERSION_TTL = 24 * 60 * 60


#: The parts of an occasion with a number each: the board (every page that shows the draw,
#: the flashboard first) and the door's counts (the door page's refresh), so that a sale does
#: not send every flashboard of the night back to the database.
BOARD = "live"
DOOR = "door"


def version_key(occasion_id: int, part: str = BOARD) -> str:
    return f"occasion:{occasion_id}:{part}"


def changed(occasion_id: int, part: str = BOARD) -> None:
    """What the occasion's live pages show of ``part`` has changed (or will, when this
    transaction commits)."""
    _bump(occasion_id, part)
    transaction.on_commit(partial(_bump, occasion_id, part), robust=True)


def _bump(occasion_id: int, part: str = BOARD) -> None:
    key = version_key(occasion_id, part)
    try:
        cache.incr(key)
        if not _keeps_expiry(caches[DEFAULT_CACHE_ALIAS]):
            cache.touch(key, VERSION_TTL)
    except ValueError:
        pass  # no number yet: the next reader starts one, unlike any answer kept before
    except Exception:  # the cache is down: readers fall back to the database
        log.warning("occasion %s: the live version could not be moved", occasion_id)


def _keeps_expiry(backend: Any) -> bool:
    """Whether the backend's ``incr`` keeps the key's expiry (Redis, locmem). Django's own, for
    the file and database caches, sets the value again with the default timeout (300 s)."""
    return type(backend).incr is not BaseCache.incr


def version(occasion_id: int, part: str = BOARD) -> int | None:
    """The occasion's number now (started if it has none), or None when the cache is down."""
    key = version_key(occasion_id, part)
    try:
        value = cache.get(key)
        if value is None:
            cache.add(key, secrets.randbits(48), VERSION_TTL)
            value = cache.get(key)
    except Exception:
        log.warning("occasion %s: the live version could not be read", occasion_id)
        return None
    return value

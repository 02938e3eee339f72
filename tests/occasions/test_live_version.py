"""An occasion's live number is kept ``VERSION_TTL`` after its last change on every cache
backend. Django's ``incr`` on the file cache (the embedded default) and locmem is a get and a
set with the cache's default timeout (300 s): a number moved by a ball was dropped five quiet
minutes later, and every flashboard of the night was read again from the database for it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from occasions import live


@pytest.fixture(params=["file", "locmem"])
def backend(request: Any, settings: Any, tmp_path: Any) -> str:
    if request.param == "file":
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                "LOCATION": str(tmp_path / "cache"),
            }
        }
    else:
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": f"live-{uuid.uuid4().hex}",
            }
        }
    return request.param


def test_a_number_moved_is_kept_through_a_quiet_hour(backend, cache_clock):
    started = live.version(4242)
    live._bump(4242)
    cache_clock.move(hours=1)  # no ball for an hour: a long break, well inside a day
    assert live.version(4242) == started + 1, backend
    cache_clock.move(hours=1, minutes=1)
    live._bump(4242)
    cache_clock.move(hours=25, minutes=2)  # a day after that change: dropped
    assert live.version(4242) not in (started + 1, started + 2), backend

"""A second person's pause after wrong tries lasts as long as its refusal says (15 minutes), on
every cache backend: the file cache of the embedded default, whose ``incr`` is a get and a set
with the cache's default timeout (300 s), once gave the right PIN back after 5 minutes 26 s; and
Redis, where the count's own expiry ran from the first wrong try. The application's clock and
the file cache's are moved by the test; Redis keeps its own time, so there the key's time to
live is read too."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache.backends.redis import RedisCache

from beano.accounts import pins
from tests.conftest import PASSWORD, make_user
from tests.fixtures.cache_clock import Clock

PIN = "4826"
#: A Redis database no other test uses; only this test's own keys are removed from it.
REDIS_URL = "redis://127.0.0.1:6379/9"


@pytest.fixture(params=["file", "locmem", "redis"])
def backend(request: Any, settings: Any, tmp_path: Any) -> Iterator[str]:
    """The default cache as the embedded default (files), one process (locmem) or production
    (Redis) has it."""
    if request.param == "locmem":
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": f"pause-{uuid.uuid4().hex}",
            }
        }
        yield "locmem"
        return
    if request.param == "file":
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                "LOCATION": str(tmp_path / "cache"),
                "KEY_PREFIX": "beano",
            }
        }
        yield "file"
        return
    prefix = f"beano-test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "beano.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": prefix,
        }
    }
    yield "redis"
    client = RedisCache(REDIS_URL, {})._cache.get_client(write=True)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)


@pytest.fixture
def clock(cache_clock: Clock) -> Clock:
    return cache_clock


@pytest.fixture
def person(db: Any) -> Any:
    user = make_user("witness-pause")
    pins.set_pin(user=user, pin=PIN, current_password=PASSWORD)
    return user


def five_wrong_tries(person: Any) -> None:
    for _ in range(pins.MAX_TRIES):
        assert not pins.confirms(person, "0000")


def test_the_pause_lasts_its_fifteen_minutes_and_no_longer(backend, clock, person):
    five_wrong_tries(person)
    assert pins.paused(person)
    for minutes in (5, 6, 10, 14, 14.9):
        clock.move(minutes=minutes)
        assert pins.paused(person), f"{backend}: no longer paused after {minutes} minutes"
        assert not pins.confirms(person, PIN), f"{backend}: the right PIN taken at {minutes} min"
    clock.move(minutes=15)
    assert not pins.paused(person), f"{backend}: still paused after 15 minutes"
    assert pins.confirms(person, PIN)


def test_the_pause_says_when_it_ends(backend, clock, person):
    five_wrong_tries(person)
    assert pins.paused_until(person) == clock.now() + pins.PAUSE
    clock.move(minutes=3)  # asked again later: the same end, not 15 minutes from now
    assert pins.paused_until(person) == clock.now() + pins.PAUSE - dt.timedelta(minutes=3)


def test_wrong_tries_spread_over_the_night_count_from_the_fifth(backend, clock, person):
    """The fifth wrong try starts the 15 minutes, however long the first four took (Redis once
    counted them from the first, so that a pause could last a minute)."""
    for minute in range(pins.MAX_TRIES):
        clock.move(minutes=minute * 3)
        assert not pins.confirms(person, "0000")
    fifth = clock.offset
    clock.move(seconds=fifth + 14 * 60)
    assert pins.paused(person)
    clock.move(seconds=fifth + 15 * 60)
    assert not pins.paused(person)


def test_after_the_pause_the_count_starts_again(backend, clock, person):
    five_wrong_tries(person)
    clock.move(minutes=15)
    assert not pins.confirms(person, "0000")  # one wrong try after the pause: not paused again
    assert not pins.paused(person)


@pytest.mark.parametrize("backend", ["redis"], indirect=True)
def test_on_redis_the_key_outlives_the_pause(backend, clock, person):
    """Redis expires keys by its own clock: the pause's key is kept at least as long as the
    pause, so that the moment written in it, not the key's end, decides."""
    from django.core.cache import cache

    five_wrong_tries(person)
    client = cache._cache.get_client()
    ttl = client.ttl(cache.make_and_validate_key(pins._pause_key(person)))
    assert ttl >= pins.PAUSE.total_seconds()

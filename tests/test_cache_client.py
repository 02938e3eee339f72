"""The Redis cache keeps one client per connection pool (beano/cache.py) instead of making one for
every call, as Django's own does; no server is needed to see it (a client connects lazily)."""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCacheClient

from beano.cache import RedisCache
from beano.env import cache_settings


def test_the_settings_use_the_kept_client_for_redis():
    assert cache_settings("redis://127.0.0.1:6379/9")["BACKEND"] == "beano.cache.RedisCache"


def test_one_client_is_kept_per_pool():
    cache = RedisCache("redis://127.0.0.1:6379/9", {})
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client() is client
    assert cache._cache.get_client("a key", write=True) is client


def test_djangos_own_client_makes_a_new_one_each_call():
    """What the kept client saves: Django's makes a ``redis.Redis`` for every call."""
    django = RedisCacheClient(["redis://127.0.0.1:6379/9"])
    assert django.get_client() is not django.get_client()

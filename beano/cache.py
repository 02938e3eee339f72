"""Django's Redis cache with its client kept. Django's ``RedisCacheClient`` makes a new
``redis.Redis`` for every cache call (copying its table of response callbacks each time, about
a millisecond); one client per connection pool is kept instead. A ``redis.Redis`` is safe to
share, its pool holds the connections and makes them again after a fork."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property


class _KeptClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self) -> _KeptClient:
        return _KeptClient(self._servers, **self._options)

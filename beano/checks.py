"""Checks of the deployment that Django's own do not make (``manage.py check --deploy``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

PROCESS_LOCAL_CACHES = ("django.core.cache.backends.locmem.LocMemCache",)


@register(Tags.caches, deploy=True)
def shared_cache(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """Production runs several web processes: a cache kept inside each would let one process
    answer a flashboard's poll with "nothing changed" after another recorded a ball."""
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if settings.DEBUG or backend not in PROCESS_LOCAL_CACHES:
        return []
    return [
        Warning(
            "The cache is kept inside each process (CACHE_URL is locmem://).",
            hint="Set CACHE_URL to the Redis every web process shares, e.g. "
            "redis://127.0.0.1:6379/1.",
            id="beano.W001",
        )
    ]

"""Checks of the deployment that Django's own do not make (``manage.py check --deploy``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

#: Caches not shared by every server: inside each process, or in files on one machine.
UNSHARED_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache": "inside each process (CACHE_URL locmem://)",
    "django.core.cache.backends.filebased.FileBasedCache": "in files on this machine only "
    "(CACHE_URL file://, the embedded default)",
}


@register(Tags.caches, deploy=True)
def shared_cache(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """Production runs several web processes, on one or more servers: a cache not shared by all
    would let one process answer a flashboard's poll with "nothing changed" after another
    recorded a ball, or forget the wrong PINs another counted."""
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if settings.DEBUG or backend not in UNSHARED_CACHES:
        return []
    return [
        Warning(
            f"The cache is kept {UNSHARED_CACHES[backend]}.",
            hint="Set CACHE_URL to the Redis every web process shares, e.g. "
            "redis://127.0.0.1:6379/1.",
            id="beano.W001",
        )
    ]

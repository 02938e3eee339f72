"""Small helpers that read settings from the environment and fail loudly on a bad value.

A mistyped ``DEBUG=ture`` or ``DATABASE_URL=postgress://`` must stop the process at start-up,
not quietly run with a default that records regulated money somewhere unexpected.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
DATABASE_SCHEMES = frozenset({"sqlite", "postgres", "postgresql", "pgsql"})
BROKER_SCHEMES = frozenset({"redis", "rediss", "filesystem", "memory"})
CACHE_SCHEMES = frozenset({"redis", "rediss", "locmem", "dummy"})


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    value = (os.environ if environ is None else environ).get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    if value is None:
        return default
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a yes/no value; use one of "
        f"{sorted(TRUE_WORDS)} or {sorted(FALSE_WORDS)}."
    )


def env_int(
    name: str, default: int, environ: Mapping[str, str] | None = None, *, minimum: int = 0
) -> int:
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below its minimum of {minimum}.")
    return number


def env_list(name: str, default: list[str], environ: Mapping[str, str] | None = None) -> list[str]:
    value = _raw(name, environ)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(item == "" for item in items):
        raise ImproperlyConfigured(f"{name}={value!r} has an empty item in its comma list.")
    return items


def env_secret(
    name: str, *, debug: bool, dev_default: str, environ: Mapping[str, str] | None = None
) -> str:
    """A secret: required outside DEBUG, long enough to be one, never the development value."""
    value = _raw(name, environ)
    if value is None:
        if debug:
            return dev_default
        raise ImproperlyConfigured(f"{name} must be set when DEBUG is off.")
    if not debug and (len(value) < 50 or len(set(value)) < 5 or value == dev_default):
        raise ImproperlyConfigured(
            f"{name} is too weak for production: at least 50 characters, 5 distinct."
        )
    return value


def env_url(
    name: str, default: str, schemes: frozenset[str], environ: Mapping[str, str] | None = None
) -> str:
    value = env_str(name, default, environ)
    scheme = value.split("://", 1)[0].lower() if "://" in value else ""
    if scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name}={value!r} must be a URL with one of the schemes {sorted(schemes)}."
        )
    return value


def env_timezone(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    value = env_str(name, default, environ)
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(f"{name}={value!r} is not a known time zone.") from None
    return value


def cache_settings(url: str) -> dict[str, Any]:
    """Django's ``CACHES["default"]`` for a cache URL: ``redis://host:port/db`` (shared by every
    process: production), ``locmem://`` (this process only: the embedded default and the tests)
    or ``dummy://`` (nothing kept)."""
    scheme = url.split("://", 1)[0].lower()
    if scheme in ("redis", "rediss"):
        return {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "beano",
        }
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "beano"}


def env_money(name: str, default: str, environ: Mapping[str, str] | None = None) -> Decimal:
    """Dollars and cents, not negative: e.g. 5.00."""
    raw = _raw(name, environ)
    text = default if raw is None else raw
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ImproperlyConfigured(f"{name} must be an amount in dollars, e.g. 5.00") from None
    if not value.is_finite() or value < 0 or value != value.quantize(Decimal("0.01")):
        raise ImproperlyConfigured(f"{name} must be an amount in dollars and cents, e.g. 5.00")
    return value

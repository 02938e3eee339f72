"""Small helpers that read settings from the environment and fail loudly on a bad value.

A mistyped ``DEBUG=ture`` or ``DATABASE_URL=postgress://`` must stop the process at start-up,
not quietly run with a default that records regulated money somewhere unexpected.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
DATABASE_SCHEMES = frozenset({"sqlite", "postgres", "postgresql", "pgsql"})
BROKER_SCHEMES = frozenset({"redis", "rediss", "filesystem", "memory"})
CACHE_SCHEMES = frozenset({"redis", "rediss", "file", "locmem", "dummy"})


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
    name: str,
    default: int,
    environ: Mapping[str, str] | None = None,
    *,
    minimum: int = 0,
    maximum: int | None = None,
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
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above its maximum of {maximum}.")
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


#: Entries a file-system cache keeps before it drops a third of them (Django's default is 300):
#: a night's live versions and flashboard answers, and the counters of PIN tries.
FILE_CACHE_ENTRIES = 20_000


def cache_settings(url: str) -> dict[str, Any]:
    """Django's ``CACHES["default"]`` for a cache URL: ``redis://host:port/db`` (shared by every
    process and server: production), ``file:///folder`` (shared by every process on this
    machine: the embedded default, whose web server, worker and beat are separate processes),
    ``locmem://`` (this process only) or ``dummy://`` (nothing kept)."""
    scheme, _, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme in ("redis", "rediss"):
        return {
            "BACKEND": "beano.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "beano",
        }
    if scheme == "file":
        if not rest.startswith("/"):
            raise ImproperlyConfigured(f"CACHE_URL={url!r}: a file cache names a full path.")
        return {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": rest,
            "KEY_PREFIX": "beano",
            "OPTIONS": {"MAX_ENTRIES": FILE_CACHE_ENTRIES},
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


#: The key id of the events hashed with plain SHA-256, before the audit key existed.
LEGACY_AUDIT_KEY_ID = "sha256-legacy"
AUDIT_KEY_MIN_LENGTH = 32


def audit_key_id(key: bytes) -> str:
    """The name an audit event stores for the key its hash is keyed with. It is derived from the
    key, so two keys never share a name and rotating cannot reuse one by mistake; being an HMAC
    of a fixed text, it tells nothing of the key."""
    return "k" + hmac.new(key, b"beano-occasions audit key id", hashlib.sha256).hexdigest()[:15]


@dataclass(frozen=True)
class AuditKeys:
    """The audit keys this installation holds: ``current`` (the id new events are keyed with)
    and every key by its id, the fallbacks kept to check events written before a rotation."""

    current: str
    keys: dict[str, bytes]


def _audit_key_checked(name: str, value: str, secret_key: str) -> bytes:
    if len(value) < AUDIT_KEY_MIN_LENGTH or len(set(value)) < 5:
        raise ImproperlyConfigured(
            f"{name} is too weak: at least {AUDIT_KEY_MIN_LENGTH} characters, 5 distinct."
        )
    if value == secret_key:
        raise ImproperlyConfigured(
            f"{name} must not be SECRET_KEY: the audit key is kept apart from every other secret."
        )
    return value.encode()


def _audit_key_file(path: Path) -> str:
    """The embedded default's key: made once, readable by its owner only, never printed. It is
    written under another name and linked into place, so two processes starting at once (the
    web server, the worker, beat) both read the one key, whole."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    handle = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(handle, (secrets.token_urlsafe(48) + "\n").encode())
        os.fsync(handle)
    finally:
        os.close(handle)
    try:
        os.link(draft, path)
    except FileExistsError:
        pass  # another process made it first: its key is the one
    finally:
        draft.unlink()
    return path.read_text().strip()


def audit_keys(
    *,
    debug: bool,
    key_file: Path,
    secret_key: str,
    environ: Mapping[str, str] | None = None,
) -> AuditKeys:
    """The key audit events are hashed with (``AUDIT_KEY``), kept out of the database so that
    someone holding the database alone cannot rewrite the chain, and the keys of earlier
    rotations (``AUDIT_KEY_FALLBACKS``, a comma list). Required when DEBUG is off; the embedded
    default makes one in ``key_file`` and keeps it."""
    value = _raw("AUDIT_KEY", environ)
    if value is None:
        if not debug:
            raise ImproperlyConfigured(
                "AUDIT_KEY must be set when DEBUG is off (at least "
                f"{AUDIT_KEY_MIN_LENGTH} characters, not SECRET_KEY): see SECURITY.md."
            )
        value = _audit_key_file(key_file)
    current = _audit_key_checked("AUDIT_KEY", value, secret_key)
    keys = {audit_key_id(current): current}
    for old in env_list("AUDIT_KEY_FALLBACKS", [], environ):
        key = _audit_key_checked("AUDIT_KEY_FALLBACKS", old, secret_key)
        keys.setdefault(audit_key_id(key), key)
    return AuditKeys(current=audit_key_id(current), keys=keys)


#: ``EMAIL_URL`` schemes: SMTP (plain, STARTTLS, implicit TLS), the console, the embedded
#: default (the console and a file per message under the data folder), and memory (tests).
EMAIL_SCHEMES = {
    "smtp": 25,
    "smtp+tls": 587,
    "smtp+ssl": 465,
    "console": None,
    "console+file": None,
    "memory": None,
}
SMTP_BACKEND = "beano.mail.SMTPBackend"
LOCAL_EMAIL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "console+file": "beano.mail.ConsoleAndFileBackend",
    "memory": "django.core.mail.backends.locmem.EmailBackend",
}


def email_settings(
    url: str, *, mail_dir: Path, ca_file: str = "", name: str = "EMAIL_URL"
) -> dict[str, Any]:
    """Django's e-mail settings for a mail URL: ``smtp+tls://user:password@host:587`` in
    production (STARTTLS; ``smtp+ssl://`` for TLS from the first byte, ``smtp://`` for a relay
    on the same host), ``console://``, ``console+file://`` (the embedded default: printed and
    written to ``mail_dir``, so an invitation link can be found) or ``memory://``. The user and
    password are URL-quoted (``%40`` for an ``@``). ``ca_file`` (``EMAIL_SSL_CAFILE``): the CA
    certificates (PEM) a TLS server's certificate is verified against instead of the system's,
    for a relay with a private CA; the certificate and the host name are always verified."""
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme not in EMAIL_SCHEMES:
        raise ImproperlyConfigured(
            f"{name} must be a URL with one of the schemes {sorted(EMAIL_SCHEMES)}, "
            "e.g. smtp+tls://user:password@smtp.example.org:587"
        )
    local = {
        "EMAIL_HOST": "localhost",
        "EMAIL_PORT": 25,
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": False,
        "EMAIL_TIMEOUT": None,
        "EMAIL_FILE_PATH": mail_dir,
        "EMAIL_SSL_CAFILE": None,
    }
    if ca_file and not Path(ca_file).is_file():
        raise ImproperlyConfigured(
            f"EMAIL_SSL_CAFILE names no readable file: {ca_file} (the PEM file of the CA "
            "certificates the mail server's certificate is verified against)."
        )
    if scheme in LOCAL_EMAIL_BACKENDS:
        return local | {"EMAIL_BACKEND": LOCAL_EMAIL_BACKENDS[scheme]}
    try:
        parts = urlsplit(url)
        port = parts.port or EMAIL_SCHEMES[scheme]
    except ValueError:
        raise ImproperlyConfigured(f"{name} has a port that is not a number.") from None
    if not parts.hostname:
        raise ImproperlyConfigured(f"{name} names no host: e.g. smtp+tls://user:pw@host:587")
    if bool(parts.username) != bool(parts.password):
        raise ImproperlyConfigured(f"{name} must give both a user and a password, or neither.")
    return {
        "EMAIL_BACKEND": SMTP_BACKEND,
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": scheme == "smtp+tls",
        "EMAIL_USE_SSL": scheme == "smtp+ssl",
        "EMAIL_TIMEOUT": 20,
        "EMAIL_FILE_PATH": mail_dir,
        "EMAIL_SSL_CAFILE": ca_file or None,
    }

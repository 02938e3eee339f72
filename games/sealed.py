"""Secrets kept in the database only as ciphertext: a W-2G winner's taxpayer identification
number and the numbers of the IDs they showed (26 CFR 7.6041-1). Fernet (AES with an HMAC), its
key derived from SECRET_KEY by HKDF-SHA256 for this one purpose; keys derived from
SECRET_KEY_FALLBACKS still open what was sealed before a key rotation."""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

PURPOSE = b"beano-occasions/sealed-field/v1"


def _fernet(secret: str) -> Fernet:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=PURPOSE).derive(
        secret.encode()
    )
    return Fernet(base64.urlsafe_b64encode(key))


def _box() -> MultiFernet:
    secrets = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([_fernet(s) for s in secrets])


def seal(text: str) -> str:
    """The ciphertext of ``text`` (empty stays empty, so "none given" is still visible)."""
    if not text:
        return ""
    return _box().encrypt(text.encode()).decode("ascii")


def unseal(token: str) -> str:
    """The text sealed in ``token``; raises ValueError if it was not sealed with our keys."""
    if not token:
        return ""
    try:
        return _box().decrypt(token.encode("ascii")).decode()
    except InvalidToken as error:
        raise ValueError("The sealed value cannot be opened with the keys in force.") from error

"""Demo authenticators for the demo's Commission logins, and their codes for the demo only.

``seed_demo`` gives each demo login that must use a second factor a TOTP device named
``DEMO_DEVICE_NAME`` (a random key, made once and kept). ``manage.py totp_code USERNAME``
prints the current code of such a device, and of no other: a real user's device, enrolled
from the account page, is never named so.
"""

from __future__ import annotations

import time
from base64 import b32encode
from typing import Any

from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from beano.accounts.policy import second_factor_required

DEMO_DEVICE_NAME = "Demo authenticator (seed_demo)"


def ensure_demo_device(user: Any) -> TOTPDevice:
    device = TOTPDevice.objects.filter(user=user, name=DEMO_DEVICE_NAME, confirmed=True).first()
    if device is None:
        TOTPDevice.objects.filter(user=user).delete()
        device = TOTPDevice.objects.create(user=user, name=DEMO_DEVICE_NAME, confirmed=True)
    return device


def seed_demo_devices(users: list[Any]) -> list[tuple[str, TOTPDevice]]:
    """A demo device for each of ``users`` who must use a second factor."""
    return [
        (user.get_username(), ensure_demo_device(user))
        for user in users
        if second_factor_required(user)
    ]


def base32_key(device: TOTPDevice) -> str:
    """The key as an authenticator app takes it by hand, in groups of four."""
    text = b32encode(device.bin_key).decode("ascii").rstrip("=")
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


def current_code(device: TOTPDevice) -> tuple[str, int]:
    """The device's code now, and the seconds it stays valid."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time()
    code = str(totp.token()).zfill(device.digits)
    remaining = device.step - int(totp.time - device.t0) % device.step
    return code, remaining

"""Recovery codes: the second factor on paper, for the day the phone is lost. Enrolling an
authenticator app (or asking for new codes on the account page) makes ``CODE_COUNT`` codes,
shown once to be printed; each signs in once in place of the app's code (django-otp's static
tokens). Making new ones throws the old ones away, in the Commission's audit trail (never the
codes themselves)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken

from organizations.audit import record_event

CODE_COUNT = 10
DEVICE_NAME = "Recovery codes"


def make_codes(user: Any) -> list[str]:
    """New recovery codes for ``user``, replacing any they had."""
    with transaction.atomic():
        StaticDevice.objects.filter(user=user).delete()
        device = StaticDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=True)
        codes = [StaticToken.random_token() for _ in range(CODE_COUNT)]
        StaticToken.objects.bulk_create(StaticToken(device=device, token=c) for c in codes)
        record_event(
            organization=None,
            actor=user,
            action="accounts.recovery_codes.made",
            target=device,
            new={"user": user.get_username(), "codes": CODE_COUNT},
        )
    return codes


def recovery_device(user: Any) -> StaticDevice | None:
    return StaticDevice.objects.filter(user=user, confirmed=True).first()


def codes_left(user: Any) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def normalized(code: str) -> str:
    """A recovery code as typed (any case, spaces or a dash between its halves) as stored."""
    return "".join(code.split()).replace("-", "").lower()


def looks_like_recovery_code(code: str) -> bool:
    """Eight letters and digits (an app's code is six digits)."""
    return len(code) == 8 and code.isalnum()


def grouped(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def forget(user: Any) -> None:
    StaticDevice.objects.filter(user=user).delete()

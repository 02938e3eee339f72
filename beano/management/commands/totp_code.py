"""Print the current two-factor code of a demo login (``seed_demo``'s devices only)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django_otp.plugins.otp_totp.models import TOTPDevice

from beano.demo.authenticators import DEMO_DEVICE_NAME, current_code


class Command(BaseCommand):
    help = (
        "Print the current two-factor code of a demo login made by seed_demo. Refuses any "
        "other device: a real user's code comes only from their own phone."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        username = options["username"]
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no user {username!r}.")
        device = TOTPDevice.objects.filter(user=user, name=DEMO_DEVICE_NAME, confirmed=True).first()
        if device is None:
            raise CommandError(
                f"{username} has no demo authenticator: codes are printed only for the demo "
                "devices seed_demo makes, never for a device someone enrolled."
            )
        code, remaining = current_code(device)
        self.stdout.write(code)
        self.stderr.write(
            f"(valid for {remaining} more second{'s' if remaining != 1 else ''}; "
            "each code works once)"
        )

"""Demo data a new user can log in to: a real night for two organizations, seen from every role,
and today's practice occasion, open whatever the hour, at a practice hall that is not a
licensee. Idempotent: running it again the same day changes nothing; on a later day it adds
that day's practice occasion."""

from __future__ import annotations

import os
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils import timezone

from beano.demo import DEMO_PASSWORD
from beano.demo.authenticators import base32_key
from beano.demo.night_upload import file_to_upload
from beano.demo.people import INVITED_EMAIL
from beano.demo.practice_hall import LOGINS as PRACTICE_LOGINS
from beano.demo.seed import seed


class Command(BaseCommand):
    help = "Load the demo organizations, people, occasions and logins (idempotent)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--force", action="store_true", help="Allow it with DEBUG off (never in production)."
        )
        parser.add_argument(
            "--no-pdfs",
            action="store_false",
            dest="pdfs",
            help="Leave the filed reports' PDFs unrendered (the tests' demo: it is much faster).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError("seed_demo makes users with a published password; DEBUG is off.")
        seeded = seed(timezone.localdate(), pdfs=options["pdfs"])
        logins, practice, devices = seeded.logins, seeded.practice, seeded.devices
        self.stdout.write(
            self.style.SUCCESS(f"Demo data is loaded. Logins (password for all: {DEMO_PASSWORD}):")
        )
        for username, description in logins:
            self.stdout.write(f"  {username:<22} {description}")
        self.stdout.write(
            "API tokens (demo only, published; how to use them: docs/API.md), "
            "sent as 'Authorization: Bearer TOKEN':"
        )
        for plain, description in seeded.api_tokens:
            self.stdout.write(f"  {description}\n    {plain}")
        if practice is not None:
            path = reverse(
                "occasion_detail", kwargs={"org_id": practice.organization_id, "pk": practice.pk}
            )
            *others, last = (login[0] for login in PRACTICE_LOGINS)
            self.stdout.write(
                f"Today's practice occasion is {practice.get_status_display().lower()}, whatever "
                f"the hour: {path}\n  at {practice.organization}, never reported; its workers "
                f"{', '.join(others)} and {last} are signed in (their PINs above)."
            )
        self._night_file()
        if str(settings.EMAIL_BACKEND).endswith("ConsoleAndFileBackend"):
            self.stdout.write(
                "Every login has an e-mail address at example.org (USERNAME@example.org). "
                f"Post 171's head has invited {INVITED_EMAIL} as a worker (and St. Anne's head "
                "one too): the mail sent, the invitations with their links and the reminders of "
                f"the reports owed, is also kept in {settings.EMAIL_FILE_PATH}/."
            )
        if devices:
            python = os.path.relpath(sys.executable)
            self.stdout.write(
                "The Commission's logins, the heads of organization and the bookkeepers also ask "
                "for a two-factor code. For the demo, print the "
                f"current one with\n  {python} manage.py totp_code USERNAME\n"
                "or add the key to an authenticator app (time-based, 6 digits, 30 seconds):"
            )
            for username, device in devices:
                self.stdout.write(f"  {username:<22} {base32_key(device)}")

    def _night_file(self) -> None:
        """The example night Post 171's bookkeeper may upload (docs/GUIDE.md)."""
        found = file_to_upload(timezone.localdate(), settings.DATA_DIR / "demo")
        if found is None:
            return
        path, day = found
        base = settings.BASE_DIR
        shown = os.path.relpath(path, base) if path.is_relative_to(base) else path
        self.stdout.write(
            "A night file for post171-books to upload (Reports, then Upload a night file): "
            f"{shown}, the night of {day:%A, %B} {day.day}, {day.year}, nothing recorded on it yet."
        )

"""Demo data a new user can log in to: a real night for two organizations, seen from every role.
Idempotent: running it again changes nothing."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from occasions import demo as occasions_demo
from organizations.demo import DEMO_PASSWORD, Seeder
from reports import demo as reports_demo


class Command(BaseCommand):
    help = "Load the demo organizations, people, occasions and logins (idempotent)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--force", action="store_true", help="Allow it with DEBUG off (never in production)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError("seed_demo makes users with a published password; DEBUG is off.")
        today = timezone.localdate()
        with transaction.atomic():
            logins = Seeder().seed(today)
            occasions_demo.seed(today)
            reports_demo.seed(today)
        self.stdout.write(
            self.style.SUCCESS(f"Demo data is loaded. Logins (password for all: {DEMO_PASSWORD}):")
        )
        for username, description in logins:
            self.stdout.write(f"  {username:<22} {description}")

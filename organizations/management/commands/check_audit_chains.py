"""Check every audit chain: each organization's and the Commission's. Exits non-zero on a break,
so a restored backup (docs/BACKUP.md) or a cron job can rely on its status."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from organizations.audit import verify_chain
from organizations.models import AuditChain, AuditEvent, Organization


class Command(BaseCommand):
    help = "Verify the audit hash chain of every organization (and the Commission's)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--organization", type=int, action="append", help="Only this organization (repeat)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        organizations = Organization.objects.order_by("pk")
        if options["organization"]:
            organizations = organizations.filter(pk__in=options["organization"])
            unknown = set(options["organization"]) - set(organizations.values_list("pk", flat=True))
            if unknown:
                raise CommandError(f"No organization {', '.join(map(str, sorted(unknown)))}.")
        chains: list[tuple[str, Organization | None]] = [
            (f"{org} (#{org.pk})", org) for org in organizations
        ]
        commission = (
            AuditEvent.objects.filter(organization__isnull=True).exists()
            or AuditChain.objects.filter(organization__isnull=True).exists()
        )
        if commission and not options["organization"]:
            chains.append(("the Commission", None))
        broken = 0
        for name, organization in chains:
            check = verify_chain(organization)
            if check.ok:
                self.stdout.write(f"{name}: {check}")
            else:
                broken += 1
                self.stdout.write(self.style.ERROR(f"{name}: {check}"))
        if broken:
            raise CommandError(f"{broken} of {len(chains)} audit chains are broken.")
        self.stdout.write(self.style.SUCCESS(f"All {len(chains)} audit chains are intact."))

"""Restore one organization's archive into this database (docs/BACKUP.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from beano.backup.importer import ImportFailed, ImportRefused, import_organization


class Command(BaseCommand):
    help = (
        "Restore an archive written by export_organization into this database, which must not "
        "hold the organization; in one transaction, checked by the audit chain."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", help="The .tar.gz written by export_organization.")
        parser.add_argument(
            "--allow-trail-differences",
            action="store_true",
            help="Import even if records differ from what their audit trail last recorded.",
        )
        parser.add_argument(
            "--allow-broken-chain",
            action="store_true",
            help="Import a chain that was already broken at export, at the same event.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = import_organization(
                Path(options["archive"]),
                allow_trail_differences=options["allow_trail_differences"],
                allow_broken_chain=options["allow_broken_chain"],
            )
        except (ImportRefused, ImportFailed) as error:
            raise CommandError(str(error)) from error
        for warning in result.warnings:
            self.stderr.write(self.style.WARNING(f"Warning: {warning}"))
        rows = sum(result.counts.values())
        self.stdout.write(
            f"Restored {result.organization_name} (#{result.organization_id}): {rows:,} rows "
            f"of its own in {len(result.counts)} models, in {result.seconds:.1f} s."
        )
        for label, count in result.shared.items():
            self.stdout.write(
                f"  shared {label}: {count.added} added, {count.matched} already here"
            )
        self.stdout.write(
            f"  files: {result.files_written} written to the media folder"
            + (f", {result.files_present} already there" if result.files_present else "")
        )
        if result.chain.ok:
            events = result.chain.intact_through
            self.stdout.write(self.style.SUCCESS(f"Audit chain intact through event {events}"))
            self.stdout.write(
                f"  chain head {result.chain_head}: compare it with one kept elsewhere (a filed "
                "report prints the head at filing) to be sure the chain was not rewritten."
            )
        else:
            self.stdout.write(self.style.WARNING(f"Audit chain: {result.chain}"))

"""Write one organization's records, files and audit chain to an archive (docs/BACKUP.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from beano.backup.exporter import ExportError, export_organization
from organizations.models import Organization


class Command(BaseCommand):
    help = (
        "Export one organization's records (every model of the project's apps that leads to "
        "it, the shared rows they name, its uploaded files and its audit chain) to a .tar.gz."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("organization_id", type=int)
        parser.add_argument("--output", required=True, help="The archive to write (.tar.gz).")
        parser.add_argument(
            "--force", action="store_true", help="Replace the archive if it exists."
        )
        parser.add_argument(
            "--allow-missing-files",
            action="store_true",
            help="Write the archive even if files the rows name are missing (listed in it).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            organization = Organization.objects.get(pk=options["organization_id"])
        except Organization.DoesNotExist:
            raise CommandError(f"No organization {options['organization_id']}.") from None
        output = Path(options["output"])
        if output.exists() and not options["force"]:
            raise CommandError(f"{output} exists: choose another name, or --force to replace it.")
        try:
            result = export_organization(
                organization, output, allow_missing_files=options["allow_missing_files"]
            )
        except ExportError as error:
            raise CommandError(str(error)) from error
        manifest = result.manifest
        rows = sum(m["count"] for m in manifest["models"] if m["scope"] == "organization")
        shared = sum(m["count"] for m in manifest["models"] if m["scope"] != "organization")
        chain = manifest["audit_chain"]
        for warning in result.warnings:
            self.stderr.write(self.style.WARNING(f"Warning: {warning}"))
        self.stdout.write(
            f"{output}: {organization} (#{organization.pk}), {rows:,} rows of its own in "
            f"{sum(1 for m in manifest['models'] if m['scope'] == 'organization')} models, "
            f"{shared:,} shared rows, {len(manifest['files'])} files; "
            f"{result.size:,} bytes in {result.seconds:.1f} s."
        )
        self.stdout.write(
            f"Audit chain: {chain['check']} Head of event {chain['length']}: {chain['head_hash']}"
        )
        if options["verbosity"] > 1:
            for entry in manifest["models"]:
                if entry["count"]:
                    model, count, kind = entry["model"], entry["count"], entry["scope"]
                    self.stdout.write(f"  {model:<45} {count:>8,}  {kind}")

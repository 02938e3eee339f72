"""Check every audit chain (each organization's and the Commission's) and what it vouches for:
its keyed hashes and sealed head, its last checkpoint kept outside the database, every filed
report's figures and recorded chain head, and every money record against its last audit event
(beano.integrity). Exits non-zero on any problem, so a restored backup (docs/BACKUP.md) or a cron
job can rely on its status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from beano.integrity import ChainReport, check_all
from organizations.models import Organization


class Command(BaseCommand):
    help = (
        "Verify every audit chain (keys, head, last checkpoint), the filed reports and the "
        "money records against their audit trail."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--organization", type=int, action="append", help="Only this organization (repeat)."
        )
        parser.add_argument(
            "--checkpoint",
            type=Path,
            help="Compare with the checkpoints in this file (one kept elsewhere, or received by "
            "e-mail) instead of AUDIT_CHECKPOINT_FILE.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        organizations = None
        if options["organization"]:
            organizations = Organization.objects.filter(pk__in=options["organization"])
            unknown = set(options["organization"]) - set(organizations.values_list("pk", flat=True))
            if unknown:
                raise CommandError(f"No organization {', '.join(map(str, sorted(unknown)))}.")
            organizations = organizations.order_by("pk")
        if options["checkpoint"] is not None and not options["checkpoint"].is_file():
            raise CommandError(f"No checkpoint file at {options['checkpoint']}.")
        try:
            reports, gone = check_all(organizations, options["checkpoint"])
        except ValueError as error:  # a damaged checkpoint file
            raise CommandError(str(error)) from error
        for report in reports:
            self._write(report)
        for line in gone:
            self.stdout.write(self.style.ERROR(line))
        bad = sum(1 for r in reports if not r.ok)
        problems = sum(len(r.problems) for r in reports) + len(gone)
        if problems:
            raise CommandError(
                f"{problems} problem(s): {bad} of {len(reports)} audit chains have them"
                + (f", {len(gone)} checkpointed chain(s) are gone." if gone else ".")
            )
        documents = sum(r.reports_checked for r in reports)
        records = sum(r.records_checked for r in reports)
        self.stdout.write(
            self.style.SUCCESS(
                f"All {len(reports)} audit chains are intact; {_count(documents, 'filed report')} "
                f"and {_count(records, 'money record')} check."
            )
        )

    def _write(self, report: ChainReport) -> None:
        if report.chain.ok:
            self.stdout.write(f"{report.name}: {report.chain}")
        else:
            self.stdout.write(self.style.ERROR(f"{report.name}: {report.chain}"))
        if report.checkpoint is None:
            self.stdout.write("  No checkpoint of this chain yet.")
        elif not report.checkpoint_problem:
            when = timezone.localtime(report.checkpoint.when)
            self.stdout.write(
                f"  Holds its checkpoint of {when:%b %-d, %Y %H:%M} (event "
                f"{report.checkpoint.length})."
            )
        if report.organization is not None:
            self.stdout.write(
                f"  {_count(report.reports_checked, 'filed report')} and "
                f"{_count(report.records_checked, 'money record')} checked against the trail."
            )
        for problem in report.problems[0 if report.chain.ok else 1 :]:
            self.stdout.write(self.style.ERROR(f"  {problem}"))


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" + ("" if number == 1 else "s")

"""Write an occasion's financial report PDF: the current filed version, or a draft of the
figures as they stand when nothing is filed yet (marked as such). Figures that do not check
against the audit trail are printed with the warning on the PDF's first page, and said here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from occasions.models import Occasion
from reports import integrity, pdf
from reports.models import FinancialReport


class Command(BaseCommand):
    help = "Write the PDF/A financial report of an occasion (its current filed version)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("occasion_id", type=int)
        parser.add_argument("--output", required=True, help="Where to write the PDF.")
        parser.add_argument(
            "--report-version", type=int, help="A filed version other than the current one."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            occasion = Occasion.objects.select_related("organization").get(
                pk=options["occasion_id"]
            )
        except Occasion.DoesNotExist:
            raise CommandError(f"No occasion {options['occasion_id']}.") from None
        versions = FinancialReport.objects.filter(occasion=occasion).select_related("filed_by")
        if options["report_version"]:
            versions = versions.filter(version=options["report_version"])
        report = versions.order_by("-version").first()
        if report is None:
            raise CommandError(
                f"The report of {occasion} is not filed"
                + (f" in version {options['report_version']}" if options["report_version"] else "")
                + ": file it first (the PDF shows what was filed)."
            )
        for problem in integrity.document_problems(report):
            self.stderr.write(self.style.ERROR(f"Warning, printed on the PDF: {problem}"))
        data = pdf.render_pdf(report)
        out = Path(options["output"])
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        self.stdout.write(
            f"{out}: {occasion}, version {report.version}, {len(data):,} bytes, "
            f"SHA-256 {pdf.sha256(data)}"
        )

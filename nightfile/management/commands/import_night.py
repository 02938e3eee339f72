"""Record a night file (beano-night/1) through the same services and rules as the floor, all or
nothing. On a refusal: each reason with its citation, nothing saved, exit status 2. A file that
cannot be read: one line saying what and where, exit status 2. With --json, a refusal too is
printed as JSON (its shape: docs/formats/night-file.md). The judging is
``nightfile.upload.judge_night``'s, as on the upload page and in the API; here with no time
limit."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from beano.rules.money import usd
from nightfile import files
from nightfile.acts import unreadable
from nightfile.format import NightFormatError
from nightfile.upload import judge_night


class Command(BaseCommand):
    help = "Record a night file through the services and rules (docs/formats/night-file.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The night file (JSON).")
        parser.add_argument(
            "--dry-run", action="store_true", help="Judge every act, then save nothing."
        )
        parser.add_argument(
            "--json", action="store_true", help="Print the night's figures as JSON on success."
        )
        parser.add_argument("--by", help="The username who enters the night (else: system).")

    def fail(self, options: dict[str, Any], path: Path, refusal: dict[str, Any]) -> None:
        """Print the refusal (as JSON with --json, else as text: one line saying what and where,
        or each reason with its citation) and end with exit status 2."""
        if options["json"]:
            self.stdout.write(json.dumps({"file": str(path)} | refusal, indent=2))
        elif refusal["status"] == "unreadable":
            self.stderr.write(f"{path}: {refusal['message']}")
        else:
            lines = [f"{path}: refused; nothing was saved."]
            lines += [f"  {r['text']}" for r in refusal["refusals"]]
            self.stderr.write("\n".join(lines))
        sys.exit(2)

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        by = None
        if options["by"]:
            by = get_user_model().objects.filter(username=options["by"]).first()
            if by is None:
                return self.fail(options, path, unreadable(f"--by: no user {options['by']!r}."))
        try:
            data = files.load(path)
        except NightFormatError as error:
            return self.fail(options, path, unreadable(str(error)))
        outcome = judge_night(data, by=by, file_name=path.name, dry_run=options["dry_run"])
        if not outcome.accepted:
            return self.fail(options, path, outcome.as_json())
        if outcome.saved:
            occasion = outcome.occasion
            line = f"{path}: recorded as {occasion} (occasion {occasion.pk})."
        else:
            line = f"{path}: every act accepted; nothing saved (dry run)."
        self._done(options, outcome.figures, line)
        return None

    def _done(self, options: dict[str, Any], figures: dict[str, Any], line: str) -> None:
        if options["json"]:
            self.stdout.write(json.dumps(figures, indent=2))
        else:
            self.stdout.write(line)
            amount = {name: usd(Decimal(figure)) for name, figure in figures.items()}
            self.stdout.write(
                f"  gross receipts {amount['gross_receipts']}, Beano tax {amount['beano_tax']}, "
                f"prizes {amount['prizes_total']}, net proceeds {amount['net_proceeds']}"
            )

"""Write a whole night as a night file (beano-night/1): everything the control-sheet pages take,
times relative to its date, and its figures under "figures" (ignored on import)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from beano.rules.money import usd
from nightfile import writer
from occasions.models import Occasion


class Command(BaseCommand):
    help = "Write an occasion as a night file (docs/formats/night-file.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("occasion_id", type=int)
        parser.add_argument("--output", required=True, help="Where to write the JSON file.")
        parser.add_argument(
            "--with-tins",
            action="store_true",
            help="Write W-2G winners' TINs and ID numbers in clear (kept sealed otherwise).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        occasion = (
            Occasion.objects.select_related("organization", "license")
            .filter(pk=options["occasion_id"])
            .first()
        )
        if occasion is None:
            raise CommandError(f"No occasion {options['occasion_id']}.")
        if occasion.status == Occasion.Status.NOT_PLAYED:
            raise CommandError(f"{occasion} was not played: there is no night to export.")
        data = writer.export(occasion, with_tins=options["with_tins"])
        out = Path(options["output"])
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        figures = data["figures"]
        self.stdout.write(
            f"{out}: {occasion}, gross receipts {usd(Decimal(figures['gross_receipts']))}, "
            f"net proceeds {usd(Decimal(figures['net_proceeds']))}"
        )

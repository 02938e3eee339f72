"""Print the catalog of every rule the system enforces."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand

from beano.rules.catalog import catalog


class Command(BaseCommand):
    help = (
        "List every rule: code, citation, title, the actions it guards, and whether it is waivable."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--json", action="store_true", help="Print a JSON array.")

    def handle(self, *args: Any, **options: Any) -> None:
        entries = catalog()
        if options["json"]:
            self.stdout.write(json.dumps(entries, indent=2, ensure_ascii=False))
            return
        for e in entries:
            waiver = f"  [waivable: {e['waiver_label']}]" if e["waivable"] else ""
            self.stdout.write(f"{e['citation']:<22} {e['code']:<26} {e['title']}{waiver}")
            self.stdout.write(f"{'':<22} guards: {', '.join(e['guards'])}")

"""Write every kept figure again from the records (``reports.kept``): each closed occasion's
figures, prizes by game against the limits in force, winners matched against the worker lists,
and the statewide medians of every month. For a restored backup, records changed outside the
services (by hand, or data loaded in bulk), or a limit row corrected after the nights it
covers. Safe to run at any time: it writes only the kept tables."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from reports.kept import rebuild
from reports.kept_models import KeptStatewideMonth, KeptWinnerMatch


class Command(BaseCommand):
    help = "Rebuild the kept figures of every closed occasion and the statewide medians."

    def handle(self, *args: Any, **options: Any) -> None:
        kept = rebuild()
        self.stdout.write(
            self.style.SUCCESS(
                f"Kept the figures of {kept} closed occasion(s), "
                f"{KeptWinnerMatch.objects.count()} winner(s) matched against worker lists, "
                f"{KeptStatewideMonth.objects.values('month').distinct().count()} month(s) "
                "of statewide medians."
            )
        )

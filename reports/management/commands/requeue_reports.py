"""Send again the renders of filed reports whose PDF is still to be made, for operations: after
the broker was down (versions queued with no task id), or with ``--stuck`` after a worker was
lost with its message (versions left queued or being made under a task id)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from reports.tasks import resend, unfinished


class Command(BaseCommand):
    help = (
        "Send again every filed report version queued with no task id (the broker was down "
        "when it was filed); with --stuck, also those queued or being made under a task id."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--stuck",
            action="store_true",
            help="Also versions queued or being made under a task id: a worker lost with its "
            "message. Safe if one is in fact on its way: a version's PDF is made once.",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="List what would be sent; send nothing."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["dry_run"]:
            for document in unfinished(stuck=options["stuck"]):
                self.stdout.write(
                    f"{type(document).__name__} {document.pk} ({document.render_status}, "
                    f"task {document.render_task_id or 'none'})"
                )
            return
        sent, failed = resend(stuck=options["stuck"])
        self.stdout.write(f"Sent {sent} report version(s) to the worker.")
        if failed:
            raise CommandError(
                f"{failed} version(s) could not be sent: the task queue cannot be reached. "
                "They stay queued; run this again once it is back."
            )

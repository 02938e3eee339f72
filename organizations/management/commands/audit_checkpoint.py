"""Write a checkpoint of every audit chain now, as the nightly task does: appended to the file
outside the database and e-mailed to the Commission's addresses (organizations.checkpoints). The
lines are printed too, to keep or send elsewhere."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from organizations import checkpoints


class Command(BaseCommand):
    help = "Append a checkpoint of every audit chain (length, head) to the checkpoint file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--no-email", action="store_true", help="Do not e-mail it (AUDIT_CHECKPOINT_EMAIL)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        taken = checkpoints.take()
        if not taken:
            self.stdout.write("No audit chain yet: nothing to checkpoint.")
            return
        file = checkpoints.append(taken)
        sent = 0 if options["no_email"] else checkpoints.email(taken)
        for checkpoint in taken:
            self.stdout.write(checkpoint.line())
        where = f"Appended {len(taken)} chain(s) to {file}"
        self.stderr.write(where + (", and e-mailed it." if sent else "."))

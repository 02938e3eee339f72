"""The embedded default's mail: each message printed on the console (where ``make run``
shows it) and written to a file under the data folder's ``mail/`` (where a new user finds an
invitation link or a reminder afterwards)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from django.core.mail.backends.filebased import EmailBackend as FileBackend
from django.core.mail.message import EmailMessage


class ConsoleAndFileBackend(FileBackend):
    """Django's file backend (one ``.log`` file per connection under ``EMAIL_FILE_PATH``, the
    whole message with its HTML part) that also prints each message's plain text on standard
    output: who it is to, its subject and its words (an invitation's link), not the raw MIME a
    new user would have to scroll past."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = super().send_messages(email_messages)
        for message in email_messages:
            sys.stdout.write(
                f"\n--- E-mail to {', '.join(message.to)}: {message.subject}\n"
                f"{message.body.strip()}\n--- (the whole message is kept in {self._fname})\n"
            )
        sys.stdout.flush()
        return sent

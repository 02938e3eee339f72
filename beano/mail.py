"""The embedded default's mail: each message printed on the console (where ``make run``
shows it) and written to a file under the data folder's ``mail/`` (where a new user finds an
invitation link or a reminder afterwards)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.mail.backends.console import EmailBackend as ConsoleBackend
from django.core.mail.backends.filebased import EmailBackend as FileBackend
from django.core.mail.message import EmailMessage


class ConsoleAndFileBackend(FileBackend):
    """Django's file backend (one ``.log`` file per connection under ``EMAIL_FILE_PATH``) that
    also prints every message to standard output."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._console = ConsoleBackend(fail_silently=self.fail_silently)

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = super().send_messages(email_messages)
        self._console.send_messages(email_messages)
        return sent

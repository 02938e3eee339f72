"""The mail backends ``EMAIL_URL`` chooses among beside Django's own: SMTP whose TLS always
verifies the server's certificate and name (against ``EMAIL_SSL_CAFILE`` when set), and the
embedded default: each message printed on the console (where ``make run`` shows it) and
written to a file under the data folder's ``mail/`` (where a new user finds an invitation link
or a reminder afterwards)."""

from __future__ import annotations

import ssl
import sys
from collections.abc import Sequence

from django.conf import settings
from django.core.mail.backends.filebased import EmailBackend as FileBackend
from django.core.mail.backends.smtp import EmailBackend as DjangoSMTPBackend
from django.core.mail.message import EmailMessage
from django.utils.functional import cached_property


class SMTPBackend(DjangoSMTPBackend):
    """Django's SMTP backend, its TLS context (STARTTLS or TLS from the first byte) verifying
    the server's certificate and host name against the CA certificates of
    ``EMAIL_SSL_CAFILE`` when set (a relay whose certificate a private CA signed), else the
    system's. Django's own verifies against the system's only (and, with a client certificate,
    loads no CA at all)."""

    @cached_property
    def ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(cafile=getattr(settings, "EMAIL_SSL_CAFILE", None))
        if self.ssl_certfile or self.ssl_keyfile:
            context.load_cert_chain(self.ssl_certfile, self.ssl_keyfile)
        return context


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

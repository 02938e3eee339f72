"""An invitation received by a real SMTP server: aiosmtpd in a process of its own, storing what
it receives in a maildir, and Django's SMTP backend pointed at it."""

from __future__ import annotations

import mailbox
import re
import time
from email.message import Message

from organizations import people
from organizations.models import Role


def test_an_invitation_reaches_a_real_smtp_server(
    settings, tenant, member, smtp_server, django_capture_on_commit_callbacks
):
    port, maildir = smtp_server
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    with django_capture_on_commit_callbacks(execute=True):
        invitation = people.invite(
            organization=tenant.organization,
            email="joseph@example.org",
            roles=[Role.WORKER],
            person=member.person,
            by=tenant.head,
        )
    received: list[Message] = []
    deadline = time.monotonic() + 10
    while not received and time.monotonic() < deadline:
        received = list(mailbox.Maildir(maildir, create=False)) if maildir.exists() else []
        time.sleep(0.1)
    [message] = received
    assert message["To"] == "joseph@example.org"
    assert tenant.organization.name in message["Subject"]
    parts = {part.get_content_type(): part for part in message.walk()}
    text = parts["text/plain"].get_payload(decode=True).decode()
    token = re.search(r"/invitation/(\S+)/", text).group(1)
    assert people.invitation_from_token(token) == invitation
    assert "text/html" in parts

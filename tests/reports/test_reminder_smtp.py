"""A reminder received by a real SMTP server process (aiosmtpd), through Django's SMTP backend
as ``EMAIL_URL=smtp://host:port`` configures it."""

from __future__ import annotations

import datetime as dt
import email
import mailbox
import time
from email import policy
from pathlib import Path
from typing import Any

from django.utils import timezone

from beano.env import email_settings
from reports.obligations import due_on
from reports.reminder_services import send_reminders

NIGHT = dt.date(2026, 12, 4)


def test_a_reminder_reaches_a_real_smtp_server(smtp_server, settings, tenant, monkeypatch):
    port, maildir = smtp_server
    for name, value in email_settings(
        f"smtp://127.0.0.1:{port}", mail_dir=Path(settings.EMAIL_FILE_PATH)
    ).items():
        setattr(settings, name, value)
    org = tenant.organization
    org.reports_from = NIGHT
    org.save(update_fields=["reports_from"])
    tenant.head.email = "head@example.org"
    tenant.head.save(update_fields=["email"])
    moment = timezone.make_aware(dt.datetime.combine(due_on(NIGHT), dt.time(7)))
    monkeypatch.setattr(timezone, "now", lambda: moment)

    assert send_reminders() == 2  # the head (e-mailed) and the bookkeeper (no address)

    deadline = time.monotonic() + 10
    messages: list[Any] = []
    while not messages and time.monotonic() < deadline:
        if maildir.exists():
            messages = list(mailbox.Maildir(maildir, factory=None, create=False))
        time.sleep(0.1)
    assert len(messages) == 1
    received = messages[0]
    assert received["To"] == "head@example.org"
    assert "due today" in received["Subject"]
    parsed = email.message_from_bytes(received.as_bytes(), policy=policy.default)
    text = parsed.get_body(preferencelist=("plain",)).get_content()
    html = parsed.get_body(preferencelist=("html",)).get_content()
    assert "961 CMR 3.05(1)(a)" in text and "<strong>" in html

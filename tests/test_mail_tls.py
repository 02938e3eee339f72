"""Mail over SMTP with TLS, as production sends it (``EMAIL_URL=smtp+tls://…``): an invitation
and a reminder delivered to a real SMTP server process (aiosmtpd) that requires STARTTLS, its
certificate signed by a private CA the application is told to trust (``EMAIL_SSL_CAFILE``) and
verified, name included. The same server refuses mail sent in plain text, and the application
refuses the server when it does not trust its certificate: nothing is delivered then."""

from __future__ import annotations

import datetime as dt
import email
import mailbox
import re
import smtplib
import ssl
import time
from email import policy
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from beano.env import email_settings
from organizations import people
from organizations.models import Invitation, Role
from organizations.people_mail import send_invitation
from reports.models import SentReminder
from reports.obligations import due_on
from reports.reminder_services import send_reminders
from tests.smtp_server import TLSServer

NIGHT = dt.date(2026, 12, 4)


def _configure(settings: Any, url: str, ca_file: Path | None) -> None:
    values = email_settings(
        url, mail_dir=Path(settings.EMAIL_FILE_PATH), ca_file=str(ca_file or "")
    )
    for name, value in values.items():
        setattr(settings, name, value)


def _received(maildir: Path, count: int) -> list[Any]:
    deadline = time.monotonic() + 10
    messages: list[Any] = []
    while len(messages) < count and time.monotonic() < deadline:
        if maildir.exists():
            messages = list(mailbox.Maildir(maildir, factory=None, create=False))
        time.sleep(0.1)
    return messages


def _nothing_received(maildir: Path) -> bool:
    time.sleep(0.5)  # what the server would have written by now
    return not maildir.exists() or not list(mailbox.Maildir(maildir, create=False))


def _body(message: Any, kind: str) -> str:
    parsed = email.message_from_bytes(message.as_bytes(), policy=policy.default)
    return parsed.get_body(preferencelist=(kind,)).get_content()


def _invite(tenant: Any, member: Any, capture: Any) -> Invitation:
    with capture(execute=True):
        return people.invite(
            organization=tenant.organization,
            email="joseph@example.org",
            roles=[Role.WORKER],
            person=member.person,
            by=tenant.head,
        )


def test_an_invitation_is_delivered_over_starttls_to_a_verified_server(
    settings, tenant, member, smtp_tls_server: TLSServer, django_capture_on_commit_callbacks
):
    _configure(settings, f"smtp+tls://localhost:{smtp_tls_server.port}", smtp_tls_server.ca_file)
    assert settings.EMAIL_USE_TLS and str(smtp_tls_server.ca_file) == settings.EMAIL_SSL_CAFILE
    assert settings.EMAIL_BACKEND == "beano.mail.SMTPBackend"

    invitation = _invite(tenant, member, django_capture_on_commit_callbacks)

    [message] = _received(smtp_tls_server.maildir, 1)
    assert message["To"] == "joseph@example.org"
    assert tenant.organization.name in message["Subject"]
    token = re.search(r"/invitation/(\S+)/", _body(message, "plain")).group(1)
    assert people.invitation_from_token(token) == invitation
    assert "/invitation/" in _body(message, "html")


def test_a_reminder_is_delivered_over_starttls_to_a_verified_server(
    settings, tenant, smtp_tls_server: TLSServer, monkeypatch
):
    _configure(settings, f"smtp+tls://localhost:{smtp_tls_server.port}", smtp_tls_server.ca_file)
    org = tenant.organization
    org.reports_from = NIGHT
    org.save(update_fields=["reports_from"])
    tenant.head.email = "head@example.org"
    tenant.head.save(update_fields=["email"])
    moment = timezone.make_aware(dt.datetime.combine(due_on(NIGHT), dt.time(7)))
    monkeypatch.setattr(timezone, "now", lambda: moment)

    assert send_reminders() == 2  # the head (e-mailed) and the bookkeeper (no address)

    [message] = _received(smtp_tls_server.maildir, 1)
    assert message["To"] == "head@example.org"
    assert "due today" in message["Subject"]
    assert "961 CMR 3.05(1)(a)" in _body(message, "plain")
    assert "<strong>" in _body(message, "html")


def test_the_server_refuses_mail_sent_in_plain_text(
    settings, tenant, member, smtp_tls_server: TLSServer, django_capture_on_commit_callbacks
):
    _configure(settings, f"smtp://localhost:{smtp_tls_server.port}", None)
    assert not settings.EMAIL_USE_TLS

    plain = mail.get_connection(fail_silently=False)
    with pytest.raises(smtplib.SMTPException) as refused:
        mail.EmailMessage("Plain", "text", to=["a@example.org"], connection=plain).send()
    assert "STARTTLS" in str(refused.value)

    invitation = _invite(tenant, member, django_capture_on_commit_callbacks)
    assert send_invitation(invitation, "http://localhost/x/") is False  # logged, not raised
    assert _nothing_received(smtp_tls_server.maildir)


def test_a_server_whose_certificate_is_not_trusted_gets_nothing(
    settings, tenant, smtp_tls_server: TLSServer, monkeypatch
):
    # TLS asked for, but the private CA not given: the system's CAs do not know it.
    _configure(settings, f"smtp+tls://localhost:{smtp_tls_server.port}", None)
    connection = mail.get_connection(fail_silently=False)
    with pytest.raises(ssl.SSLCertVerificationError):
        mail.EmailMessage("Secret", "text", to=["a@example.org"], connection=connection).send()

    # Trusted, but reached under a name its certificate does not carry (it is for localhost):
    # refused too.
    _configure(settings, f"smtp+tls://127.0.0.1:{smtp_tls_server.port}", smtp_tls_server.ca_file)
    connection = mail.get_connection(fail_silently=False)
    with pytest.raises(ssl.SSLCertVerificationError, match="mismatch"):
        mail.EmailMessage("Secret", "text", to=["a@example.org"], connection=connection).send()

    # A reminder then is not sent, nor recorded as sent: the next run tries again.
    _configure(settings, f"smtp+tls://localhost:{smtp_tls_server.port}", None)
    org = tenant.organization
    org.reports_from = NIGHT
    org.save(update_fields=["reports_from"])
    tenant.head.email = "head@example.org"
    tenant.head.save(update_fields=["email"])
    moment = timezone.make_aware(dt.datetime.combine(due_on(NIGHT), dt.time(7)))
    monkeypatch.setattr(timezone, "now", lambda: moment)
    assert send_reminders() == 1  # only the bookkeeper's, who has no address to mail
    assert not SentReminder.objects.filter(user=tenant.head).exists()
    assert _nothing_received(smtp_tls_server.maildir)

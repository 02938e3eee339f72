"""EMAIL_URL: SMTP with TLS in production, the console and files by default; a bad URL stops
the process with a message that says what to write."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core import mail
from django.core.exceptions import ImproperlyConfigured

from beano.env import email_settings
from beano.mail import ConsoleAndFileBackend

MAIL = Path("/tmp/mail-dir")


def test_smtp_with_starttls_and_quoted_credentials():
    s = email_settings("smtp+tls://beano%40example.org:p%3Ass@smtp.example.org", mail_dir=MAIL)
    assert s["EMAIL_BACKEND"] == "beano.mail.SMTPBackend"
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"]) == ("smtp.example.org", 587)
    assert (s["EMAIL_HOST_USER"], s["EMAIL_HOST_PASSWORD"]) == ("beano@example.org", "p:ss")
    assert s["EMAIL_USE_TLS"] is True and s["EMAIL_USE_SSL"] is False


def test_smtp_with_tls_from_the_first_byte_and_a_port():
    s = email_settings("smtp+ssl://mail.example.org:2465", mail_dir=MAIL)
    assert (s["EMAIL_PORT"], s["EMAIL_USE_SSL"], s["EMAIL_USE_TLS"]) == (2465, True, False)
    assert s["EMAIL_HOST_USER"] == ""


def test_the_embedded_default_prints_and_files():
    s = email_settings("console+file://", mail_dir=MAIL)
    assert s["EMAIL_BACKEND"] == "beano.mail.ConsoleAndFileBackend"
    assert s["EMAIL_FILE_PATH"] == MAIL


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("smtps://host", "schemes"),
        ("host:25", "schemes"),
        ("smtp+tls://host:port", "port that is not a number"),
        ("smtp+tls://:587", "names no host"),
        ("smtp+tls://user@host", "both a user and a password"),
    ],
)
def test_a_bad_url_is_refused_clearly(url, says):
    with pytest.raises(ImproperlyConfigured, match=says) as error:
        email_settings(url, mail_dir=MAIL)
    assert "EMAIL_URL" in str(error.value)


def test_the_console_and_file_backend_does_both(tmp_path, capsys):
    backend = ConsoleAndFileBackend(file_path=str(tmp_path))
    message = mail.EmailMessage("Your invitation", "Open http://x/invite/abc", to=["a@example.org"])
    assert backend.send_messages([message]) == 1
    [written] = list(tmp_path.iterdir())
    assert "http://x/invite/abc" in written.read_text()
    printed = capsys.readouterr().out
    assert "E-mail to a@example.org: Your invitation" in printed
    assert "http://x/invite/abc" in printed
    assert "Content-Type" not in printed  # the words, not the raw message


def test_a_ca_file_for_a_private_relay(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    s = email_settings("smtp+tls://relay.internal", mail_dir=MAIL, ca_file=str(ca))
    assert s["EMAIL_SSL_CAFILE"] == str(ca)
    assert email_settings("smtp+tls://relay.internal", mail_dir=MAIL)["EMAIL_SSL_CAFILE"] is None
    with pytest.raises(ImproperlyConfigured, match="EMAIL_SSL_CAFILE names no readable file"):
        email_settings("smtp+tls://relay.internal", mail_dir=MAIL, ca_file=str(tmp_path / "no"))

"""Password reset by e-mail: Django's tokens and views in the login page's style, throttled in
the database (per client, per address), under the same lockout rules, and the second factor
still asked at the login after it."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from beano.accounts.models import PasswordResetRequest
from tests.conftest import totp_device

NEW = "Acushnet-river-ferry-77"


@pytest.fixture
def bookkeeper(tenant):
    user = tenant.bookkeeper
    user.email = "books@example.org"
    user.save()
    totp_device(user)
    return user


def _ask(client, email="books@example.org", **extra):
    return client.post(reverse("password_reset"), {"email": email}, **extra)


def _link(message) -> str:
    return re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)


def _set_new_password(client, link: str) -> None:
    form = client.get(link, follow=True)
    assert b"Choose a new password" in form.content
    url = form.redirect_chain[-1][0]
    done = client.post(url, {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")


def test_a_reset_mails_a_link_and_the_login_still_asks_the_second_factor(client, bookkeeper):
    assert b"Forgot your password?" in client.get(reverse("login")).content
    response = _ask(client, "BOOKS@example.org")
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    [message] = mail.outbox
    assert message.to == ["books@example.org"] and bookkeeper.username in message.body
    assert message.alternatives and message.alternatives[0][1] == "text/html"
    link = _link(message)
    _set_new_password(client, link)
    # Not signed in by the reset: the login, then the second factor.
    assert urlparse(client.get(reverse("dashboard"))["Location"]).path == reverse("login")
    signed = client.post(reverse("login"), {"username": bookkeeper.username, "password": NEW})
    assert signed.status_code == 302
    asked = client.get(reverse("dashboard"))
    assert urlparse(asked["Location"]).path == reverse("otp_verify")
    # The link is spent.
    spent = Client().get(link, follow=True)
    assert b"This link cannot be used" in spent.content


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, bookkeeper):
    response = _ask(client, "nobody@example.org")
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_one_address_gets_at_most_the_hours_mails(settings, bookkeeper):
    settings.PASSWORD_RESET_PER_HOUR = 3
    for n in range(5):
        # From five computers: the client limit is not what stops them.
        _ask(Client(REMOTE_ADDR=f"10.0.0.{n + 1}"))
    assert len(mail.outbox) == 3
    assert PasswordResetRequest.objects.filter(kind="email", key="books@example.org").count() == 5


def test_one_client_is_refused_past_the_hours_requests(settings, bookkeeper):
    settings.PASSWORD_RESET_PER_HOUR = 2
    client = Client(REMOTE_ADDR="10.1.1.1")
    assert _ask(client, "a@example.org").status_code == 302
    assert _ask(client, "b@example.org").status_code == 302
    refused = _ask(client, "books@example.org")
    assert refused.status_code == 429 and "Retry-After" in refused
    assert b"Too many reset requests" in refused.content
    assert mail.outbox == []
    # Another computer is not held back.
    assert _ask(Client(REMOTE_ADDR="10.1.1.2")).status_code == 302
    assert len(mail.outbox) == 1


def test_a_reset_does_not_lift_the_lockout(client, settings, bookkeeper):
    settings.AXES_FAILURE_LIMIT = 3
    for _ in range(3):
        client.post(reverse("login"), {"username": bookkeeper.username, "password": "wrong-one"})
    _ask(client)
    _set_new_password(client, _link(mail.outbox[0]))
    locked = client.post(reverse("login"), {"username": bookkeeper.username, "password": NEW})
    assert locked.status_code == 429

"""Guesses at one account from many addresses at the same moment, on real threads: the account's
ceiling (beano/accounts/ceiling.py) counts each try on the account's locked row *before* its
password is checked, so no number of simultaneous tries checks more passwords than it allows."""

from __future__ import annotations

from typing import Any

import django.utils.timezone
import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

from beano.accounts.ceiling import FREE_FAILURES
from beano.accounts.models import PasswordFailures
from tests.conftest import PASSWORD
from tests.trust.conftest import errors, together

pytestmark = pytest.mark.django_db(transaction=True)

#: Guessers at once, each from an address of its own (django-axes' lock never applies).
GUESSERS = 20


def test_twenty_guesses_at_once_from_twenty_addresses_check_three_passwords(tenant, monkeypatch):
    now = django.utils.timezone.now()
    monkeypatch.setattr(django.utils.timezone, "now", lambda: now)  # the wait cannot run out
    username = tenant.member_in_charge.username

    def guess(n: int) -> Any:
        def post() -> tuple[int, bool]:
            client = Client()
            response = client.post(
                reverse("login"),
                {"username": username, "password": f"guess-{n}"},
                REMOTE_ADDR=f"198.51.100.{n + 1}",
            )
            return response.status_code, SESSION_KEY in client.session

        return post

    outcomes = together(*(guess(n) for n in range(GUESSERS)))
    assert errors(outcomes) == []
    answers = sorted(o.value[0] for o in outcomes)
    assert answers == [200] * FREE_FAILURES + [429] * (GUESSERS - FREE_FAILURES)
    assert not any(o.value[1] for o in outcomes)
    assert PasswordFailures.objects.get(username_key=username).failures == FREE_FAILURES
    late = Client()
    response = late.post(
        reverse("login"), {"username": username, "password": PASSWORD}, REMOTE_ADDR="192.0.2.9"
    )
    assert response.status_code == 429 and SESSION_KEY not in late.session

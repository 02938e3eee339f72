"""Strong passwords: Django's four validators at 12 characters, and none that contains the
username or the person's names."""

from __future__ import annotations

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import PASSWORD, login, make_user


@pytest.fixture
def person(db):
    return make_user("lsouza-mic", first_name="Linda", last_name="Souza")


@pytest.mark.parametrize(
    "password,reason",
    [
        ("Tr1cky-Pass", "too short"),  # 11 characters
        ("password1234", "too common"),
        ("839201746152", "entirely numeric"),
        ("lsouza-mic-Friday!", "contains your username"),
        ("Friday-LINDA-bingo-7", "contains your first name"),
        ("bingo-souza-Friday-7", "contains your last name"),
    ],
)
def test_weak_passwords_are_refused(person, password, reason):
    with pytest.raises(ValidationError) as refused:
        validate_password(password, person)
    assert reason in " ".join(refused.value.messages)


def test_a_long_passphrase_of_ones_own_is_accepted(person):
    validate_password("cranberry-ferry-Tuesday-42", person)


def test_the_password_change_page_applies_them(client, person):
    login(client, person)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "Linda-bingo-2026",
            "new_password2": "Linda-bingo-2026",
        },
    )
    assert response.status_code == 200
    assert "contains your first name" in response.content.decode()
    page = client.get(reverse("password_change")).content.decode()
    assert "at least 12 characters" in page

"""SECURITY.md tells the truth about what exists: the password reset it describes is built, so
it never says that none exists."""

from __future__ import annotations

from pathlib import Path

from django.urls import reverse

SECURITY = Path(__file__).resolve().parent.parent / "SECURITY.md"


def test_it_never_says_the_password_reset_it_describes_is_missing():
    text = SECURITY.read_text()
    assert reverse("password_reset") == "/accounts/password/reset/"  # it exists
    assert "No password reset exists" not in text
    assert "A password reset (Django's tokens" in text

"""Fixtures of the games' tests."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from beano.rules.models import LawLimit


@pytest.fixture
def big_win(winner):
    """The W-2G threshold lowered to $75 so this night's $75 win is a "single win" needing it."""
    LawLimit.objects.create(
        name="w2g_threshold",
        value=Decimal("75"),
        effective_from=dt.date(2026, 12, 1),
        source="test",
        status="V",
    )
    return winner

"""The figures in force are kept in the cache; any change of a row drops them, so a new figure
judges the next act at once."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext

from beano.rules.limits import LimitName, limits_in_force
from beano.rules.models import LawLimit

DAY = dt.date(2026, 12, 4)


def test_the_figures_are_read_once_then_kept(db):
    first = limits_in_force(DAY)
    with CaptureQueriesContext(connection) as queries:
        again = limits_in_force(DAY)
    assert len(queries) == 0
    assert again == first


def test_a_new_figure_is_in_force_at_once(db):
    before = limits_in_force(DAY).get(LimitName.MAX_PRIZE_SINGLE_GAME)
    LawLimit.objects.create(
        name=LimitName.MAX_PRIZE_SINGLE_GAME,
        value=Decimal("1234.00"),
        unit="usd",
        effective_from=DAY,
        source="test",
        status=LawLimit.Status.choices[0][0],
    )
    assert limits_in_force(DAY).get(LimitName.MAX_PRIZE_SINGLE_GAME) == Decimal("1234.00")
    assert (
        limits_in_force(DAY - dt.timedelta(days=1)).get(LimitName.MAX_PRIZE_SINGLE_GAME) == before
    )


def test_a_figure_deleted_or_changed_is_read_again(db):
    row = LawLimit.objects.filter(name=LimitName.MAX_PRIZE_SINGLE_GAME).latest("effective_from")
    limits_in_force(DAY)
    row.value = Decimal("99.00")
    row.save()
    assert limits_in_force(DAY).get(LimitName.MAX_PRIZE_SINGLE_GAME) == Decimal("99.00")
    row.delete()
    assert limits_in_force(DAY).get(LimitName.MAX_PRIZE_SINGLE_GAME) != Decimal("99.00")

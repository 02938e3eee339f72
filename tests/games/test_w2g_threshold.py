"""The W-2G threshold is a dated figure: $1,200 for bingo winnings through December 31, 2025,
$2,000 from January 1, 2026 (26 U.S.C. § 6041 as amended); a later indexed figure is one more
row, and each decides the W-2G on its own side of its date."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

from beano.rules.claims import W2G_CITATION, needs_w2g
from beano.rules.limits import LimitName, limits_in_force
from beano.rules.models import LawLimit
from games.claims_selectors import w2g_threshold
from occasions.models import Occasion

pytestmark = pytest.mark.django_db


def threshold_on(day: dt.date) -> D | None:
    return limits_in_force(day).get(LimitName.W2G_THRESHOLD)


def test_the_2025_threshold_decides_a_2025_win():
    last_day = dt.date(2025, 12, 31)
    assert threshold_on(last_day) == D("1200")
    assert needs_w2g(D("1500.00"), threshold_on(last_day))  # the demo's 2025 jackpot
    assert needs_w2g(D("1200.00"), threshold_on(last_day))
    assert not needs_w2g(D("1199.99"), threshold_on(last_day))


def test_the_2026_threshold_decides_a_2026_win():
    first_day = dt.date(2026, 1, 1)
    assert threshold_on(first_day) == D("2000")
    assert not needs_w2g(D("1600.00"), threshold_on(first_day))  # the demo's 2026 jackpot
    assert not needs_w2g(D("1999.99"), threshold_on(first_day))
    assert needs_w2g(D("2000.00"), threshold_on(first_day))


def test_an_occasion_is_judged_by_the_threshold_of_its_own_date():
    assert w2g_threshold(Occasion(date=dt.date(2025, 12, 31))) == D("1200")
    assert w2g_threshold(Occasion(date=dt.date(2026, 1, 1))) == D("2000")


def test_a_later_indexed_figure_is_one_more_row():
    LawLimit.objects.create(
        name=LimitName.W2G_THRESHOLD,
        value=D("2060"),
        unit="USD",
        effective_from=dt.date(2027, 1, 1),
        source="26 U.S.C. § 6041 as amended (indexed)",
        status="verified",
    )
    assert threshold_on(dt.date(2026, 12, 31)) == D("2000")
    assert threshold_on(dt.date(2027, 1, 1)) == D("2060")
    assert not needs_w2g(D("2050.00"), threshold_on(dt.date(2027, 6, 1)))


def test_the_rows_carry_their_citations():
    rows = LawLimit.objects.filter(name=LimitName.W2G_THRESHOLD).order_by("effective_from")
    assert [r.value for r in rows] == [D("1200"), D("2000")]
    assert all("26 U.S.C. § 6041" in r.source and "W-2G" in r.source for r in rows)
    assert "6041" in W2G_CITATION

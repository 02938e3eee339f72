"""The medians per month over kept figures (``reports.kept_medians``): taken by PostgreSQL from
its two middle values, by Python elsewhere, and the same Decimals either way, as
``statistics.median`` gives them (hand-worked below)."""

from __future__ import annotations

import datetime as dt
import statistics
from decimal import Decimal

from django.utils import timezone

from occasions.models import Occasion
from reports.kept import MEASURES
from reports.kept_medians import medians_of, month_medians
from reports.kept_models import KeptOccasionFigures

OCTOBER, NOVEMBER = dt.date(2025, 10, 1), dt.date(2025, 11, 1)
#: (month, attendance, gross receipts, prizes, net proceeds) of each closed night.
NIGHTS = [
    (OCTOBER, 71, "100.00", "50.00", None),
    (OCTOBER, 90, "101.00", "50.00", None),
    (OCTOBER, None, "250.50", "75.00", None),
    (OCTOBER, 80, "300.00", "1200.00", None),
    (NOVEMBER, 60, "99.99", "0.00", "-10.00"),
    (NOVEMBER, 61, "120.00", "10.00", "5.00"),
]


def _kept(tenant) -> None:
    org = tenant.organization
    license = org.licenses.get()
    for i, (month, attendance, gross, prizes, net) in enumerate(NIGHTS):
        day = month + dt.timedelta(days=i)
        occasion = Occasion.objects.create(
            organization=org, license=license, date=day, status=Occasion.Status.CLOSED
        )
        KeptOccasionFigures.objects.create(
            occasion=occasion,
            organization=org,
            date=day,
            month=month,
            attendance=attendance,
            gross_receipts=Decimal(gross),
            prizes=Decimal(prizes),
            net_proceeds=None if net is None else Decimal(net),
            door_prizes=Decimal("0.00"),
            games_prizes=Decimal(prizes),
            kept_at=timezone.now(),
        )


def test_each_month_has_the_median_of_its_values_and_how_many_they_are(tenant):
    _kept(tenant)
    found = month_medians(KeptOccasionFigures.objects.all(), MEASURES)
    assert found == {
        (OCTOBER, "attendance"): (Decimal("80"), 3),
        (OCTOBER, "gross_receipts"): (Decimal("175.75"), 4),  # (101.00 + 250.50) / 2
        (OCTOBER, "prizes"): (Decimal("62.50"), 4),
        (NOVEMBER, "attendance"): (Decimal("60.5"), 2),
        (NOVEMBER, "gross_receipts"): (Decimal("109.995"), 2),
        (NOVEMBER, "prizes"): (Decimal("5.00"), 2),
        (NOVEMBER, "net_proceeds"): (Decimal("-2.50"), 2),
    }  # October's net proceeds: none filed, no median
    # Written as statistics.median writes them (the same places), on either database.
    assert str(found[(OCTOBER, "prizes")][0]) == str(
        statistics.median(
            [Decimal("50.00"), Decimal("50.00"), Decimal("75.00"), Decimal("1200.00")]
        )
    )
    assert str(found[(OCTOBER, "attendance")][0]) == "80"


def test_the_database_and_python_agree_row_for_row(tenant):
    _kept(tenant)
    rows = KeptOccasionFigures.objects.all()
    in_hand = medians_of(rows.values("month", *MEASURES), MEASURES)
    found = month_medians(rows, MEASURES)
    assert {k: (str(m), n) for k, (m, n) in found.items()} == {
        k: (str(m), n) for k, (m, n) in in_hand.items()
    }
    assert month_medians(rows.filter(month=NOVEMBER), MEASURES).keys() == {
        (NOVEMBER, measure) for measure in MEASURES
    }
    assert month_medians(rows.none(), MEASURES) == {}

"""The Beano Law's figures known at the start, as dated rows the Commission can edit; each row
says where its figure comes from and how sure it is (``V``, ``S``, ``U`` below). Blank values are figures that were not found: no limit is applied."""

import datetime as dt
from decimal import Decimal

from django.db import migrations

EARLIEST = dt.date(1971, 1, 1)  # a start before any occasion the system records
V, S, U = "verified", "secondary", "unknown"
AMENDMENT_2000 = "News report of the 2000 amendment to the Beano Law"
BEFORE_2000 = "In force before the amendment of 2000-10-05; its start date was not found."

ROWS = [
    (
        "beano_tax_rate",
        "0.05",
        "rate",
        EARLIEST,
        "M.G.L. c. 10 § 39",
        V,
        "5 % of gross receipts of each game.",
    ),
    (
        "report_due_days",
        "10",
        "days",
        EARLIEST,
        "961 CMR 3.05(1)(a)",
        V,
        "A report for every authorized day.",
    ),
    ("max_prize_single_game", "100", "USD", EARLIEST, AMENDMENT_2000, S, BEFORE_2000),
    ("max_prize_single_game", "200", "USD", dt.date(2000, 10, 5), AMENDMENT_2000, S, ""),
    ("max_bonus_prize", "100", "USD", EARLIEST, AMENDMENT_2000, S, BEFORE_2000),
    ("max_bonus_prize", "200", "USD", dt.date(2000, 10, 5), AMENDMENT_2000, S, ""),
    ("max_progressive_jackpot", "500", "USD", EARLIEST, AMENDMENT_2000, S, BEFORE_2000),
    (
        "max_progressive_jackpot",
        "3000",
        "USD",
        dt.date(2000, 10, 5),
        AMENDMENT_2000,
        S,
        "Rolls over from occasion to occasion.",
    ),
    (
        "max_total_prizes_occasion",
        None,
        "USD",
        EARLIEST,
        "Not found",
        U,
        "No figure found; no limit applied.",
    ),
    (
        "max_progressive_games",
        None,
        "games",
        EARLIEST,
        "Not found",
        U,
        "No figure found; no limit applied.",
    ),
    (
        "hours_start",
        None,
        "hour",
        EARLIEST,
        "Not found",
        U,
        "The license states the hours; no statutory figure found.",
    ),
    (
        "hours_end",
        None,
        "hour",
        EARLIEST,
        "Not found",
        U,
        "The license states the hours; no statutory figure found.",
    ),
    (
        "records_retention_years",
        None,
        "years",
        EARLIEST,
        "961 CMR 3.05(2) not found",
        U,
        "Comparable rules: 3 to 4 years.",
    ),
    (
        "max_door_prizes_occasion",
        "200",
        "USD",
        EARLIEST,
        "961 CMR 3.04(8)(e)",
        V,
        "Aggregate value per occasion.",
    ),
    ("min_admission", "1.00", "USD", EARLIEST, "961 CMR 3.04(5)(a)", V, ""),
    (
        "max_orgs_per_worker",
        "4",
        "organizations",
        EARLIEST,
        "961 CMR 3.04(1)(c)",
        V,
        "In a calendar year, unless authorized.",
    ),
    ("min_family_worker_age", "18", "years", EARLIEST, "961 CMR 3.04(1)(b)", V, ""),
    (
        "caller_conviction_years",
        "5",
        "years",
        EARLIEST,
        "961 CMR 3.04(1)(i)",
        V,
        "Other than a traffic violation.",
    ),
    ("charity_max_keep", "0.30", "rate", EARLIEST, "M.G.L. c. 10 § 37", V, "Of resale value."),
    ("charity_min_prizes", "0.45", "rate", EARLIEST, "M.G.L. c. 10 § 37", V, "Of resale value."),
    ("w2g_threshold", "1200", "USD", EARLIEST, "26 CFR 7.6041-1", V, "A single bingo win."),
    (
        "late_interest_rate",
        "0.12",
        "rate a year",
        EARLIEST,
        "Commission raffle and bazaar return",
        S,
        "Interest for late payment.",
    ),
    ("license_fee", "50", "USD a year", EARLIEST, "Lottery FAQ", S, "Renewed each October."),
]


def load(apps, schema_editor):
    LawLimit = apps.get_model("rules", "LawLimit")
    for name, value, unit, start, source, status, notes in ROWS:
        LawLimit.objects.update_or_create(
            name=name,
            effective_from=start,
            defaults={
                "value": Decimal(value) if value is not None else None,
                "unit": unit,
                "source": source,
                "status": status,
                "notes": notes,
            },
        )


def unload(apps, schema_editor):
    LawLimit = apps.get_model("rules", "LawLimit")
    for name, _value, _unit, start, *_ in ROWS:
        LawLimit.objects.filter(name=name, effective_from=start).delete()


class Migration(migrations.Migration):
    dependencies = [("rules", "0001_initial")]
    operations = [migrations.RunPython(load, unload)]

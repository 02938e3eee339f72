"""The W-2G threshold for bingo winnings as dated rows: $1,200 through December 31, 2025, and
$2,000 for winnings from January 1, 2026 (26 U.S.C. § 6041 as amended, which indexes the figure
for inflation from 2027: a later figure is one more row). Reversible: the 2026 row goes and the
first row's source goes back to what it was."""

import datetime as dt

from django.db import migrations

SOURCE_1200 = "26 U.S.C. § 6041; 26 CFR 7.6041-1; IRS Instructions for Forms W-2G and 5754"
SOURCE_2000 = "26 U.S.C. § 6041 as amended (from 2026); IRS Instructions for Forms W-2G and 5754"
OLD_SOURCE = "26 CFR 7.6041-1"
EARLIEST = dt.date(1971, 1, 1)
FROM_2026 = dt.date(2026, 1, 1)


def load(apps, schema_editor):
    LawLimit = apps.get_model("rules", "LawLimit")
    LawLimit.objects.filter(name="w2g_threshold", effective_from=EARLIEST).update(
        source=SOURCE_1200, notes="A single bingo win, through December 31, 2025."
    )
    LawLimit.objects.update_or_create(
        name="w2g_threshold",
        effective_from=FROM_2026,
        defaults={
            "value": "2000",
            "unit": "USD",
            "source": SOURCE_2000,
            "status": "verified",
            "notes": "A single bingo win, from January 1, 2026; indexed for inflation from 2027.",
        },
    )


def unload(apps, schema_editor):
    LawLimit = apps.get_model("rules", "LawLimit")
    LawLimit.objects.filter(name="w2g_threshold", effective_from=FROM_2026).delete()
    LawLimit.objects.filter(name="w2g_threshold", effective_from=EARLIEST).update(
        source=OLD_SOURCE, notes="A single bingo win."
    )


class Migration(migrations.Migration):
    dependencies = [("rules", "0003_limit_labels")]

    operations = [migrations.RunPython(load, unload)]

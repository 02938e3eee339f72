"""Card usages named their occasion as free text ("Occasion of Fri Dec 4, 2026", or as typed on
the inventory page, "Occasion of Dec 4"). Where the text names one occasion of the organization
(its date, with or without the year; the usage's own date breaking a tie), the row is linked to
it; a label that names no occasion is kept as written. Reversible: the links are dropped, the
labels were never changed."""

import datetime as dt

from django.db import migrations

FORMATS = ("Occasion of %a %b %d, %Y", "Occasion of %b %d, %Y", "Occasion of %b %d")


def _date_named(label: str, used_on: dt.date) -> dt.date | None:
    text = " ".join(label.split())
    for fmt in FORMATS:
        try:
            day = dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
        if "%Y" not in fmt:
            day = day.replace(year=used_on.year)
        return day
    return None


def link(apps, schema_editor):
    CardUsage = apps.get_model("organizations", "CardUsage")
    Occasion = apps.get_model("occasions", "Occasion")
    for usage in CardUsage.objects.filter(occasion__isnull=True).exclude(occasion_label=""):
        day = _date_named(usage.occasion_label, usage.used_on)
        if day is None:
            continue
        occasions = list(
            Occasion.objects.filter(organization_id=usage.purchase.organization_id, date=day)[:2]
        )
        if len(occasions) == 1:
            usage.occasion = occasions[0]
            usage.save(update_fields=["occasion"])


def unlink(apps, schema_editor):
    CardUsage = apps.get_model("organizations", "CardUsage")
    CardUsage.objects.exclude(occasion_label="").update(occasion=None)


class Migration(migrations.Migration):
    dependencies = [("organizations", "0010_paper_by_serial")]

    operations = [migrations.RunPython(link, unlink)]

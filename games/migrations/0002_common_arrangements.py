"""The common winning arrangements (``COMMON_ARRANGEMENTS`` in beano/rules/cards.py), shipped as
data for the Commission to authorize per organization (961 CMR 3.04(6)(c))."""

from django.db import migrations


def load(apps, schema_editor):
    from beano.rules.cards import COMMON_ARRANGEMENTS

    Arrangement = apps.get_model("games", "Arrangement")
    for code, (name, variants) in COMMON_ARRANGEMENTS.items():
        Arrangement.objects.update_or_create(
            code=code, defaults={"name": name, "variants": [sorted(v) for v in variants]}
        )


def unload(apps, schema_editor):
    from beano.rules.cards import COMMON_ARRANGEMENTS

    apps.get_model("games", "Arrangement").objects.filter(
        code__in=list(COMMON_ARRANGEMENTS)
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(load, unload)]

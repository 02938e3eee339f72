"""The kinds of expense an occasion may report, as data the Commission can extend."""

from django.db import migrations

KINDS = [
    # code, name, description, source, citation, order
    (
        "equipment_rent",
        "Equipment rental under the approved lease",
        "The rental fee of leased equipment: a sum certain in a lease the Director approved.",
        "equipment_lease",
        "961 CMR 3.04(4)(a)",
        10,
    ),
    (
        "hall_rent",
        "Rent of the premises",
        "Rent of the hall for the occasion.",
        "entered",
        "",
        20,
    ),
    (
        "supplies",
        "Beano supplies",
        "Cards, paper, daubers and other supplies used at the occasion, with the invoice.",
        "entered",
        "961 CMR 3.04(4)(e)",
        30,
    ),
    (
        "police_detail",
        "Police detail",
        "The police officer's pay at the prevailing rate, as recorded at the occasion.",
        "police",
        "961 CMR 3.04(3)(e)",
        40,
    ),
    (
        "bookkeeper",
        "Compensated bookkeeper or accountant",
        "Reasonable compensation of a bookkeeper or accountant on the worker list.",
        "compensation",
        "961 CMR 3.04(1)(g)",
        50,
    ),
    (
        "other",
        "Other expense",
        "Any other expense of the occasion, described.",
        "entered",
        "",
        90,
    ),
]


def load(apps, schema_editor):
    ExpenseKind = apps.get_model("reports", "ExpenseKind")
    for code, name, description, source, citation, order in KINDS:
        ExpenseKind.objects.update_or_create(
            code=code,
            defaults={
                "name": name,
                "description": description,
                "source": source,
                "citation": citation,
                "order": order,
            },
        )


def unload(apps, schema_editor):
    apps.get_model("reports", "ExpenseKind").objects.filter(code__in=[k[0] for k in KINDS]).delete()


class Migration(migrations.Migration):
    dependencies = [("reports", "0001_initial")]
    operations = [migrations.RunPython(load, unload)]

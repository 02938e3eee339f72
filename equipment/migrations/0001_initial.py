"""The card stock's models, moved here from ``organizations`` with their tables and rows: taken
into this app's state only (``organizations.0015_card_stock_to_equipment`` took them out of
its own); the database is not touched, each model keeping its table (``db_table``)."""

import django.db.models.deletion
import django.db.models.expressions
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("occasions", "0011_opening_check_attested_on_paper"),
        ("organizations", "0015_card_stock_to_equipment"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="PaperExplanation",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("text", models.TextField()),
                        ("explained_at", models.DateTimeField()),
                        (
                            "explained_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "occasion",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="paper_explanation",
                                to="occasions.occasion",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "organizations_paperexplanation",
                    },
                ),
                migrations.CreateModel(
                    name="StockTake",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("counted_on", models.DateField()),
                        (
                            "expected",
                            models.IntegerField(help_text="On hand by the records when counted."),
                        ),
                        ("counted", models.PositiveIntegerField()),
                        ("reason", models.CharField(blank=True, max_length=300)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "counted_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "purchase",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="stock_takes",
                                to="organizations.cardpurchase",
                            ),
                        ),
                        (
                            "witness",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "organizations_stocktake",
                        "ordering": ["-counted_on", "-pk"],
                    },
                ),
                migrations.CreateModel(
                    name="CardUsage",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("used_on", models.DateField()),
                        ("quantity_used", models.PositiveIntegerField(default=0)),
                        ("quantity_voided", models.PositiveIntegerField(default=0)),
                        (
                            "note",
                            models.CharField(
                                blank=True, help_text="The reason, e.g. misprinted.", max_length=300
                            ),
                        ),
                        (
                            "occasion_label",
                            models.CharField(
                                blank=True,
                                help_text="Rows recorded before occasions were linked: the occasion as it was written.",
                                max_length=100,
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "occasion",
                            models.ForeignKey(
                                blank=True,
                                help_text="The occasion the cards were used at.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="card_usages",
                                to="occasions.occasion",
                            ),
                        ),
                        (
                            "purchase",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="usages",
                                to="organizations.cardpurchase",
                            ),
                        ),
                        (
                            "recorded_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "organizations_cardusage",
                        "ordering": ["purchase", "used_on", "pk"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("quantity_used__gt", 0),
                                    ("quantity_voided__gt", 0),
                                    _connector="OR",
                                ),
                                name="card_usage_not_empty",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="PaperDestruction",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("destroyed_on", models.DateField()),
                        ("quantity", models.PositiveIntegerField()),
                        ("serial_from", models.PositiveIntegerField(blank=True, null=True)),
                        ("serial_to", models.PositiveIntegerField(blank=True, null=True)),
                        (
                            "reason",
                            models.CharField(
                                choices=[
                                    ("damaged", "Damaged"),
                                    ("expired", "Expired or discontinued"),
                                    ("misprinted", "Misprinted"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("note", models.CharField(blank=True, max_length=300)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "purchase",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="destructions",
                                to="organizations.cardpurchase",
                            ),
                        ),
                        (
                            "recorded_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "witness",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "organizations_paperdestruction",
                        "ordering": ["-destroyed_on", "-pk"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("quantity__gte", 1)),
                                name="paper_destruction_quantity",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    models.Q(
                                        ("serial_from__isnull", True), ("serial_to__isnull", True)
                                    ),
                                    models.Q(
                                        ("serial_from__isnull", False),
                                        ("serial_to__gte", models.F("serial_from")),
                                        ("serial_to__isnull", False),
                                    ),
                                    _connector="OR",
                                ),
                                name="paper_destruction_serial_range",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="PaperIssue",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("serial_from", models.PositiveIntegerField()),
                        ("serial_to", models.PositiveIntegerField()),
                        (
                            "issued_at",
                            models.DateTimeField(
                                help_text="When the paper left the stock for the door."
                            ),
                        ),
                        (
                            "returned",
                            models.PositiveIntegerField(
                                blank=True,
                                help_text="Unsold cards counted back at the close.",
                                null=True,
                            ),
                        ),
                        (
                            "voided",
                            models.PositiveIntegerField(
                                default=0, help_text="Spoiled at the door, not sold."
                            ),
                        ),
                        ("returned_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "from_paper",
                            models.BooleanField(
                                default=False,
                                help_text="Entered after the fact, at the time written on the sheet.",
                            ),
                        ),
                        (
                            "issued_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "occasion",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="paper_issues",
                                to="occasions.occasion",
                            ),
                        ),
                        (
                            "purchase",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="issues",
                                to="organizations.cardpurchase",
                            ),
                        ),
                        (
                            "returned_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "organizations_paperissue",
                        "ordering": ["occasion", "purchase__card_type", "serial_from", "pk"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("serial_to__gte", models.F("serial_from"))),
                                name="paper_issue_serial_range",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("returned__isnull", True),
                                    (
                                        "returned__lte",
                                        django.db.models.expressions.CombinedExpression(
                                            django.db.models.expressions.CombinedExpression(
                                                django.db.models.expressions.CombinedExpression(
                                                    models.F("serial_to"),
                                                    "-",
                                                    models.F("serial_from"),
                                                ),
                                                "+",
                                                models.Value(1),
                                            ),
                                            "-",
                                            models.F("voided"),
                                        ),
                                    ),
                                    _connector="OR",
                                ),
                                name="paper_issue_returned_within_issued",
                            ),
                        ],
                    },
                ),
            ],
        )
    ]

"""The drawer and the gaming bank account, moved from reports (issue 41, item 5): their
models enter banking's state only, on the tables reports made (``db_table``), so that no row
moves; ``reports.0009_banking_moves_out`` takes them out of reports' state."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("occasions", "0011_opening_check_attested_on_paper"),
        ("organizations", "0014_person_search_indexes"),
        ("reports", "0008_kept_extras"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="GamingAccount",
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
                        ("bank_name", models.CharField(max_length=120)),
                        (
                            "account_last4",
                            models.CharField(
                                help_text="The last four digits of the account number only.",
                                max_length=4,
                            ),
                        ),
                        (
                            "opened_on",
                            models.DateField(help_text="The day its book balance starts from."),
                        ),
                        (
                            "opening_balance",
                            models.DecimalField(decimal_places=2, default=0, max_digits=12),
                        ),
                        ("recorded_at", models.DateTimeField()),
                        (
                            "organization",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="gaming_account",
                                to="organizations.organization",
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
                    ],
                    options={
                        "db_table": "reports_gamingaccount",
                    },
                ),
                migrations.CreateModel(
                    name="DrawerCount",
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
                        (
                            "pieces",
                            models.JSONField(
                                help_text="How many pieces of each denomination, by its code."
                            ),
                        ),
                        ("total", models.DecimalField(decimal_places=2, max_digits=12)),
                        ("counted_at", models.DateTimeField()),
                        (
                            "closeout",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="drawer",
                                to="reports.closeout",
                            ),
                        ),
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
                            "verified_by",
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
                        "db_table": "reports_drawercount",
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("total__gte", 0)),
                                name="drawer_total_not_negative",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Deposit",
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
                        ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                        ("deposited_on", models.DateField()),
                        (
                            "due_on",
                            models.DateField(help_text="The business day after the occasion."),
                        ),
                        ("slip_reference", models.CharField(max_length=60)),
                        ("late_reason", models.CharField(blank=True, max_length=300)),
                        ("recorded_at", models.DateTimeField()),
                        (
                            "occasion",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="deposit",
                                to="occasions.occasion",
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
                            "account",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="deposits",
                                to="banking.gamingaccount",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "reports_deposit",
                        "ordering": ["account", "deposited_on", "pk"],
                        "indexes": [
                            models.Index(
                                fields=["account", "deposited_on"], name="deposit_account_day"
                            )
                        ],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("amount__gt", 0)),
                                name="deposit_amount_positive",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="BankReconciliation",
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
                        (
                            "month",
                            models.DateField(help_text="The first day of the month reconciled."),
                        ),
                        ("statement_balance", models.DecimalField(decimal_places=2, max_digits=12)),
                        (
                            "deposits_in_transit",
                            models.DecimalField(decimal_places=2, default=0, max_digits=12),
                        ),
                        (
                            "outstanding_checks",
                            models.DecimalField(decimal_places=2, default=0, max_digits=12),
                        ),
                        ("book_balance", models.DecimalField(decimal_places=2, max_digits=12)),
                        ("difference", models.DecimalField(decimal_places=2, max_digits=12)),
                        ("explanation", models.TextField(blank=True)),
                        ("completed_at", models.DateTimeField()),
                        (
                            "completed_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "account",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="reconciliations",
                                to="banking.gamingaccount",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "reports_bankreconciliation",
                        "ordering": ["account", "-month"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("account", "month"), name="reconciliation_one_a_month"
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("difference", 0),
                                    models.Q(("explanation", ""), _negated=True),
                                    _connector="OR",
                                ),
                                name="reconciliation_difference_explained",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="BankEntry",
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
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("prize", "Prize paid by check"),
                                    ("expense", "Expense of an occasion"),
                                    ("lawful_purpose", "Lawful Purpose disbursement"),
                                    ("bank_charge", "Bank charge"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "method",
                            models.CharField(
                                choices=[("check", "Check"), ("transfer", "Transfer")],
                                default="check",
                                max_length=10,
                            ),
                        ),
                        ("paid_on", models.DateField()),
                        ("payee", models.CharField(max_length=200)),
                        ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                        (
                            "reference",
                            models.CharField(
                                help_text="Check number or transfer reference.", max_length=60
                            ),
                        ),
                        ("memo", models.CharField(blank=True, max_length=300)),
                        ("recorded_at", models.DateTimeField()),
                        (
                            "disbursement",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="bank_entry",
                                to="reports.lawfulpurposedisbursement",
                            ),
                        ),
                        (
                            "occasion",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="occasions.occasion",
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
                            "account",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="entries",
                                to="banking.gamingaccount",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "reports_bankentry",
                        "ordering": ["account", "paid_on", "pk"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("amount__gt", 0)),
                                name="bank_entry_amount_positive",
                            ),
                            models.UniqueConstraint(
                                fields=("account", "method", "reference"),
                                name="bank_entry_reference_once",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]

"""The drawer and the gaming bank account leave reports for banking (issue 41, item 5): taken
out of reports' state only; their tables stay, with every row, under ``banking``'s models
(``banking.0001_initial``)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0008_kept_extras"),
        ("banking", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="BankEntry"),
                migrations.DeleteModel(name="BankReconciliation"),
                migrations.DeleteModel(name="Deposit"),
                migrations.DeleteModel(name="DrawerCount"),
                migrations.DeleteModel(name="GamingAccount"),
            ],
            database_operations=[],
        ),
    ]

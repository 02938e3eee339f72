"""The card stock's rows that name an occasion (cards used, paper issued by serial, destroyed,
counted on the shelf, a night's paper explained) move to the ``equipment`` app, above
occasions: taken out of this app's state only. Their tables and every row stay where they are;
``equipment.0001_initial`` takes them into its state under the same table names."""

from django.db import migrations

MOVED = ("CardUsage", "PaperIssue", "PaperDestruction", "StockTake", "PaperExplanation")


class Migration(migrations.Migration):
    dependencies = [("organizations", "0014_person_search_indexes")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name=name) for name in MOVED],
            database_operations=[],
        )
    ]

"""A trigram index on the winner's name as the inspector searches it (``UPPER(name) LIKE
'%…%'``): on a statewide year the search read every winner, three times per dashboard.

PostgreSQL only (SQLite has no such index and searches its small tables as before). pg_trgm is
a trusted extension, so the database's owner can create it; where the role may not, the index
is left out with a warning and the search still works, only slower."""

import logging

from django.db import DatabaseError, migrations, transaction

logger = logging.getLogger(__name__)

INDEX = "games_winner_player_name_trgm"


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
            schema_editor.execute(
                f"CREATE INDEX IF NOT EXISTS {INDEX} ON games_winner "
                "USING gin (UPPER(player_name::text) gin_trgm_ops)"
            )
    except DatabaseError as error:
        logger.warning("No trigram index (%s): the winner search runs unindexed", error)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("games", "0008_form5754_prize_shares")]

    operations = [migrations.RunPython(create, drop)]

"""Indexes for the inspector's search of people (``UPPER(legal_name) LIKE '%…%'`` and
``UPPER(commission_worker_id) = …``): on a statewide year each search of the dashboard read every
person of every worker list nine times (in its list of nights, their count and their medians,
three times each), 3 ms a time.

PostgreSQL only (SQLite has no trigram index and searches its small tables as before). pg_trgm
is a trusted extension, so the database's owner can create it; where the role may not, the
indexes are left out with a warning and the search still works, only slower."""

import logging

from django.db import DatabaseError, migrations, transaction

logger = logging.getLogger(__name__)

NAME_INDEX = "organizations_person_legal_name_trgm"
WORKER_ID_INDEX = "organizations_person_worker_id_upper"


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
            schema_editor.execute(
                f"CREATE INDEX IF NOT EXISTS {NAME_INDEX} ON organizations_person "
                "USING gin (UPPER(legal_name::text) gin_trgm_ops)"
            )
            schema_editor.execute(
                f"CREATE INDEX IF NOT EXISTS {WORKER_ID_INDEX} ON organizations_person "
                "(UPPER(commission_worker_id::text))"
            )
    except DatabaseError as error:
        logger.warning("No trigram index (%s): the people search runs unindexed", error)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {NAME_INDEX}")
        schema_editor.execute(f"DROP INDEX IF EXISTS {WORKER_ID_INDEX}")


class Migration(migrations.Migration):
    dependencies = [("organizations", "0013_invitations")]

    operations = [migrations.RunPython(create, drop)]

"""A transactional test's flush on PostgreSQL, made quick.

After each test on a transactional database (the browser tests against the live server, the
tests of concurrent writes), Django empties every table with one ``TRUNCATE`` of all of them:
on this machine 1 to 4 seconds for the project's hundred-odd tables, since PostgreSQL makes
each truncated table's files again, though almost all are empty. Here the tables holding any
row are found in one query, and their rows deleted: the same empty database, in milliseconds.
The foreign keys Django makes on PostgreSQL are checked at the commit (``DEFERRABLE INITIALLY
DEFERRED``), when every referencing row is gone too, so the order of the deletes does not
matter. A flush that also resets the sequences is left to Django. SQLite's flush deletes
already."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection


def tables_with_rows(tables: list[str]) -> list[str]:
    """Those of ``tables`` holding at least one row: one query."""
    quote = connection.ops.quote_name
    found = " UNION ALL ".join(
        f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(table)})" for table in tables
    )
    with connection.cursor() as cursor:
        cursor.execute(found, tables)
        return [row[0] for row in cursor.fetchall()]


@contextmanager
def installed() -> Iterator[None]:
    """PostgreSQL's flush replaced by ``quick_sql_flush`` for the test session."""
    if connection.vendor != "postgresql":
        yield
        return
    operations = type(connection.ops)
    original = operations.sql_flush

    def quick_sql_flush(
        self: Any,
        style: Any,
        tables: list[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or not tables:
            return original(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables_with_rows(list(tables))
        ]

    operations.sql_flush = quick_sql_flush
    try:
        yield
    finally:
        operations.sql_flush = original

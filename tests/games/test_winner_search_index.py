"""The trigram index the inspector's search of winners' names reads on PostgreSQL (games
migration 0009); SQLite has none and needs none."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def _indexes() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.get_constraints(cursor, "games_winner"))


def test_postgresql_indexes_the_winners_names_for_the_search_and_sqlite_does_not():
    if connection.vendor == "postgresql":
        assert "games_winner_player_name_trgm" in _indexes()
        # The index serves the search as Django writes it (icontains: UPPER(…) LIKE UPPER(…));
        # on a test's few rows the planner would rather scan, so scans are ruled out here, and
        # whole-index scans too (with statistics left by rows a flush deleted, the planner may
        # read all of another index and filter).
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_indexscan = off")
            cursor.execute("SET LOCAL enable_indexonlyscan = off")
            cursor.execute(
                "EXPLAIN SELECT id FROM games_winner WHERE UPPER(player_name::text) LIKE UPPER(%s)",
                ["%amaral%"],
            )
            plan = " ".join(row[0] for row in cursor.fetchall())
        assert "games_winner_player_name_trgm" in plan, plan
    else:
        assert "games_winner_player_name_trgm" not in _indexes()

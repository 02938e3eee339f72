"""The indexes the inspector's search of people reads on PostgreSQL (organizations migration
0014): a person's name anywhere in it, a worker ID whatever its case; SQLite has none and needs
none."""

from __future__ import annotations

import pytest
from django.db import connection

from organizations.models import Person

pytestmark = pytest.mark.django_db

NAME, WORKER_ID = "organizations_person_legal_name_trgm", "organizations_person_worker_id_upper"


def _plan(queryset) -> str:
    """The plan of ``queryset`` as Django writes it, with scans ruled out (on a test's few rows
    the planner would rather scan), whole-index scans too: with a table's statistics left by
    rows deleted before (a transactional test's flush), the planner may read all of another
    index and filter. What remains is an index searched with the query's condition."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute("SET LOCAL enable_indexonlyscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        return " ".join(row[0] for row in cursor.fetchall())


def test_postgresql_indexes_the_people_searched_for_and_sqlite_does_not():
    with connection.cursor() as cursor:
        indexes = set(connection.introspection.get_constraints(cursor, "organizations_person"))
    if connection.vendor != "postgresql":
        assert not {NAME, WORKER_ID} & indexes
        return
    assert {NAME, WORKER_ID} <= indexes
    assert NAME in _plan(Person.objects.filter(legal_name__icontains="amaral"))
    assert WORKER_ID in _plan(Person.objects.filter(commission_worker_id__iexact="w-1234"))

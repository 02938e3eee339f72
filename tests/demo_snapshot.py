"""``seed_demo --no-pdfs`` for the tests, seeded for real once per process and moment, then
restored from a copy of the database.

Seeding the demo plays three nights through the real services (8 to 25 s); the suite needs it
about thirty times per database (once per module that reads it, and in every browser test that
uses it, each after its live server's flush). The first seeding in a process is real: every
table is then copied, and the next call made from the same starting point (the same rows in
every table, the same clock, inside a transaction or not) puts the copy back instead (a tenth
of a second). What the seeding leaves outside the database is kept and put back with it: the mail it
sends (the reminders and invitations) and what the command prints. (It writes no files without
its PDFs, and the cache is emptied before each test.)

``seed_demo`` itself is still run for real by its own tests (tests/test_seed_demo*.py), and
seeding again on the restored copy must change nothing (the command is idempotent).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

#: The clock as Django has it before any test pins it (a pinned clock seeds at its own moment).
_REAL_NOW = timezone.now


@dataclass
class _Snapshot:
    before: dict[str, int]  # the rows in each table the seeding started from
    rows: dict[str, Any]  # table -> its rows after the seeding (COPY text, or tuples)
    columns: dict[str, list[str]]
    printed: str
    mails: list[Any] = field(default_factory=list)


_snapshots: dict[tuple[Any, ...], _Snapshot] = {}


def seed_demo(*, stdout: io.StringIO | None = None) -> object:
    """``call_command("seed_demo", "--no-pdfs", force=True)``, as the tests use it. Returns the
    copy the database now holds: the same object each time the same copy is put back, so that
    what is read from the demo alone (the site walk's URLs) can be kept with it."""
    tables = _tables()
    key = _key()
    before = _counts(tables)
    snapshot = _snapshots.get(key)
    if snapshot is not None and snapshot.before == before:
        _restore(snapshot, tables)
    else:
        snapshot = _seed(before, tables)
        _snapshots[key] = snapshot
    if stdout is not None:
        stdout.write(snapshot.printed)
    return snapshot


def _key() -> tuple[Any, ...]:
    """The seeding's starting point besides the rows: the database, whether it runs inside a
    transaction (the writes' on-commit hooks then never run), the password hashers (a copy
    seeded under the tests' fast one holds hashes no other setting reads, and the other way
    round: the demo's logins would fail) and its moment: a pinned clock's exact time; the real
    clock's hour (the demo is laid out from today, and its practice night from the time of
    day)."""
    now = timezone.now()
    if timezone.now is _REAL_NOW:
        moment: Any = timezone.localtime(now).replace(minute=0, second=0, microsecond=0)
    else:
        moment = now
    return (
        connection.vendor,
        connection.settings_dict["NAME"],
        connection.in_atomic_block,
        tuple(settings.PASSWORD_HASHERS),
        moment,
    )


def _tables() -> list[str]:
    return sorted(connection.introspection.django_table_names(only_existing=True))


def _counts(tables: list[str]) -> dict[str, int]:
    sql = " UNION ALL ".join(f"SELECT '{t}', COUNT(*) FROM {_q(t)}" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return dict(cursor.fetchall())


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _seed(before: dict[str, int], tables: list[str]) -> _Snapshot:
    outbox = getattr(mail, "outbox", None)
    sent = len(outbox) if outbox is not None else 0
    printed = io.StringIO()
    call_command("seed_demo", "--no-pdfs", force=True, stdout=printed)
    snapshot = _Snapshot(before, {}, {}, printed.getvalue())
    if outbox is not None:
        snapshot.mails = list(outbox[sent:])
    _copy(snapshot, tables)
    return snapshot


def _copy(snapshot: _Snapshot, tables: list[str]) -> None:
    with connection.cursor() as cursor:
        for table in tables:
            columns = [
                c.name for c in connection.introspection.get_table_description(cursor, table)
            ]
            snapshot.columns[table] = columns
            if connection.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {_q(table)} TO STDOUT") as copy:
                    snapshot.rows[table] = b"".join(bytes(block) for block in copy)
            else:  # unary + leaves a value as it is stored, without the column's converter
                values = ", ".join(f"+{_q(c)}" for c in columns)
                cursor.execute(f"SELECT {values} FROM {_q(table)}")
                snapshot.rows[table] = cursor.fetchall()


def _restore(snapshot: _Snapshot, tables: list[str]) -> None:
    """Every table emptied and filled with the copy, in one transaction (the foreign keys are
    checked at its end), then the id sequences moved past the copy's ids."""
    from django.apps import apps
    from django.contrib.contenttypes.models import ContentType
    from django.core.management.color import no_style

    with transaction.atomic(), connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"DELETE FROM {_q(table)}")
        for table in tables:
            rows, columns = snapshot.rows[table], snapshot.columns[table]
            if not rows:
                continue
            if connection.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {_q(table)} FROM STDIN") as copy:
                    copy.write(rows)
            else:
                names = ", ".join(_q(c) for c in columns)
                marks = ", ".join("?" for _ in columns)
                insert = f"INSERT INTO {_q(table)} ({names}) VALUES ({marks})"
                connection.connection.executemany(insert, rows)
        for sql in connection.ops.sequence_reset_sql(no_style(), apps.get_models()):
            cursor.execute(sql)
    ContentType.objects.clear_cache()  # their ids are the copy's now
    if getattr(mail, "outbox", None) is not None:
        mail.outbox.extend(snapshot.mails)

"""Reads that Django compiles once per process, then runs with each call's values.

A hall's ball call and door sale run the same few reads on every request (the user with their
roles, the game or occasion locked with its audit chain, what the write is judged on). Building
each queryset and compiling it (resolving every lookup, join and subquery, writing the SQL) cost
Django more processor time than the database took to answer: about 9 of a ball call's 12 ms.
``Prepared`` keeps a queryset's SQL once compiled, with the places its arguments take among the
statement's parameters, and runs that SQL with each call's arguments, turning the rows into
model instances (``select_related`` included) or dicts (``values()``) exactly as Django does.

Where the arguments go is found by compiling the queryset twice, with two sets of stand-in
values of the arguments' types: the SQL must be the same both times, and each parameter must be
either a constant (the same both times) or one argument's stand-in, unchanged. A queryset whose
SQL depends on its arguments' values, or that transforms them (``__contains`` wraps a string in
``%``), fails that check on its first use: it cannot be prepared, and says so. Arguments are
ints, strings or Decimals, already what the lookups compare (a model's pk, not the model).

On PostgreSQL the statement is also prepared by the server once it has run a few times on a
connection (psycopg's prepared statements, ``prepare_threshold`` times, through a cursor that
binds its parameters on the server): a connection kept between requests (``DB_CONN_MAX_AGE``)
then has it planned once instead of at every request, and a connection that lives for one
request pays nothing more. The rest of the project's statements are sent as Django sends them
(the parameters bound in the client, planned each time). A connection pooler in front of
PostgreSQL must keep prepared statements (PgBouncer 1.21 and later, with
``max_prepared_statements``), or ``DB_PREPARED_STATEMENTS=off`` turns this off.

The shape of the arguments (their count and types) is part of the key, so a queryset built from
a list (one ``Q`` per item) is kept once per length. A read is kept for the database its
queryset chose when first built (this project has one). Nothing is kept across a restart.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, ValuesIterable, get_related_populators
from django.db.transaction import TransactionManagementError

Value = int | str | Decimal


def _stand_in(value: Value, round_: int, index: int) -> Value:
    """A value of ``value``'s type that no query holds by chance, different in each round.
    Integers stay within a small integer column's range (Django compiles a comparison with a
    number its column cannot hold as no comparison at all)."""
    if isinstance(value, bool):
        raise TypeError("a prepared read's argument cannot be a bool: its SQL would change")
    if isinstance(value, int):
        return 31_000 + round_ * 500 + index
    if isinstance(value, Decimal):
        return Decimal(f"{7_000 + round_ * 500 + index}.37")
    if isinstance(value, str):
        return f"\u2063prepared {round_}.{index}\u2063"
    raise TypeError(f"a prepared read's argument is an int, a str or a Decimal, not {value!r}")


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, int], ...]  # (position among the parameters, argument index)
    compiler: Any
    using: str
    for_update: bool
    model: Any
    values_names: tuple[str, ...] | None  # a values() read's keys; None for instances

    def parameters(self, arguments: Sequence[Value]) -> list[Any]:
        params = list(self.params)
        for position, index in self.slots:
            params[position] = arguments[index]
        return params


class Prepared:
    """A read built by ``build(*arguments)`` (a queryset of instances or of ``values()``),
    compiled once per process, database and shape of arguments."""

    def __init__(self, build: Callable[..., QuerySet[Any]]) -> None:
        self.build = build
        self._compiled: dict[tuple[Any, ...], _Compiled] = {}

    def all(self, *arguments: Value) -> list[Any]:
        """The rows, as Django's queryset would give them."""
        compiled = self._compile(arguments)
        connection = connections[compiled.using]
        if (
            compiled.for_update
            and connection.features.has_select_for_update
            and connection.get_autocommit()
        ):
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        with _cursor(connection) as cursor:
            cursor.execute(compiled.sql, compiled.parameters(arguments))
            rows = cursor.fetchall()
        compiler = copy.copy(compiled.compiler)  # with this thread's connection, not the first's
        compiler.connection = connection
        results = compiler.results_iter(results=[rows])
        if compiled.values_names is not None:
            return [dict(zip(compiled.values_names, row, strict=True)) for row in results]
        return list(_instances(compiled, results))

    def get(self, *arguments: Value) -> Any:
        """The one row (the read is expected to find one at most: a lookup by primary key);
        the model's DoesNotExist when there is none."""
        rows = self.all(*arguments)
        if not rows:
            model = self._compile(arguments).model
            raise model.DoesNotExist(f"{model._meta.object_name} matching query does not exist.")
        return rows[0]

    def _compile(self, arguments: Sequence[Value]) -> _Compiled:
        shape = tuple(type(a) for a in arguments)
        compiled = self._compiled.get(shape)
        if compiled is None:
            compiled = self._compiled[shape] = self._first_compile(arguments)
        return compiled

    def _first_compile(self, arguments: Sequence[Value]) -> _Compiled:
        stand_ins = [
            [_stand_in(value, round_, index) for index, value in enumerate(arguments)]
            for round_ in (1, 2)
        ]
        compiled = []
        for values in stand_ins:
            queryset = self.build(*values)
            using = queryset.db
            compiler = queryset.query.get_compiler(using=using)
            sql, params = compiler.as_sql()
            compiled.append((queryset, compiler, sql, tuple(params)))
        (queryset, compiler, sql, params), (_, _, sql_2, params_2) = compiled
        if sql != sql_2 or len(params) != len(params_2):
            raise ValueError(f"{self.build.__qualname__}: its SQL depends on its arguments")
        slots = []
        for position, (first, second) in enumerate(zip(params, params_2, strict=True)):
            if first == second:
                continue
            index = next(
                (i for i, v in enumerate(stand_ins[0]) if v == first and stand_ins[1][i] == second),
                None,
            )
            if index is None:
                raise ValueError(
                    f"{self.build.__qualname__}: parameter {position} is an argument transformed"
                )
            slots.append((position, index))
        unused = set(range(len(arguments))) - {index for _, index in slots}
        if unused:
            raise ValueError(f"{self.build.__qualname__}: arguments {sorted(unused)} are not used")
        iterable = queryset._iterable_class
        if iterable not in (ModelIterable, ValuesIterable):
            raise ValueError(f"{self.build.__qualname__}: only instances or values() are prepared")
        if queryset._prefetch_related_lookups:
            raise ValueError(f"{self.build.__qualname__}: a prefetch is a read of its own")
        # The compiler is kept without the connection it was made with: that is the first
        # caller's thread's, which it would keep open after the thread ended.
        compiler.connection = None
        query = queryset.query
        names = None
        if iterable is ValuesIterable:
            names = (*query.extra_select, *query.values_select, *query.annotation_select)
        return _Compiled(
            sql=sql,
            params=params,
            slots=tuple(slots),
            compiler=compiler,
            using=using,
            for_update=query.select_for_update,
            model=queryset.model,
            values_names=names,
        )


def _cursor(connection: Any) -> Any:
    """Django's cursor, or on PostgreSQL when the settings have its connections prepare
    statements (``prepare_threshold``) Django's wrapper around a cursor that binds on the
    server, which psycopg prepares a statement for once it has run it that many times on the
    connection: counted, logged and wrapped as every other statement (what
    ``connection.cursor()`` does, with that cursor)."""
    if connection.vendor != "postgresql" or (
        connection.settings_dict["OPTIONS"].get("prepare_threshold") is None
    ):
        return connection.cursor()
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw_connection = connection.connection
    with connection.wrap_database_errors:
        raw = _preparing_cursor_class()(raw_connection)
        loader = raw_connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
        if connection.timezone != getattr(loader, "timezone", None):
            register_tzloader(connection.timezone, raw)
        return connection._prepare_cursor(raw)


@functools.cache
def _preparing_cursor_class() -> type:
    """Made when first needed: the PostgreSQL backend is imported only where it is used."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):  # type: ignore[misc, valid-type]
        def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
            result = super().execute(query, params, **kwargs)
            self._query = _Shown(self.connection, query, params)
            return result

    return PreparingCursor


class _Shown:
    """The statement as Django shows what it ran (its values in place), for its log and the
    queries a test captures: written only when read (``last_executed_query`` reads the
    cursor's ``_query.query``, which psycopg leaves unset for a prepared statement)."""

    __slots__ = ("connection", "params", "sql")

    def __init__(self, connection: Any, sql: str, params: Any) -> None:
        self.connection, self.sql, self.params = connection, sql, params

    @property
    def query(self) -> bytes:
        from psycopg import ClientCursor

        return ClientCursor(self.connection).mogrify(self.sql, self.params).encode()


def _instances(compiled: _Compiled, rows: Any) -> Any:
    """Model instances from the rows, as Django's ModelIterable makes them."""
    compiler = compiled.compiler
    select, klass_info = compiler.select, compiler.klass_info
    start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
    init_list = [f[0].target.attname for f in select[start:end]]
    populators = get_related_populators(klass_info, select, compiled.using)
    annotations = compiler.annotation_col_map
    model = klass_info["model"]
    for row in rows:
        obj = model.from_db(compiled.using, init_list, row[start:end])
        for populator in populators:
            populator.populate(row, obj)
        for name, position in annotations.items():
            setattr(obj, name, row[position])
        yield obj

"""Row locks, taken one way and in one order.

Every write locks the rows it changes through ``lock`` (or, for a statement compiled once per
process, ``LockingStatement``); nothing else in the code calls ``select_for_update``
(``tests/test_locking.py`` walks the code for one). The rows are taken in one global order,
``ORDER``: the organization, its license, the occasion, its games, then what hangs from them.
Two writes that take their rows in one order cannot wait on each other in a circle, so
PostgreSQL never has a deadlock to break.

Inside one transaction a lock of a kind earlier in the order, taken after one of a later kind,
is a programming error (``LockOrderError``), raised at once on every database: on SQLite, which
has no row locks (its one write lock makes writers take turns), the order is still checked, so
the suite finds a wrong order before PostgreSQL does. What a transaction holds is forgotten at
its end (its commit or rollback); under a test's own transaction, at the end of the outermost
block the code opened.

Rows of one kind may be taken in several statements (two claims), and a kind the transaction
already holds may be taken again after a later one: a service called by another locks again
what its caller locked (the same occasion), and waits for nothing.
One statement may lock rows joined to its own (``lock(games, "occasion")``): they are named in
``FOR UPDATE OF`` in the order's order, and PostgreSQL locks each row of the result in that
order.

The audit chain head (``organizations.AuditChain``) stands apart: every write appends its event
last, and a hall's write that takes the head early takes it in the statement that locks its
occasion (or game), so whoever else waits for it already holds nothing of that occasion. It may
be taken at any point and raises nothing. So may the statewide month's kept figures
(``reports.KeptStatewideMonth``): they are written with a close or a filing, once that
occasion is held, and whatever the transaction takes after them is of that occasion (a night
entered from its sheets closes, then counts its cash), which no one else can hold.

This module names models by label and imports no app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Manager, Model, QuerySet

from beano.prepared import Prepared

#: The one order of locks, first to last: a transaction takes a row of a kind only before any of
#: a kind further down.
ORDER: tuple[str, ...] = (
    # A night file uploaded, held while the night is recorded from it (``nightfile.upload``).
    "nightfile.NightUpload",
    # The organization and what spans its occasions.
    "organizations.Organization",
    "games.ProgressiveSeries",
    "organizations.License",
    "organizations.Person",
    "organizations.WorkerList",
    "organizations.WorkerListEntry",
    # The occasion and its night.
    "occasions.Occasion",
    "occasions.RafflePermit",
    "games.Game",
    "games.ProgressiveGame",
    "games.PrizePart",
    "games.BallCall",
    "games.Flashboard",
    "games.Claim",
    "games.Winner",
    "occasions.Sale",
    "occasions.Raffle",
    "occasions.WorkerPresence",
    # The close-out, the cash and the filed reports.
    "reports.CloseOut",
    "banking.DrawerCount",
    "reports.Expense",
    "reports.FinancialReport",
    "reports.AnnualReport",
    "reports.LawfulPurposeDisbursement",
    # Equipment and paper stock.
    "organizations.DirectorAuthorization",
    "organizations.Equipment",
    "organizations.CardPurchase",
    "equipment.CardUsage",
    "equipment.PaperIssue",
    # People's accounts.
    "auth.User",
    "organizations.Membership",
    "organizations.Invitation",
    # A password or PIN checked: a sign-in, or a witness confirming a write (after its rows).
    "accounts.PasswordFailures",
    # Checks of the chains.
    "organizations.ChainVerification",
)

#: Taken at any point (see the module's docstring); never raises the rank held.
APART = frozenset({"organizations.AuditChain", "reports.KeptStatewideMonth"})

RANK: dict[str, int] = {label: rank for rank, label in enumerate(ORDER)}

#: The rows of a night: taken only once their occasion is held (before them, or joined in their
#: statement), which keeps everyone else out of them; with the occasion held, they may be taken
#: in any order among themselves (a night entered from its sheets, act after act, in the order
#: of their moments).
OCCASION = "occasions.Occasion"
NIGHT = frozenset(ORDER[RANK[OCCASION] + 1 : RANK["occasions.WorkerPresence"] + 1])

M = TypeVar("M", bound=Model)


class LockOrderError(RuntimeError):
    """A lock asked for out of the global order: the code is wrong, not the user's act."""


@dataclass
class _Held:
    """What the transaction (from the outermost block the code opened) holds: the last kind in
    the order it locked, and the marks that say whether that transaction is still the one."""

    rank: int
    label: str
    kinds: frozenset[str]
    savepoint: str | None
    mark: Callable[[], None]


def _label(model: type[Model]) -> str:
    return model._meta.concrete_model._meta.label


def _model_at(model: type[Model], path: str) -> type[Model]:
    for name in path.split("__"):
        related = model._meta.get_field(name).related_model
        if related is None or isinstance(related, str):
            raise LockOrderError(f"{path} of {_label(model)} is not a related row.")
        model = related
    return model


def _scope(connection: Any) -> str | None:
    """The savepoint of the outermost atomic block the code opened inside a test's own
    transaction; None when that block is the transaction itself."""
    for index, block in enumerate(connection.atomic_blocks):
        if not getattr(block, "_from_testcase", False):
            return connection.savepoint_ids[index - 1] if index else None
    return None


def _still_held(connection: Any, held: _Held) -> bool:
    if held.savepoint is not None:
        return held.savepoint in connection.savepoint_ids
    return any(callback[1] is held.mark for callback in connection.run_on_commit)


def held(using: str = DEFAULT_DB_ALIAS) -> str | None:
    """The last kind in the order the current transaction locked (its label), None if none."""
    connection = connections[using]
    record: _Held | None = getattr(connection, "_beano_locks", None)
    if record is None or not connection.in_atomic_block or not _still_held(connection, record):
        return None
    return record.label


def take(model: type[Model], *also: str, using: str = DEFAULT_DB_ALIAS) -> None:
    """Note that this transaction locks rows of ``model`` (and of the rows joined at the paths
    ``also``), refusing the lock if it comes before a kind the transaction already holds."""
    connection = connections[using]
    if getattr(connection, "_beano_alone", False):
        return
    if not any(not getattr(b, "_from_testcase", False) for b in connection.atomic_blocks):
        raise LockOrderError(f"A lock of {_label(model)} outside a transaction holds nothing.")
    labels = [_label(model)] + [_label(_model_at(model, path)) for path in also]
    ordered = [label for label in labels if label not in APART]
    for label in ordered:
        if label not in RANK:
            raise LockOrderError(f"{label} has no place in beano.locking.ORDER.")
    if not ordered:
        return
    highest = max(ordered, key=RANK.__getitem__)
    record: _Held | None = getattr(connection, "_beano_locks", None)
    if record is not None and not _still_held(connection, record):
        record = None
    if record is not None:
        for label in ordered:
            later = _held_after(label, record.kinds, OCCASION in ordered)
            if later is not None and label not in record.kinds:
                raise LockOrderError(
                    f"{label} locked after {later}: beano.locking.ORDER puts it before."
                )
        if RANK[highest] <= record.rank and record.kinds.issuperset(ordered):
            return
    savepoint = _scope(connection)
    mark = record.mark if record is not None else _mark(connection, savepoint)
    kinds = frozenset(ordered) | (record.kinds if record is not None else frozenset())
    top = highest if record is None or RANK[highest] > record.rank else record.label
    connection._beano_locks = _Held(RANK[top], top, kinds, savepoint, mark)


@contextmanager
def alone(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """A transaction of many writes in one, run with no other writer (the demo's seed, on an
    empty database): its writes lock as ever, but their order across the writes is not
    checked, since nothing else waits for its rows."""
    with transaction.atomic(using=using):
        connection = connections[using]
        before = getattr(connection, "_beano_alone", False)
        connection._beano_alone = True
        try:
            yield
        finally:
            connection._beano_alone = before


def _held_after(label: str, kinds: frozenset[str], with_occasion: bool) -> str | None:
    """A kind held that the order puts after ``label``, None if none; a night's rows, with
    their occasion held (or taken in the same statement), are not after one another."""
    night = label in NIGHT and (with_occasion or OCCASION in kinds)
    after = [kind for kind in kinds if RANK[kind] > RANK[label] and not (night and kind in NIGHT)]
    return max(after, key=RANK.__getitem__) if after else None


def _mark(connection: Any, savepoint: str | None) -> Callable[[], None]:
    """A callback that lives as long as the transaction: run (and so gone) at its commit,
    dropped at its rollback. Inside a test's transaction the block's savepoint says it."""

    def mark() -> None:
        """Nothing to do: the lock record ends with the transaction."""

    if savepoint is None:
        connection.on_commit(mark)
    return mark


def _of(model: type[Model], also: Sequence[str]) -> tuple[str, ...]:
    """``self`` and the joined paths, in the order's order (the audit chain head last)."""

    def rank(path: str) -> int:
        label = _label(model if path == "self" else _model_at(model, path))
        return RANK.get(label, len(ORDER))

    return tuple(sorted(("self", *also), key=rank))


def lock(queryset: QuerySet[M] | Manager[M], *also: str, using: str | None = None) -> QuerySet[M]:
    """``queryset``'s rows locked until the transaction ends (with the rows joined to them at
    the paths ``also``), checked against the order first; in the order of their keys unless
    the queryset has its own."""
    queryset = queryset.all()
    take(queryset.model, *also, using=using or queryset.db)
    ordered = queryset if queryset.ordered else queryset.order_by("pk")
    return ordered.select_for_update(of=_of(queryset.model, also))


class LockingStatement:
    """A locking read compiled once per process (``beano.prepared.Prepared``): ``build``
    gives the queryset of ``model`` without its lock; each run checks the order as ``lock``
    does."""

    def __init__(self, model: type[Model], build: Callable[..., QuerySet[Any]], *also: str):
        self.model = model
        self.also = also
        of = _of(model, also)
        self.prepared = Prepared(lambda *arguments: build(*arguments).select_for_update(of=of))

    def all(self, *arguments: Any) -> list[Any]:
        take(self.model, *self.also)
        return self.prepared.all(*arguments)

    def get(self, *arguments: Any) -> Any:
        take(self.model, *self.also)
        return self.prepared.get(*arguments)


def model(label: str) -> type[Model]:
    """The model named ``label`` (for a caller naming a model it does not import)."""
    return apps.get_model(label)

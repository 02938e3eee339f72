"""The one way to lock (``beano.locking``): rows taken in one global order, a lock out of it
refused inside its transaction, what a transaction holds forgotten at its end, and no
``select_for_update`` anywhere in the code but the helper."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.db import transaction

from beano import locking
from occasions.models import Occasion
from organizations.models import AuditChain, License, Organization

ROOT = Path(__file__).resolve().parent.parent
HELPER = ROOT / "beano" / "locking.py"
SKIPPED = {".venv", "node_modules", "tests", "migrations", ".git"}


def _code() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED & set(path.relative_to(ROOT).parts) and path != HELPER
    ]


def test_no_code_calls_select_for_update_but_the_helper() -> None:
    found = []
    for path in _code():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "select_for_update"
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "lock through beano.locking.lock, not select_for_update: " + ", ".join(found)


def test_the_order_names_models_that_exist_once_each() -> None:
    assert len(set(locking.ORDER)) == len(locking.ORDER)
    for label in (*locking.ORDER, *locking.APART):
        assert locking.model(label)._meta.label == label
    assert locking.ORDER[:5] == (
        # A night file uploaded is held before anything its night's recording locks.
        "nightfile.NightUpload",
        "organizations.Organization",
        "games.ProgressiveSeries",
        "organizations.License",
        "organizations.Person",
    )
    assert locking.RANK["occasions.Occasion"] < locking.RANK["games.Game"]


@pytest.mark.django_db
def test_a_lock_earlier_in_the_order_after_a_later_one_is_refused(tenant) -> None:
    organization = tenant.organization
    with transaction.atomic():
        list(locking.lock(Organization.objects.filter(pk=organization.pk)))
        list(locking.lock(Occasion.objects.filter(organization=organization)))
        list(locking.lock(Occasion.objects.filter(organization=organization)))  # same kind again
        assert locking.held() == "occasions.Occasion"
        # A kind held already is taken again (a service called by another): it waits for nothing.
        list(locking.lock(Organization.objects.filter(pk=organization.pk)))
        with pytest.raises(locking.LockOrderError, match="License locked after"):
            locking.lock(License.objects.filter(organization=organization))
        # The audit chain head stands apart: taken at any point.
        list(locking.lock(AuditChain.objects.filter(organization=organization)))


@pytest.mark.django_db
def test_a_joined_lock_is_judged_by_its_first_kind_and_held_as_its_last(tenant) -> None:
    with transaction.atomic():
        list(locking.lock(Occasion.objects.select_related("organization"), "organization"))
        assert locking.held() == "occasions.Occasion"
    with transaction.atomic():
        list(locking.lock(Occasion.objects.all()))
        with pytest.raises(locking.LockOrderError):
            locking.lock(Occasion.objects.select_related("organization"), "organization")


@pytest.mark.django_db
def test_what_a_block_held_is_forgotten_when_it_ends(tenant) -> None:
    organization = tenant.organization
    with transaction.atomic():
        list(locking.lock(Occasion.objects.all()))
    assert locking.held() is None
    with transaction.atomic():
        list(locking.lock(Organization.objects.filter(pk=organization.pk)))
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        list(locking.lock(Occasion.objects.all()))
        raise ZeroDivisionError
    with transaction.atomic():
        assert locking.held() is None
        list(locking.lock(Organization.objects.filter(pk=organization.pk)))


@pytest.mark.django_db
def test_a_lock_outside_a_transaction_is_refused() -> None:
    with pytest.raises(locking.LockOrderError, match="outside a transaction"):
        locking.lock(Organization.objects.all())


@pytest.mark.django_db
def test_a_model_with_no_place_in_the_order_is_refused() -> None:
    from reports.models import ExpenseKind

    with transaction.atomic(), pytest.raises(locking.LockOrderError, match="no place"):
        locking.lock(ExpenseKind.objects.all())


@pytest.mark.django_db(transaction=True)
def test_a_real_transaction_forgets_its_locks_at_commit_and_rollback(tenant) -> None:
    organization = tenant.organization
    with transaction.atomic():
        list(locking.lock(Occasion.objects.all()))
        # A savepoint inside: still the same transaction.
        with transaction.atomic(), pytest.raises(locking.LockOrderError):
            locking.lock(Organization.objects.filter(pk=organization.pk))
    with transaction.atomic():
        list(locking.lock(Organization.objects.filter(pk=organization.pk)))
        list(locking.lock(Occasion.objects.all()))
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        list(locking.lock(Occasion.objects.all()))
        raise ZeroDivisionError
    with transaction.atomic():
        list(locking.lock(Organization.objects.filter(pk=organization.pk)))


@pytest.mark.django_db
def test_a_transaction_run_alone_is_not_checked_across_its_writes(tenant) -> None:
    organization = tenant.organization
    with locking.alone():
        list(locking.lock(Occasion.objects.all()))
        list(locking.lock(License.objects.filter(organization=organization)))
    with transaction.atomic():
        list(locking.lock(Occasion.objects.all()))
        with pytest.raises(locking.LockOrderError):
            locking.lock(License.objects.filter(organization=organization))


@pytest.mark.django_db
def test_a_nights_rows_with_their_occasion_held_come_in_any_order(tenant) -> None:
    from games.models import Claim, Game
    from occasions.models import Sale
    from reports.models import CloseOut

    with transaction.atomic():
        list(locking.lock(Occasion.objects.all()))
        list(locking.lock(Sale.objects.all()))
        list(locking.lock(Game.objects.all()))  # after a sale: the occasion keeps others out
        list(locking.lock(CloseOut.objects.all()))
        with pytest.raises(locking.LockOrderError, match=r"Claim locked after reports\.CloseOut"):
            locking.lock(Claim.objects.all())
    with transaction.atomic():
        list(locking.lock(Sale.objects.all()))  # no occasion held: the order as written
        with pytest.raises(locking.LockOrderError, match=r"Game locked after occasions\.Sale"):
            locking.lock(Game.objects.all())

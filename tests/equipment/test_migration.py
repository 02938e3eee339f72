"""The card stock's move from ``organizations`` to ``equipment`` keeps every row: on the
database as it stood before the move (``organizations.0014``, no ``equipment`` app), rows
written through the historical models are read after the move through the new ones, each of
the five kinds, in the same tables. On SQLite and, with ``DATABASE_URL``, on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import SeparateDatabaseAndState
from django.utils import timezone

from equipment.models import (
    CardUsage,
    PaperDestruction,
    PaperExplanation,
    PaperIssue,
    StockTake,
)
from organizations.audit import moved_labels

BEFORE = ("organizations", "0014_person_search_indexes")
MOVE = ("organizations", "0015_card_stock_to_equipment")
AFTER = ("equipment", "0001_initial")
MOVED = ("CardUsage", "PaperIssue", "PaperDestruction", "StockTake", "PaperExplanation")


def _migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to ``targets`` and return the apps of the state reached."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _leaves() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_the_move_is_in_state_only_and_organizations_no_longer_holds_the_models():
    """The two migrations only say where the models are: no database operation, and the state
    after has the five models in ``equipment`` with the tables they had."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    assert MOVE in loader.graph.node_map[AFTER].parents
    before = loader.project_state(BEFORE).apps
    after = loader.project_state([MOVE, AFTER]).apps
    for name in MOVED:
        table = before.get_model("organizations", name)._meta.db_table
        assert after.get_model("equipment", name)._meta.db_table == table
        with pytest.raises(LookupError):
            after.get_model("organizations", name)
    for key in (MOVE, AFTER):
        (operation,) = loader.graph.nodes[key].operations
        assert isinstance(operation, SeparateDatabaseAndState)
        assert operation.database_operations == [] and len(operation.state_operations) == 5


@pytest.mark.django_db(transaction=True)
def test_every_row_of_the_card_stock_is_read_after_the_move(tenant, occasion, card_purchase):
    """Rows written before the move, through the historical models, are the same rows after."""
    old = _migrate([BEFORE])
    with pytest.raises(LookupError):
        old.get_app_config("equipment")
    get = lambda name: old.get_model("organizations", name)  # noqa: E731
    purchase_id, occasion_id = card_purchase.pk, occasion.pk
    user_id = tenant.bookkeeper.pk
    at = timezone.now()
    usage = get("CardUsage").objects.create(
        purchase_id=purchase_id,
        used_on=dt.date(2026, 12, 4),
        quantity_used=3,
        quantity_voided=1,
        note="misprinted",
        occasion_id=occasion_id,
        recorded_by_id=user_id,
    )
    issue = get("PaperIssue").objects.create(
        purchase_id=purchase_id,
        occasion_id=occasion_id,
        serial_from=11,
        serial_to=40,
        issued_at=at,
        issued_by_id=user_id,
        returned=5,
        voided=2,
        returned_at=at,
        from_paper=True,
    )
    destroyed = get("PaperDestruction").objects.create(
        purchase_id=purchase_id,
        destroyed_on=dt.date(2026, 12, 5),
        quantity=4,
        serial_from=41,
        serial_to=44,
        reason="damaged",
        witness_id=user_id,
    )
    take = get("StockTake").objects.create(
        purchase_id=purchase_id,
        counted_on=dt.date(2026, 12, 5),
        expected=52,
        counted=50,
        reason="two torn",
        counted_by_id=user_id,
    )
    explained = get("PaperExplanation").objects.create(
        occasion_id=occasion_id, text="Two sheets torn at the door.", explained_at=at
    )

    _migrate(_leaves())

    assert CardUsage.objects.values(
        "pk", "purchase_id", "occasion_id", "quantity_used", "quantity_voided", "note"
    ).get() == {
        "pk": usage.pk,
        "purchase_id": purchase_id,
        "occasion_id": occasion_id,
        "quantity_used": 3,
        "quantity_voided": 1,
        "note": "misprinted",
    }
    row = PaperIssue.objects.get()
    assert (row.pk, row.occasion_id, row.quantity, row.sold, row.from_paper) == (
        issue.pk,
        occasion_id,
        30,
        23,
        True,
    )
    assert occasion.paper_issues.get() == row and occasion.card_usages.get().pk == usage.pk
    assert PaperDestruction.objects.get().pk == destroyed.pk
    assert StockTake.objects.get().difference == -2 and StockTake.objects.get().pk == take.pk
    assert PaperExplanation.objects.get(occasion_id=occasion_id).pk == explained.pk
    assert occasion.paper_explanation.text == "Two sheets torn at the door."
    # The stock's count reads them through the new models: 100 − 3 − 1 − 30 + 5 − 4 − 2.
    from equipment.paper_stock import movements_of

    assert movements_of([purchase_id])[purchase_id].on_hand == 65


def test_the_events_written_before_the_move_name_the_models_by_their_former_labels():
    moved = moved_labels()
    assert {old: new for old, new in moved.items() if new.startswith("equipment.")} == {
        f"organizations.{n.lower()}": f"equipment.{n.lower()}" for n in MOVED
    }

"""beano.prepared: a read compiled once, run with each call's values, gives what the queryset
gives (instances with what is selected with them, annotations, values with their types)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Count, F, Q, Value
from django.db.models.functions import Concat
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from beano.prepared import Prepared
from organizations.models import License, Organization
from tests.builders import OrganizationFactory

pytestmark = pytest.mark.django_db


def _licenses(organization_id: int, town: str) -> Any:
    return (
        License.objects.select_related("organization")
        .filter(organization_id=organization_id, organization__town=town)
        .annotate(
            tagged=Concat(F("number"), Value("/"), F("organization__town")),
            weekdays_seen=Count("pk"),
        )
    )


def _values(organization_id: int) -> Any:
    return License.objects.filter(organization_id=organization_id).values(
        "number", "valid_from", "organization__name"
    )


def test_instances_come_as_the_queryset_makes_them_related_rows_and_annotations_included() -> None:
    first, second = OrganizationFactory(town="Fairhaven"), OrganizationFactory(town="Acushnet")
    read = Prepared(_licenses)
    for organization in (first, second):
        expected = list(_licenses(organization.pk, organization.town))
        with CaptureQueriesContext(connection) as captured:
            (got,) = read.all(organization.pk, organization.town)
            # the organization was read with it: no query more
            assert got.organization.name == organization.name
        assert len(captured) == 1
        assert got == expected[0]
        assert isinstance(got.valid_from, dt.date)
        assert got.tagged == f"{expected[0].number}/{organization.town}" == expected[0].tagged
        assert got.weekdays_seen == 1
        assert got.authorized_weekdays == expected[0].authorized_weekdays
        assert got._state.adding is False and got._state.db == "default"
    assert read.all(first.pk, "Acushnet") == []  # the second argument is used, not the first's


def test_values_come_as_dicts_with_their_types() -> None:
    organization = OrganizationFactory()
    read = Prepared(_values)
    assert read.all(organization.pk) == list(_values(organization.pk))
    assert read.get(organization.pk)["valid_from"] == dt.date(2020, 10, 1)


def test_it_is_compiled_once_then_only_run() -> None:
    built: list[tuple[Any, ...]] = []

    def build(organization_id: int) -> Any:
        built.append((organization_id,))
        return _values(organization_id)

    read = Prepared(build)
    organizations = OrganizationFactory.create_batch(3)
    for organization in organizations:
        assert read.get(organization.pk)["organization__name"] == organization.name
    assert len(built) == 2  # the two compilings of the first use, with stand-in values
    assert organizations[0].pk not in {b[0] for b in built}


def test_get_says_there_is_none_as_the_model_does() -> None:
    with pytest.raises(License.DoesNotExist):
        Prepared(_values).get(999_999)


def test_a_list_of_each_length_is_compiled_for_itself() -> None:
    organizations = OrganizationFactory.create_batch(3)

    def named(*names: str) -> Any:
        chosen = Q(pk__in=[])
        for name in names:
            chosen |= Q(name=name)
        return Organization.objects.filter(chosen).order_by("name").values("name")

    read = Prepared(named)
    names = [o.name for o in organizations]
    assert [r["name"] for r in read.all(*names[:1])] == names[:1]
    assert [r["name"] for r in read.all(*names)] == sorted(names)
    assert [r["name"] for r in read.all(names[2], names[0])] == sorted([names[0], names[2]])


def test_decimal_and_string_arguments_take_their_places() -> None:
    organization = OrganizationFactory(name="Fairhaven Veterans")

    def read(name: str, at_least: Decimal) -> Any:
        return Organization.objects.annotate(d=Value(Decimal("2.50"))).filter(
            name=name, d__gte=at_least
        )

    prepared = Prepared(read)
    assert prepared.all("Fairhaven Veterans", Decimal("2.00")) == [organization]
    assert prepared.all("Fairhaven Veterans", Decimal("3.00")) == []
    assert prepared.all("Someone else", Decimal("2.00")) == []


def test_a_read_that_changes_its_arguments_cannot_be_prepared() -> None:
    OrganizationFactory(name="Fairhaven Veterans")
    contains = Prepared(lambda name: Organization.objects.filter(name__contains=name))
    with pytest.raises(ValueError, match="transformed"):
        contains.all("Veterans")


def test_a_read_whose_sql_follows_its_values_cannot_be_prepared() -> None:
    def build(limit: int) -> Any:
        return Organization.objects.order_by("pk")[:limit]  # a LIMIT is written in the SQL

    with pytest.raises(ValueError, match="depends on its arguments"):
        Prepared(build).all(1)


def test_a_prefetch_or_a_list_of_values_cannot_be_prepared() -> None:
    prefetching = Prepared(
        lambda pk: Organization.objects.filter(pk=pk).prefetch_related("licenses")
    )
    with pytest.raises(ValueError, match="prefetch"):
        prefetching.all(1)
    flat = Prepared(lambda pk: Organization.objects.filter(pk=pk).values_list("name", flat=True))
    with pytest.raises(ValueError, match="only instances"):
        flat.all(1)


def test_an_argument_left_unused_is_a_mistake_said_at_once() -> None:
    with pytest.raises(ValueError, match="not used"):
        Prepared(lambda organization_id: Organization.objects.all()).all(1)


@pytest.mark.parametrize("value", [True, 1.5, None, dt.date(2026, 1, 1)])
def test_only_ints_strings_and_decimals_are_arguments(value: Any) -> None:
    with pytest.raises(TypeError):
        Prepared(lambda v: Organization.objects.filter(pk=v)).all(value)


@pytest.mark.skipif(
    not connection.features.has_select_for_update, reason="the database has no row locks"
)
@pytest.mark.django_db(transaction=True)
def test_a_locking_read_outside_a_transaction_is_refused_as_django_refuses_it() -> None:
    organization = OrganizationFactory()
    read = Prepared(lambda pk: Organization.objects.select_for_update().filter(pk=pk))
    with transaction.atomic():
        with CaptureQueriesContext(connection) as captured:
            assert read.get(organization.pk) == organization
        assert captured[0]["sql"].rstrip().endswith("FOR UPDATE")
    with pytest.raises(TransactionManagementError):
        read.get(organization.pk)


def _server_prepared(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            [f'%FROM "{table}"%'],
        )
        return cursor.fetchone()[0]


def _named(name: str) -> tuple[Organization, Prepared]:
    """An organization and a prepared read of its name, on a connection open for them."""
    organization = OrganizationFactory(name=name)
    connection.ensure_connection()
    return organization, Prepared(lambda pk: Organization.objects.filter(pk=pk).only("name"))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL prepares statements")
def test_on_postgresql_a_read_run_again_on_a_connection_is_planned_once_and_shown_as_ever() -> None:
    organization, read = _named("Prepared Post")
    threshold = connection.connection.prepare_threshold
    assert threshold == 5  # the settings' value
    with CaptureQueriesContext(connection) as captured:
        assert read.get(organization.pk).name == "Prepared Post"
    assert _server_prepared("organizations_organization") == 0  # a one-request connection
    for _ in range(threshold + 3):
        assert read.get(organization.pk).name == "Prepared Post"
    assert _server_prepared("organizations_organization") == 1  # planned once, run again
    assert len(captured) == 1  # counted as Django counts its own statements
    assert f'WHERE "organizations_organization"."id" = {organization.pk} ' in captured[0]["sql"]
    with CaptureQueriesContext(connection) as captured:
        assert read.get(organization.pk).name == "Prepared Post"  # as prepared
    assert len(captured) == 1
    assert f'"organizations_organization"."id" = {organization.pk} ' in captured[0]["sql"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL prepares statements")
def test_with_prepared_statements_turned_off_the_read_is_sent_as_django_sends_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``DB_PREPARED_STATEMENTS=off`` leaves ``prepare_threshold`` out of the settings: the read
    goes through Django's own cursor, which psycopg never prepares, even on a connection that
    was opened with a threshold (this one)."""
    organization, read = _named("Unprepared Post")
    options = dict(connection.settings_dict["OPTIONS"])
    opened_with = options.pop("prepare_threshold")
    monkeypatch.setitem(connection.settings_dict, "OPTIONS", options)
    assert connection.connection.prepare_threshold == opened_with
    for _ in range(10):
        assert read.get(organization.pk).name == "Unprepared Post"
    assert _server_prepared("organizations_organization") == 0


@pytest.mark.django_db(transaction=True)
def test_a_read_first_made_in_a_thread_keeps_nothing_of_that_threads_connection() -> None:
    """The read is kept for the process; the connection of the thread that first ran it is
    that thread's: once the thread has ended, nothing of the read keeps it (and its session
    with the database) alive."""
    import gc
    import threading
    import weakref

    from django.db import connections

    organization = OrganizationFactory(name="Threaded Post")
    read = Prepared(lambda pk: Organization.objects.filter(pk=pk).only("name"))
    seen: dict[str, Any] = {}

    def first_run() -> None:
        seen["name"] = read.get(organization.pk).name
        seen["connection"] = weakref.ref(connections["default"])

    thread = threading.Thread(target=first_run)
    thread.start()
    thread.join()
    gc.collect()
    assert seen["name"] == "Threaded Post"
    assert seen["connection"]() is None  # the ended thread's connection is gone
    assert read.get(organization.pk).name == "Threaded Post"  # and the read runs here

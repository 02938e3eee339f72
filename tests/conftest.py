"""Shared fixtures: two organizations with a user for each role, an outsider's organization,
an inspector (assigned and Commission-wide) and a Commission admin."""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test.utils import ContextList

from organizations import services
from organizations.models import CommissionStaff, Organization, Role
from tests.builders import PASSWORD as PASSWORD  # the tests import it from here
from tests.builders import CommissionStaffFactory, OrganizationFactory, UserFactory

#: The fixtures of a night, its games, the floor and a real Celery worker, for every test folder
#: (their asserts rewritten like the tests': one imports another before it is a plugin).
pytest.register_assert_rewrite("tests.fixtures")
pytest_plugins = [
    "tests.fixtures.night",
    "tests.fixtures.games",
    "tests.fixtures.floor",
    "tests.fixtures.celery_worker",
    "tests.fixtures.cache_clock",
]
#: The tests' password hasher: they make many users, and a deliberately slow hasher would
#: dominate the suite's time.
FAST_HASHERS = ("django.contrib.auth.hashers.MD5PasswordHasher",)


def make_user(username: str, **extra: Any) -> Any:
    return UserFactory(username=username, **extra)


def make_organization(
    name: str, *, town: str = "Fairhaven", weekdays: list[int] | None = None
) -> Organization:
    return OrganizationFactory(
        name=name,
        town=town,
        license__authorized_weekdays=weekdays if weekdays is not None else [4],
    )


@dataclass
class Tenant:
    organization: Organization
    head: Any
    member_in_charge: Any
    bookkeeper: Any
    worker: Any


def make_tenant(name: str) -> Tenant:
    org = make_organization(name)
    slug = name.lower().replace(" ", "-")
    users = {}
    for role in Role:
        user = make_user(f"{slug}-{role.value}")
        services.assign_role(organization=org, by=None, user=user, role=role.value)
        users[role.value] = user
    return Tenant(
        org, users["head"], users["member_in_charge"], users["bookkeeper"], users["worker"]
    )


def totp_device(user: Any) -> Any:
    """``user``'s confirmed authenticator, as enrolling from the account page leaves it."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name="Test authenticator", confirmed=True)


def totp_code(device: Any) -> str:
    """The code ``device``'s authenticator app shows now."""
    from django_otp.oath import totp

    token = totp(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return str(token).zfill(device.digits)


@pytest.fixture
def limit_reads(monkeypatch: Any) -> list[int]:
    """Each read of the legal figures in force (``beano.rules.limits._limit_rows``: the cache,
    else the table), counted as it happens."""
    from beano.rules import limits

    reads: list[int] = []
    real = limits._limit_rows

    def read() -> Any:
        reads.append(1)
        return real()

    monkeypatch.setattr(limits, "_limit_rows", read)
    return reads


def refusal_shown(page: str, message: str) -> bool:
    """Whether ``page`` shows the refusal ``message`` (written as the rules give it, citation
    first) as the pages show one: its plain words, then its citation in the quieter span."""
    from django.utils.html import escape

    from beano.refusals import plain_first

    (part,) = plain_first(message)
    at = page.find(escape(part.words))
    if not part.citation:
        return at >= 0
    return at >= 0 and page.find(f'<span class="citation">{part.citation}</span>', at) > at


def login(client: Any, user: Any) -> Any:
    """Log ``user`` in as the login pages leave them. ``force_login`` stands for the password
    page; a user who must use a second factor (the Commission's staff, the admin's users) or
    who enrolled one is then verified the way the verify page records it, by
    ``django_otp.login``'s session key for their (confirmed) device. The pages themselves are
    exercised in tests/accounts/: a session without that key reaches nothing but them."""
    import django_otp

    from beano.accounts.policy import confirmed_device, second_factor_required

    client.force_login(user)
    device = confirmed_device(user)
    if device is None and second_factor_required(user):
        device = totp_device(user)
    if device is not None:
        session = client.session
        session[django_otp.DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
    return user


@pytest.fixture
def tenant(db: Any) -> Tenant:
    return make_tenant("Post One")


@pytest.fixture
def other_tenant(db: Any) -> Tenant:
    return make_tenant("Parish Two")


@pytest.fixture
def inspector(db: Any, tenant: Tenant) -> Any:
    """An inspector assigned to ``tenant``'s organization only."""
    return CommissionStaffFactory(
        user__username="inspector-assigned", organizations=[tenant.organization]
    ).user


@pytest.fixture
def statewide_inspector(db: Any) -> Any:
    return CommissionStaffFactory(user__username="inspector-all", all_organizations=True).user


@pytest.fixture
def commission_admin(db: Any) -> Any:
    from beano.accounts.groups import commission_admins

    user = CommissionStaffFactory(
        user__username="commission-admin",
        user__is_staff=True,
        kind=CommissionStaff.Kind.ADMIN,
        all_organizations=True,
    ).user
    user.groups.add(commission_admins())
    return user


@pytest.fixture
def member(tenant: Tenant) -> Any:
    return services.add_member(
        organization=tenant.organization,
        by=tenant.head,
        legal_name="Joseph Rebello",
        date_of_birth=dt.date(1955, 6, 30),
        kind="member",
        since=dt.date(2015, 1, 1),
    )


SHIPPED_DATA = (
    "beano.rules.migrations.0002_initial_law_limits",
    "games.migrations.0002_common_arrangements",
    "reports.migrations.0002_expense_kinds",
    "beano.accounts.migrations.0003_commission_admins_group",
)


def _is_transactional(item: Any) -> bool:
    marker = item.get_closest_marker("django_db")
    return bool(marker and marker.kwargs.get("transaction")) or bool(
        {"transactional_db", "live_server"} & set(getattr(item, "fixturenames", ()))
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[Any]) -> None:
    """The files with a transactional test after all the others (pytest-django has put each
    file's transactional tests after its other tests already): a pytest-xdist worker runs whole
    files in this order, so every file of database tests only runs before any flush, on the
    database as migrated, as in a run on one process."""
    flushing = {item.path for item in items if _is_transactional(item)}
    items.sort(key=lambda item: item.path in flushing)


#: Whether a transactional test's flush has emptied the shipped data since it was last loaded.
_flushed = False


@pytest.fixture(autouse=True)
def _shipped_data(request: Any, django_db_blocker: Any) -> None:
    """A transactional test's flush also empties the data the migrations ship (the limits in
    force, the common arrangements, the kinds of expense, the Commission admins' group): it is
    loaded again, as the migrations load it, before the test. pytest-django runs transactional
    tests last, but a pytest-xdist worker given whole files may run another file's database
    tests after one: the data is loaded again for those too."""
    global _flushed
    from django.db import connection

    marker = request.node.get_closest_marker("django_db")
    if _is_transactional(request.node):
        request.getfixturevalue("transactional_db")
        load_shipped_data()
        _flushed = True  # by the flush after this test
    elif _flushed and (marker is not None or "db" in request.fixturenames):
        with django_db_blocker.unblock():
            load_shipped_data()
            # Loaded inside the test's own transaction, it is rolled back with it: load again.
            _flushed = connection.in_atomic_block


@pytest.fixture(scope="module")
def seeded_demo(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """The demo (``seed_demo --no-pdfs``), seeded once for the module inside a transaction
    rolled back when the module is done, for the tests that read it; what a test writes is
    rolled back after it (``db``'s savepoint). Seeded for real once per process, then restored
    from its copy (tests/demo_snapshot.py). A test that needs the demo's PDFs renders them by
    seeding again (idempotent: only the PDFs are made)."""
    from django.db import connection, transaction
    from django.test.utils import override_settings

    from tests.demo_snapshot import seed_demo

    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=FAST_HASHERS),
        transaction.atomic(),
    ):
        load_shipped_data()  # an earlier transactional test's flush may have emptied them
        seed_demo()
        # The seed's transaction stands for one committed before the tests: the locks it took
        # are let go, as at its commit (else a test's first lock, a login's, is judged against
        # the seed's last and refused as out of order: seen when this module seeds first).
        connection._beano_locks = None
        yield
        transaction.set_rollback(True)


#: The shipped rows others point to by id (an archive's shared rows, a test's expected ids), as
#: the migrations made them: reloaded after a flush with the same ids, not new ones.
KEPT_BY_ID = ("rules.LawLimit", "games.Arrangement", "reports.ExpenseKind")
_kept_rows: dict[str, str] = {}


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """The test database as migrated, a copy of its shipped rows kept by id, and a quick flush
    after each transactional test (``tests.quick_flush``)."""
    from django.apps import apps
    from django.core import serializers

    from tests.quick_flush import installed

    with django_db_blocker.unblock():
        for label in KEPT_BY_ID:
            rows = apps.get_model(label)._base_manager.order_by("pk")
            _kept_rows[label] = serializers.serialize("json", rows)
    with installed():
        yield


def load_shipped_data() -> None:
    """The rows the data migrations ship, loaded again: those kept by id with their ids (a flush
    does not reset the ids, so loading them as the migrations do would give new ones), the
    others as the migrations load them."""
    import importlib

    from django.apps import apps
    from django.core import serializers
    from django.core.management.color import no_style
    from django.db import connection

    for module in SHIPPED_DATA:
        if _kept_rows and any(m in module for m in ("law_limits", "arrangements", "expense")):
            continue
        importlib.import_module(module).load(apps, None)
    for data in _kept_rows.values():
        for row in serializers.deserialize("json", data):
            row.save()
    models = [apps.get_model(label) for label in KEPT_BY_ID]
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """The fast hasher for every test (``FAST_HASHERS``)."""
    settings.PASSWORD_HASHERS = FAST_HASHERS
    # Occasion tests move the clock to the night of their occasion (days from the real today);
    # a session made before the clock moved must still be valid then.
    settings.SESSION_COOKIE_AGE = 60 * 60 * 24 * 60


def _store_the_page_context_only(
    store: dict[str, Any], signal: Any, sender: Any, template: Any, context: Any, **kwargs: Any
) -> None:
    """Django's test client records every template a request renders with a copy of its
    context (``response.templates``, ``response.context``): a copy per template, and a page's
    form renders a template per field and widget, a tenth or more of a page's time in the tests.
    The templates are all recorded; the context is copied for the first, the page the view
    rendered, whose context holds everything the view passed (what the tests read)."""
    store.setdefault("templates", []).append(template)
    if "context" not in store:
        store["context"] = ContextList([copy.copy(context)])


@pytest.fixture(scope="session", autouse=True)
def _page_context_only() -> Iterator[None]:
    from unittest import mock

    with mock.patch("django.test.client.store_rendered_templates", _store_the_page_context_only):
        yield


@pytest.fixture(autouse=True)
def _own_checkpoint_file(settings: Any, tmp_path: Path) -> None:
    """Each test keeps its audit checkpoints apart: a checkpoint names chains by their
    organization's id, which the next test's database gives to other organizations."""
    settings.AUDIT_CHECKPOINT_FILE = tmp_path / "audit-checkpoints.jsonl"


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with an empty cache (the default's files in the data folder, or the
    process's own; not a Redis that CACHE_URL names): a flashboard's kept answer belongs to the
    test that made it."""
    from django.core.cache import caches
    from django.core.cache.backends.filebased import FileBasedCache
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache | FileBasedCache):
        caches["default"].clear()


# The reports' fixtures (a known closed night, its close-out and filing), for every test folder.
from tests.reports.conftest import (  # noqa: E402, F401
    annual_kwargs,
    annual_report,
    closed_occasion,
    counted,
    disbursement,
    disbursement_kwargs,
    expense,
    expense_kwargs,
    filed_report,
    known_occasion,
    rendered_annual_kwargs,
    rendered_report_kwargs,
    report_clock,
    report_kwargs,
    year_kwargs,
)
from tests.smtp_server import smtp_server, smtp_tls_server  # noqa: E402, F401

"""The tests' demo restored from its copy (tests/demo_snapshot.py) is the demo seeded for real:
the same rows with the same ids, the same mail, the same printout."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core import mail
from django.db import connection, transaction
from django.utils import timezone

from tests import demo_snapshot


def _rows() -> dict[str, list[Any]]:
    snapshot = demo_snapshot._Snapshot({}, {}, {}, "")
    demo_snapshot._copy(snapshot, demo_snapshot._tables())
    if connection.vendor == "postgresql":
        return {t: sorted(data.splitlines()) for t, data in snapshot.rows.items()}
    return {t: sorted(map(repr, rows)) for t, rows in snapshot.rows.items()}


@pytest.mark.django_db
def test_the_demo_restored_from_its_copy_is_the_demo_seeded(monkeypatch):
    # The clock stands still at the real moment: the copy is kept by the real clock's hour,
    # and an hour struck between the seeding and the restoring made the second seed again.
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)
    monkeypatch.setattr(demo_snapshot, "_snapshots", {})
    real, restored = io.StringIO(), io.StringIO()

    with transaction.atomic():
        demo_snapshot.seed_demo(stdout=real)
        seeded, mails = _rows(), list(mail.outbox)
        transaction.set_rollback(True)
    mail.outbox.clear()
    (snapshot,) = demo_snapshot._snapshots.values()
    monkeypatch.setattr(demo_snapshot, "_seed", lambda *a: pytest.fail("seeded again"))

    with transaction.atomic():
        demo_snapshot.seed_demo(stdout=restored)
        assert _rows() == seeded
        transaction.set_rollback(True)

    assert sum(len(rows) for rows in seeded.values()) > 2_000  # the demo, not an empty copy
    assert restored.getvalue() == real.getvalue() and "Demo data is loaded" in real.getvalue()
    assert mail.outbox and [m.subject for m in mail.outbox] == [m.subject for m in mails]
    assert snapshot.before == demo_snapshot._counts(demo_snapshot._tables())


@pytest.mark.django_db
def test_the_copy_is_not_used_from_another_starting_point(monkeypatch, tenant):
    """A test that made rows of its own before seeding gets a real seeding: the copy would
    replace its rows."""
    key = demo_snapshot._key()
    tables = demo_snapshot._tables()
    before = demo_snapshot._counts(tables)
    empty = {t: (b"" if connection.vendor == "postgresql" else []) for t in tables}
    monkeypatch.setitem(
        demo_snapshot._snapshots,
        key,
        demo_snapshot._Snapshot({**before, "auth_user": 0}, empty, {}, ""),
    )
    seeded = []
    monkeypatch.setattr(
        demo_snapshot,
        "_seed",
        lambda *a: seeded.append(a) or demo_snapshot._Snapshot({}, {}, {}, ""),
    )
    demo_snapshot.seed_demo()
    assert seeded and seeded[0][0] == before


@pytest.mark.django_db
def test_a_copy_seeded_under_other_password_hashers_is_not_put_back(settings):
    """The demo's passwords are hashed by the first of the hashers set: a copy seeded under the
    tests' fast hasher holds hashes the default ones do not read, and the other way round (the
    demo's logins then failed in whichever module seeded second in a process)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    slow = demo_snapshot._key()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    assert demo_snapshot._key() != slow

"""Backups: one organization's records exported from the demo and restored into an empty second
database (a fresh SQLite file, or a new PostgreSQL database when the suite runs on PostgreSQL),
by the real commands in their own processes, as an operator would run them."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connection, models, transaction
from django.test.utils import override_settings

from beano.backup import scope
from beano.backup.archive import dumps_line

#: Every test here runs among the database tests, before the transactional ones: their flush
#: empties the data the migrations ship, and the restored database has it as migrated.
pytestmark = pytest.mark.django_db

BASE_DIR = Path(settings.BASE_DIR)
POST = "American Legion Post 171"
STANNE = "St. Anne's Parish"


# -- what must be exported, found independently of beano.backup ---------------------------


def _project_models() -> list[type[models.Model]]:
    """Every model whose app lives in this repository (not in an installed package)."""
    base = BASE_DIR.resolve()
    return [
        m
        for c in apps.get_app_configs()
        if Path(c.path).resolve().is_relative_to(base) and ".venv" not in Path(c.path).parts
        for m in c.get_models()
    ]


def _leads_to_organization(model: type[models.Model], seen: frozenset = frozenset()) -> bool:
    """A chain of forward foreign keys (or a plain organization_id) from ``model`` reaches an
    Organization."""
    organization = apps.get_model("organizations", "Organization")
    if model is organization:
        return True
    for f in model._meta.concrete_fields:
        if f.attname == "organization_id" and not f.is_relation:
            return True
        if (
            f.is_relation
            and f.related_model not in seen | {model}
            and _leads_to_organization(f.related_model, seen | {model})
        ):
            return True
    return False


def test_every_project_model_that_leads_to_an_organization_is_exported_with_it():
    project = _project_models()
    labels = {c.label for c in apps.get_app_configs() if c.models_module}
    assert {"rules", "organizations", "occasions", "games", "reports", "banking"} <= labels
    expected = {m._meta.label_lower for m in project if _leads_to_organization(m)}
    exported = {m._meta.label_lower for m in scope.organization_models()}
    # The tables written again from the records are never archived; the rest are, every one.
    assert exported == expected - set(scope.DERIVED_TABLES)
    assert set(scope.DERIVED_TABLES) <= {m._meta.label_lower for m in project}
    assert {"organizations.auditevent", "organizations.auditchain", "games.ballcall"} <= exported
    assert "rules.refusedaction" in exported  # through its plain organization_id
    # No installed package's model leads to an organization: none is silently left out.
    others = [m for m in apps.get_models() if m not in project]
    assert not [m for m in others if _leads_to_organization(m)]
    # The models with no organization are shared, deliberately.
    shared = {m._meta.label_lower for m in project} - expected
    assert {
        "organizations.person",
        "games.arrangement",
        "reports.expensekind",
        "occasions.prevailingpolicerate",
        "rules.lawlimit",
    } <= shared


# -- the demo, exported once for the module ------------------------------------------------


@dataclass
class Exports:
    root: Path
    archives: dict[str, Path]
    manifests: dict[str, dict[str, Any]]
    outputs: dict[str, str]
    #: label → (rows in the table, rows that lead to no organization) at the source.
    totals: dict[str, tuple[int, int]]
    organization_ids: dict[str, int]


@pytest.fixture(scope="module")
def exports(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any) -> Exports:
    """The demo seeded, both organizations exported, and everything rolled back."""

    from organizations.models import Organization
    from tests.conftest import FAST_HASHERS, load_shipped_data

    root = tmp_path_factory.mktemp("backup")
    with (
        django_db_blocker.unblock(),
        override_settings(MEDIA_ROOT=root / "media", PASSWORD_HASHERS=FAST_HASHERS),
        transaction.atomic(),
    ):
        load_shipped_data()  # as migrated, with their ids (a no-op unless a flush removed them)
        call_command("seed_demo", force=True, stdout=io.StringIO())
        result = Exports(root, {}, {}, {}, {}, {})
        for org in Organization.objects.all():
            archive = root / f"org-{org.pk}.tar.gz"
            out = io.StringIO()
            call_command("export_organization", str(org.pk), "--output", str(archive), stdout=out)
            result.archives[org.name] = archive
            result.manifests[org.name] = _manifest(archive)
            result.outputs[org.name] = out.getvalue()
            result.organization_ids[org.name] = org.pk
        for model in scope.organization_models():
            orphans = model._base_manager.filter(scope.no_organization_filter(model)).count()
            result.totals[scope.label(model)] = (model._base_manager.count(), orphans)
        transaction.set_rollback(True)
    return result


def _manifest(archive: Path) -> dict[str, Any]:
    with tarfile.open(archive) as tar:
        return json.load(tar.extractfile("manifest.json"))


def _counts(manifest: dict[str, Any], kind: str = "organization") -> dict[str, int]:
    return {m["model"]: m["count"] for m in manifest["models"] if m["scope"] == kind}


def test_every_row_is_in_exactly_one_organizations_export(exports):
    """Nothing of an organization is left out, nothing is exported twice."""
    assert {POST, STANNE} <= set(exports.manifests)  # and any the demo adds later
    for label, (total, orphans) in exports.totals.items():
        exported = sum(_counts(m).get(label, 0) for m in exports.manifests.values())
        assert exported + orphans == total, label
    post = exports.manifests[POST]
    assert set(_counts(post)) == {m._meta.label_lower for m in scope.organization_models()}
    counts = _counts(post)
    assert counts["organizations.auditevent"] == post["audit_chain"]["length"] > 100
    # Last week's report and its amendment, and the 2025 night's report.
    assert counts["games.payout"] >= 17 and counts["reports.financialreport"] == 3
    assert post["audit_chain"]["intact"] and post["trail_difference_count"] == 0
    # The shared rows it names come along: the people on its lists, the users who acted, the
    # arrangements played; the legal limits go whole.
    shared = _counts(post, "shared")
    # The four demo logins and the one invited, not yet accepted (a login with no password).
    assert shared["organizations.person"] >= 4 and shared["auth.user"] == 5
    assert shared["games.arrangement"] >= 1 and "reports.expensekind" in shared
    assert _counts(post, "reference")["rules.lawlimit"] > 0
    # The filed report and its amendment, as PDFs, with their SHA-256.
    pdfs = [f for f in post["files"] if f["name"].endswith(".pdf")]
    assert len(pdfs) == 2 and all(len(f["sha256"]) == 64 for f in pdfs)
    assert not post["missing_files"]
    assert "Head of event" in exports.outputs[POST]


def test_users_are_exported_without_passwords_or_rights(exports):
    with tarfile.open(exports.archives[POST]) as tar:
        rows = [json.loads(line) for line in tar.extractfile("data.jsonl")]
    users = [r for r in rows if r["model"] == "auth.user"]
    assert {u["fields"]["username"] for u in users} == {
        "post171-head",
        "post171-mic",
        "post171-books",
        "post171-worker",
        "joseph.rebello@example.org",  # invited by the head, no password set yet
    }
    for user in users:
        assert set(user["fields"]) == {
            "username",
            "first_name",
            "last_name",
            "is_active",
            "date_joined",
        }


# -- an empty second database, in its own processes --------------------------------------


def source_audit_key() -> str:
    return settings.AUDIT_KEYS[settings.AUDIT_KEY_ID].decode()


class Target:
    """An empty, migrated database and media folder, reached only through ``manage.py``: another
    installation, with an audit key of its own (made in its data folder) that holds the source's
    as a fallback, as an installation receiving an archive is set up to (docs/BACKUP.md)."""

    def __init__(self, root: Path, database_url: str, *, source_key: bool = True) -> None:
        self.root = root
        self.media = root / "media"
        self.env = {
            **os.environ,
            "PYTHONPATH": str(BASE_DIR),
            "DATABASE_URL": database_url,
            "MEDIA_ROOT": str(self.media),
            "BEANO_DATA_DIR": str(root / "data"),
        }
        if source_key:
            self.env["AUDIT_KEY_FALLBACKS"] = source_audit_key()

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=900,
        )

    def probe(self, files: list[str]) -> dict[str, Any]:
        result = subprocess.run(
            [sys.executable, "-c", PROBE, json.dumps(files)],
            cwd=BASE_DIR,
            env={**self.env, "DJANGO_SETTINGS_MODULE": "beano.settings"},
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)


#: What a restored database holds, read in its own process.
PROBE = """
import hashlib, json, sys
import django
django.setup()
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.files.storage import default_storage
from organizations.audit import verify_chain
from organizations.models import Organization, Person

out = {"organizations": {}, "totals": {}, "files": {}}
for org in Organization.objects.all():
    out["organizations"][org.name] = {"id": org.pk, "chain": str(verify_chain(org))}
for model in apps.get_models():
    out["totals"][model._meta.label_lower] = model._base_manager.count()
for name in json.loads(sys.argv[1]):
    if default_storage.exists(name):
        with default_storage.open(name, "rb") as handle:
            out["files"][name] = hashlib.sha256(handle.read()).hexdigest()
out["usable_passwords"] = [u.username for u in get_user_model().objects.all()
                           if u.has_usable_password()]
out["mary"] = Person.objects.filter(legal_name="Mary Gallagher").count()
from occasions.models import Occasion
out["closed"] = Occasion.objects.filter(status=Occasion.Status.CLOSED).count()
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def empty_database(tmp_path_factory: Any) -> Iterator[Callable[[str], Target]]:
    """A factory of empty databases: one migrated template, copied for each target (a file
    copy on SQLite, CREATE DATABASE … TEMPLATE on PostgreSQL)."""
    root = tmp_path_factory.mktemp("targets")
    engine = settings.DATABASES["default"]["ENGINE"]
    if engine.endswith("postgresql"):
        yield from _postgres_targets(root)
        return
    template = Target(root / "template", f"sqlite:///{root / 'template.sqlite3'}")
    done = template.run("migrate", "--no-input", "-v", "0")
    assert done.returncode == 0, done.stderr

    def make(name: str) -> Target:
        shutil.copy(root / "template.sqlite3", root / f"{name}.sqlite3")
        return Target(root / name, f"sqlite:///{root / name}.sqlite3")

    yield make


def _postgres_targets(root: Path) -> Iterator[Callable[[str], Target]]:
    import psycopg

    params = connection.settings_dict
    admin = {
        "host": params["HOST"] or None,
        "port": params["PORT"] or None,
        "user": params["USER"] or None,
        "password": params["PASSWORD"] or None,
        "dbname": "postgres",
        "autocommit": True,
    }
    suffix = uuid.uuid4().hex[:8]
    created: list[str] = []

    def url(name: str) -> str:
        auth = params["USER"] + (f":{params['PASSWORD']}" if params["PASSWORD"] else "")
        return f"postgres://{auth}@{params['HOST'] or '127.0.0.1'}:{params['PORT'] or 5432}/{name}"

    def create(name: str, template: str | None = None) -> None:
        sql = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
        with psycopg.connect(**admin) as conn:
            conn.execute(sql)
        created.append(name)

    template_name = f"beano_restore_tpl_{suffix}"
    create(template_name)
    try:
        done = Target(root / "template", url(template_name)).run("migrate", "--no-input", "-v", "0")
        assert done.returncode == 0, done.stderr

        def make(name: str) -> Target:
            create(f"beano_restore_{name}_{suffix}", template_name)
            return Target(root / name, url(f"beano_restore_{name}_{suffix}"))

        yield make
    finally:
        with psycopg.connect(**admin) as conn:
            for name in reversed(created):
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_an_organization_restores_into_an_empty_database_whole(exports, empty_database):
    target = empty_database("restore")
    archive, manifest = exports.archives[POST], exports.manifests[POST]
    files = [f["name"] for f in manifest["files"]]

    done = target.run("import_organization", str(archive))
    assert done.returncode == 0, done.stderr
    length = manifest["audit_chain"]["length"]
    assert f"Audit chain intact through event {length}" in done.stdout
    assert manifest["audit_chain"]["head_hash"] in done.stdout

    found = target.probe(files)
    # Every record of every exported model, in a database that held none of them.
    for label, count in _counts(manifest).items():
        assert found["totals"][label] == count, label
    for label, count in {**_counts(manifest, "shared"), **_counts(manifest, "reference")}.items():
        assert found["totals"][label] >= count, label
    assert found["organizations"] == {
        POST: {"id": exports.organization_ids[POST], "chain": f"Intact through event {length}."}
    }
    # Every file, byte for byte; and no user can sign in with a password from the archive.
    assert found["files"] == {f["name"]: f["sha256"] for f in manifest["files"]}
    assert found["usable_passwords"] == []
    # The kept figures are not archived: the import keeps them from the records it wrote.
    assert found["totals"]["reports.keptoccasionfigures"] == found["closed"] > 0
    # The restored records export to the very same rows: every value, every id, every time.
    again = target.root / "again.tar.gz"
    done = target.run(
        "export_organization", str(manifest["organization"]["id"]), "--output", str(again)
    )
    assert done.returncode == 0, done.stderr
    assert _manifest(again)["data"]["sha256"] == manifest["data"]["sha256"]
    done = target.run("check_audit_chains")
    assert done.returncode == 0 and "All 1 audit chains are intact;" in done.stdout

    # The same organization again: refused, clearly.
    done = target.run("import_organization", str(archive))
    assert done.returncode != 0
    assert f"already holds {POST}" in done.stderr and "Nothing was imported" in done.stderr

    # The other organization goes in beside it; the person both know is not copied twice.
    done = target.run("import_organization", str(exports.archives[STANNE]))
    assert done.returncode == 0, done.stderr
    found = target.probe([])
    assert set(found["organizations"]) == {POST, STANNE} and found["mary"] == 1
    assert all(o["chain"].startswith("Intact") for o in found["organizations"].values())


# -- a changed archive ---------------------------------------------------------------------


def _rewrite(
    source: Path,
    target: Path,
    change: Callable[[list[dict[str, Any]]], None],
    *,
    fix_manifest: bool,
) -> None:
    """``source`` with its rows changed by ``change``; with ``fix_manifest`` the manifest's
    SHA-256 is recomputed, as someone who meant it would."""
    with tarfile.open(source) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}
    rows = [json.loads(line) for line in members["data.jsonl"].splitlines()]
    change(rows)
    data = b"".join(dumps_line(r) for r in rows)
    members["data.jsonl"] = data
    if fix_manifest:
        manifest = json.loads(members["manifest.json"])
        manifest["data"] |= {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
        members["manifest.json"] = dumps_line(manifest)
    with tarfile.open(target, "w:gz") as tar:
        for name, blob in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))


def _payout(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The payout of $38.00, one of the two shares of game 3."""
    return next(
        r for r in rows if r["model"] == "games.payout" and r["fields"]["amount"] == "38.00"
    )


def _raise_payout(rows: list[dict[str, Any]]) -> None:
    _payout(rows)["fields"]["amount"] = "380.00"


def _raise_payout_and_its_event(rows: list[dict[str, Any]]) -> None:
    payout = _payout(rows)
    payout["fields"]["amount"] = "380.00"
    for row in rows:
        fields = row["fields"]
        if (
            row["model"] == "organizations.auditevent"
            and fields["target_type"] == "games.payout"
            and fields["target_id"] == str(payout["pk"])
        ):
            fields["new_values"]["amount"] = "380.00"


def test_a_changed_amount_fails_the_import_loudly_and_writes_nothing(exports, empty_database):
    target = empty_database("tampered")
    source = exports.archives[POST]
    manifest = exports.manifests[POST]

    # Changed and left as is: the manifest's SHA-256 no longer matches.
    changed = target.root / "changed.tar.gz"
    target.root.mkdir(parents=True, exist_ok=True)
    _rewrite(source, changed, _raise_payout, fix_manifest=False)
    done = target.run("import_organization", str(changed))
    assert done.returncode != 0
    assert "data.jsonl does not match the SHA-256" in done.stderr

    # The manifest recomputed too: the payout no longer says what its audit event recorded.
    _rewrite(source, changed, _raise_payout, fix_manifest=True)
    done = target.run("import_organization", str(changed))
    assert done.returncode != 0
    assert "differ from what the audit trail last recorded" in done.stderr
    assert "amount is '380.00', but audit event" in done.stderr

    # The event changed as well: the audit chain breaks at that event.
    _rewrite(source, changed, _raise_payout_and_its_event, fix_manifest=True)
    done = target.run("import_organization", str(changed))
    assert done.returncode != 0
    assert "Audit chain check failed: Broken at event" in done.stderr
    assert "its content was changed after it was written" in done.stderr

    # Each refusal rolled everything back: the database and the media folder are still empty.
    found = target.probe([f["name"] for f in manifest["files"]])
    assert found["organizations"] == {} and found["files"] == {}
    assert found["totals"]["auth.user"] == 0 and found["totals"]["organizations.person"] == 0


# -- the pieces, in this process -------------------------------------------------------------


def test_an_archive_whose_audit_key_the_target_does_not_hold_is_refused(exports, empty_database):
    """The events are keyed with the source's audit key: an installation without it cannot
    tell them from forgeries, and says which key it lacks."""
    from beano.env import audit_key_id

    made = empty_database("keyless")
    target = Target(made.root, made.env["DATABASE_URL"], source_key=False)
    done = target.run("import_organization", str(exports.archives[STANNE]))
    assert done.returncode != 0
    key = audit_key_id(source_audit_key().encode())
    assert "Audit chain check failed: Broken at event 1" in done.stderr
    assert f"audit key {key}, which this installation does not hold" in done.stderr

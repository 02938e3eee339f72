"""The benchmarks' PostgreSQL databases: made afresh for each run, from a migrated template
while the migrations are those the template was made with (a run then skips the migrations)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = "beano_bench_template"


def migrations_digest() -> str:
    """What the schema is made of: every migration file and the Django version."""
    import django

    digest = hashlib.sha256(django.get_version().encode())
    for path in sorted(ROOT.glob("**/migrations/*.py")):
        if ".venv" in path.parts:
            continue
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def fresh_database(database_url: str, admin_url: str) -> tuple[str, bool]:
    """Drop and create the database (and its role, as .ci/run does). Returns the server's
    version and whether the database is already migrated (made from the template)."""
    import psycopg

    url = urlparse(database_url)
    name, user = url.path.lstrip("/"), url.username or "postgres"
    if "bench" not in name and "statewide" not in name:
        raise SystemExit(f"{name}: a benchmark drops its database; its name must say 'bench'")
    with psycopg.connect(admin_url, autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [user]).fetchone():
            admin.execute(f'CREATE ROLE "{user}" LOGIN CREATEDB')
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        comment = admin.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            [TEMPLATE],
        ).fetchone()
        migrated = comment is not None and comment[0] == migrations_digest()
        if migrated:
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}" OWNER "{user}"')
        else:
            admin.execute(f'CREATE DATABASE "{name}" OWNER "{user}"')
        version = admin.execute("SHOW server_version").fetchone()[0]
    return version, migrated


def drop_database(database_url: str, admin_url: str) -> None:
    import psycopg

    name = urlparse(database_url).path.lstrip("/")
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def keep_as_template(database_url: str, admin_url: str) -> None:
    """Copy the freshly migrated (and still empty) database as the template for the next runs.
    Django's connections to it must be closed first."""
    import psycopg

    name = urlparse(database_url).path.lstrip("/")
    with psycopg.connect(admin_url, autocommit=True) as admin:
        try:
            admin.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}"')
            admin.execute(f'CREATE DATABASE "{TEMPLATE}" TEMPLATE "{name}"')
            admin.execute(f"COMMENT ON DATABASE \"{TEMPLATE}\" IS '{migrations_digest()}'")
        except psycopg.Error:
            pass  # another run is making it or using it: the next run makes it


def collect_static(static_root: Path) -> None:
    """``collectstatic`` into ``static_root`` unless it already holds this tree's files (the
    production storage hashes and compresses every file, which takes seconds)."""
    import django
    from django.core.management import call_command

    digest = hashlib.sha256(django.get_version().encode())
    for path in sorted((ROOT / "static").rglob("*")):
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path.relative_to(ROOT)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    stamp = static_root / ".bench-digest"
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(digest.hexdigest())

"""A real Celery worker process, on whichever broker the settings name (the file-system
transport by default, Redis in CI), runs a task against the test database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from organizations.tasks import verify_audit_chain

ROOT = Path(__file__).resolve().parent.parent


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def worker_process(transactional_db: None) -> Iterator[subprocess.Popen]:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "BEANO_DATA_DIR": str(settings.DATA_DIR),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "beano",
            "worker",
            "--pool=solo",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
            "--loglevel=WARNING",
            f"--hostname=test-{os.getpid()}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.mark.worker
def test_a_real_worker_checks_an_audit_chain(worker_process, tenant, member):
    result = verify_audit_chain.delay(tenant.organization.pk)
    deadline = time.monotonic() + 60
    while not result.ready() and time.monotonic() < deadline:
        if worker_process.poll() is not None:
            pytest.fail(f"the worker died: {worker_process.stdout.read()}")
        time.sleep(0.25)
    assert result.ready(), "the worker did not finish the task within a minute"
    value = result.get(timeout=1)
    assert value["ok"] is True
    assert value["intact_through"] == 5  # four roles assigned and one member added
    assert value["message"] == "Intact through event 5."

"""A real Celery worker process, on whichever broker the settings name (the file-system
transport by default, Redis in CI), runs a task against the test database."""

from __future__ import annotations

import time

import pytest

from organizations.tasks import verify_audit_chain


@pytest.mark.worker
def test_a_real_worker_checks_an_audit_chain(worker_process, tenant, member):
    result = verify_audit_chain.delay(tenant.organization.pk)
    deadline = time.monotonic() + 60
    while not result.ready() and time.monotonic() < deadline:
        if worker_process.poll() is not None:
            pytest.fail(f"the worker died: {worker_process.log()}")
        time.sleep(0.25)
    assert result.ready(), "the worker did not finish the task within a minute"
    value = result.get(timeout=1)
    assert value["ok"] is True
    assert value["intact_through"] == 5  # four roles assigned and one member added
    assert value["message"] == "Intact through event 5."

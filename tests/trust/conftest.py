"""Helpers of the trust tests: start calls together on real threads, each with its own database
connection, and gather what each one got."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection

#: How long a thread may take before the test calls it stuck (a deadlock, a lock never freed).
STUCK_AFTER = 120


@dataclass
class Outcome:
    value: Any = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def together(*calls: Callable[[], Any]) -> list[Outcome]:
    """Run each call on its own thread, all released at the same moment by a barrier; every
    thread closes its own database connection at the end. Returns each call's outcome, in order.
    A thread still running after ``STUCK_AFTER`` seconds fails the test."""
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=30)
            outcomes[index].value = call()
        except BaseException as error:  # every outcome is the test's to judge
            outcomes[index].error = error
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(i, call), name=f"trust-{i}", daemon=True)
        for i, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=STUCK_AFTER)
    stuck = [t.name for t in threads if t.is_alive()]
    assert not stuck, f"threads still running after {STUCK_AFTER}s (a deadlock?): {stuck}"
    return outcomes


def errors(outcomes: list[Outcome]) -> list[str]:
    return [f"{type(o.error).__name__}: {o.error}" for o in outcomes if o.error is not None]

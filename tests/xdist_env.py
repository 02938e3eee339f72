"""Keeps pytest-xdist's workers apart (``make test`` runs the suite on two): each worker gets a
data folder of its own (its SQLite test database, media, file-system broker, audit key) and,
where the broker is Redis, a database of its own, so that one worker's Celery worker never
takes the other's tasks; and gives the files that share a costly module fixture to the same
worker (``SAME_WORKER``). A plugin (``-p tests.xdist_env``), not a conftest: the settings read
the environment when pytest-django sets Django up, before any conftest is loaded."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

_WORKER = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, ... (unset without -n)

if _WORKER:
    _number = int(_WORKER.removeprefix("gw"))
    _root = Path(__file__).resolve().parent.parent
    _data = Path(os.environ.get("BEANO_DATA_DIR") or _root / "var" / "test")
    os.environ["BEANO_DATA_DIR"] = str(_data / _WORKER)
    for _name in ("CELERY_BROKER_URL", "REDIS_URL"):
        _url = os.environ.get(_name, "")
        _match = re.fullmatch(r"(rediss?://[^/]*)/(\d+)", _url)
        if _match:  # the given database for the first worker, the ones below it for the others
            os.environ[_name] = f"{_match[1]}/{(int(_match[2]) - _number) % 16}"


#: Files given to the same worker as one: the walks of the seeded demo share its copy and
#: the walk of every page (``tests/site_walk.py``, kept per process), made once instead of once
#: per worker that draws one of them.
SAME_WORKER = {
    "tests/test_url_walk.py": "tests/site_walk.py",
    "tests/test_reads_write_nothing.py": "tests/site_walk.py",
    "tests/test_fuzz_forms.py": "tests/site_walk.py",
    "tests/test_access_matrix.py": "tests/site_walk.py",  # the same seeded demo and PDF
}


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` with the files of ``SAME_WORKER`` as one file; any other
    distribution as pytest-xdist makes it."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return SAME_WORKER.get(scope, scope)

    return SharedFiles(config, log)

"""Keeps pytest-xdist's workers apart (``make test`` runs the suite on two): each worker gets a
data folder of its own (its SQLite test database, media, file-system broker, audit key) and,
where the broker is Redis, a database of its own, so that one worker's Celery worker never
takes the other's tasks. A plugin (``-p tests.xdist_env``), not a conftest: the settings read
the environment when pytest-django sets Django up, before any conftest is loaded."""

from __future__ import annotations

import os
import re
from pathlib import Path

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

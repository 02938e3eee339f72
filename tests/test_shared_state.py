"""No state inside a web process: what one process counts or changes, every other sees. The
web server, the Celery worker and beat are separate processes on the embedded default (their
cache is files in the data folder) and gunicorn's workers on several servers in production
(Redis): each test has a second process, started with the same settings, do one half."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.cache import cache

from beano.accounts import pins
from occasions import live

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    settings.CACHES["default"]["BACKEND"].endswith("LocMemCache"),
    reason="CACHE_URL=locmem:// keeps the cache inside each process, as it says",
)


def in_another_process(code: str) -> str:
    """Run ``code`` in a fresh Python with the same settings (environment and data folder)."""
    env = {**os.environ, "BEANO_DATA_DIR": str(settings.DATA_DIR)}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    script = "import django; django.setup()\n" + code
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "beano.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_cache_is_one_every_process_finds():
    """Redis where CACHE_URL names one; else (the embedded default) files in the data folder."""
    backend = settings.CACHES["default"]["BACKEND"]
    if settings.CACHE_URL.startswith(("redis://", "rediss://")):
        assert backend.endswith("RedisCache")
    else:
        assert backend.endswith("FileBasedCache")
        assert Path(settings.CACHES["default"]["LOCATION"]).is_relative_to(settings.DATA_DIR)


def test_wrong_pins_counted_by_another_process_pause_this_one():
    person = SimpleNamespace(pk=424242)
    assert not pins.paused(person)
    in_another_process(
        "from types import SimpleNamespace\n"
        "from beano.accounts import pins\n"
        "for _ in range(pins.MAX_TRIES):\n"
        "    pins.count_wrong_try(SimpleNamespace(pk=424242))\n"
    )
    assert pins.paused(person)
    cache.delete(pins._pause_key(person))
    assert not pins.paused(person)


def test_a_change_recorded_by_another_process_moves_this_ones_live_version():
    """A flashboard answered by one process after another recorded a ball is not stale."""
    before = live.version(987654)
    assert before is not None and live.version(987654) == before  # kept, not started again
    seen = in_another_process(
        "from occasions import live\nprint(live.version(987654))\nlive._bump(987654)\n"
    )
    assert int(seen) == before
    assert live.version(987654) == before + 1

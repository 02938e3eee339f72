"""The production entry point (gunicorn's ``beano.wsgi:application``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wsgi_entry_point_puts_what_it_loaded_out_of_the_collectors_reach():
    probe = "import gc, beano.wsgi; print(gc.get_freeze_count(), callable(beano.wsgi.application))"
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "beano.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert int(out[0]) > 10_000 and out[1] == "True"

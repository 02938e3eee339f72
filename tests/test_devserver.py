"""`make run`'s process (beano.devserver): Ctrl-C stops the web server, the Celery worker and
beat, says so and exits 0, so make does not report "Error 1" for a stop that was asked for."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_ctrl_c_stops_everything_cleanly_and_exits_zero(tmp_path: Path) -> None:
    port = _free_port()
    env = {
        **os.environ,
        "BEANO_DATA_DIR": str(tmp_path),
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"):
        env.pop(name, None)  # the embedded default, as `make run` has it
    process = subprocess.Popen(
        [sys.executable, "-m", "beano.devserver", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job is
    )
    try:
        deadline = time.monotonic() + 60
        while not _answers(port):
            assert process.poll() is None, process.communicate()[0]
            assert time.monotonic() < deadline, "the web server never answered"
            time.sleep(0.3)
        time.sleep(1)  # the banner is printed three seconds after the start
        os.killpg(process.pid, signal.SIGINT)  # what a terminal does on Ctrl-C
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 0, output
    assert "stopped on its own" not in output
    assert "Stopped: the web server, the Celery worker and beat." in output
    assert "No hostname was supplied" not in output

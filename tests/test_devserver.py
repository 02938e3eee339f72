"""`make run` (beano/devserver.py) starts a real `celery beat` beside the worker on the embedded
default's file-system broker: beat's periodic task reaches the worker and runs, and stopping the
devserver stops all three processes; Ctrl-C stops them cleanly, says so and exits 0, so make does
not report "Error 1" for a stop that was asked for."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.celery_worker import _database_url

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_make_run_starts_beat_beside_the_worker_and_stops_them_all(tmp_path: Path) -> None:
    log = tmp_path / "devserver.log"
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "BEANO_DATA_DIR": str(tmp_path / "data"),  # its own broker folders and schedule file
        "CELERY_BROKER_URL": "filesystem://",
        "REPORT_RESEND_SECONDS": "5",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("REDIS_URL", None)
    with log.open("w") as out:
        devserver = subprocess.Popen(
            [sys.executable, "-m", "beano.devserver", str(_free_port())],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        ran = re.compile(r"Task reports\.resend_unsent\[[\w-]+\] succeeded")
        deadline = time.monotonic() + 120
        while not ran.search(log.read_text()):
            assert devserver.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(1)
        text = log.read_text()
        assert "beat: Starting..." in text
        assert "Sending due task report-resend-unsent (reports.resend_unsent)" in text
        assert (tmp_path / "data" / "celerybeat-schedule").exists() or any(
            (tmp_path / "data").glob("celerybeat-schedule*")
        )
    finally:
        devserver.send_signal(signal.SIGTERM)
        try:
            devserver.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(devserver.pid, signal.SIGKILL)
            devserver.wait()
    deadline = time.monotonic() + 20
    while _group_alive(devserver.pid) and time.monotonic() < deadline:
        time.sleep(0.5)
    outlived = _group_alive(devserver.pid)
    if outlived:
        os.killpg(devserver.pid, signal.SIGKILL)  # nothing of the test's left behind
    assert not outlived, "a process of make run outlived it"
    assert "Stopping the web server, the Celery worker and beat" in log.read_text()


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

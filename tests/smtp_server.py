"""A real SMTP server for the tests of e-mail: aiosmtpd in a process of its own, keeping what it
receives in a Maildir (the invitation's and the reminder's tests point Django's SMTP backend at
it)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp_server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """(port, maildir) of a running aiosmtpd, stopped after the test."""
    port = _free_port()
    maildir = tmp_path / "maildir"
    command = [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{port}"]
    process = subprocess.Popen(
        [*command, "-c", "aiosmtpd.handlers.Mailbox", str(maildir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"aiosmtpd did not start: {process.stderr.read()!r}") from None
            time.sleep(0.1)
    try:
        yield port, maildir
    finally:
        process.terminate()
        process.wait(timeout=10)

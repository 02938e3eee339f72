"""`make run`: the web server, a real Celery worker and a real `celery beat` together, stopped
together on Ctrl-C (or SIGTERM). Beat sends the periodic work (``CELERY_BEAT_SCHEDULE`` in
beano/settings.py: the nightly audit checkpoint and report obligations, the resending of reports
filed while the broker was down) through the same file-system broker the worker reads, so the
embedded default runs it as production does (docs/DEPLOY.md: Production).

Run as ``python -m beano.devserver [PORT]`` after migrate and seed_demo."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

PORT = os.environ.get("PORT", "8000")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _children(python: str, port: str) -> list[subprocess.Popen]:
    worker = [python, "-m", "celery", "-A", "beano", "worker", "--loglevel=INFO"]
    worker += ["--concurrency=1", "--hostname=beano-dev@%h"]
    # Beat's schedule file is CELERY_BEAT_SCHEDULE_FILENAME, under the data folder.
    beat = [python, "-m", "celery", "-A", "beano", "beat", "--loglevel=INFO"]
    web = [python, "manage.py", "runserver", f"127.0.0.1:{port}"]
    return [subprocess.Popen(command) for command in (web, worker, beat)]


def _banner(python: str, port: str) -> None:
    manage = f"{os.path.relpath(python)} manage.py"
    print(
        f"\n  Beano occasions is running at http://127.0.0.1:{port}/  (Ctrl-C stops it)\n"
        "  Log in as post171-mic (member in charge), post171-books (bookkeeper) or inspector;\n"
        "  the password for every demo login is Beano-Demo-2026 (all logins are listed above).\n"
        "  post171-mic's dashboard has today's practice occasion, open now whatever the hour:\n"
        "  try the door, the caller's console, claims and the flashboard (never reported).\n"
        "  inspector, inspector-south and commission-admin then ask for a two-factor code:\n"
        f"  in another terminal, {manage} totp_code inspector  prints it.\n",
        flush=True,
    )


def _stop(children: list[subprocess.Popen]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut this short
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 15
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def main() -> int:
    port = sys.argv[1] if len(sys.argv) > 1 else PORT
    # Stopped as by Ctrl-C however it is asked to stop: a terminal's Ctrl-C, a process
    # manager's SIGTERM, or SIGINT sent to this process alone (started in the background, a
    # shell leaves SIGINT ignored).
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    python = sys.executable
    children = _children(python, port)
    code = 0
    try:
        time.sleep(3)  # let the banners print first, so the address is the last thing on screen
        _banner(python, port)
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        # Ctrl-C reaches the children too (one process group): one of them may end before this
        # process sees its own KeyboardInterrupt. Give that a moment before calling it a crash.
        time.sleep(0.5)
        code = next(child.returncode for child in children if child.poll() is not None) or 1
        print("\nA process stopped on its own; stopping the others.", file=sys.stderr)
    except KeyboardInterrupt:
        code = 0
        print("\nStopping the web server, the Celery worker and beat…", flush=True)
    finally:
        _stop(children)
    if code == 0:
        print("Stopped: the web server, the Celery worker and beat.", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())

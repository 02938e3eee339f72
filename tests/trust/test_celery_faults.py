"""Celery faults: a worker killed in the middle of making a report, and the broker down or hung.
The workers are real processes on whichever broker the run uses (kombu's file-system transport
by default, Redis in CI); the hang that lets a test kill one mid-report is injected by the test's
own launcher (tests/trust/slow_worker.py), not by the application."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse
from django_celery_results.models import TaskResult

from beano import broker
from beano.celery import app as celery_app
from reports import services
from reports.models import FinancialReport, RenderStatus
from reports.tasks import NOT_SENT, resend_unsent
from tests.conftest import login
from tests.fixtures.celery_worker import _database_url

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
ON_REDIS = settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
#: Seconds a worker test waits for a step (a worker's start, a PDF) before failing.
PATIENCE = 120
#: The most a request may take with the broker down or hung: both timeouts of one try, a quick
#: retry, and slack for a loaded CI machine.
BOUNDED = settings.CELERY_BROKER_CONNECTION_TIMEOUT + broker.SOCKET_TIMEOUT + 5


# --- Workers ---------------------------------------------------------------------------------


def _clear_broker() -> None:
    """Nothing left from earlier tests: no waiting message and (Redis) none unacknowledged."""
    celery_app.control.purge()
    if ON_REDIS:
        import redis

        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(
            "unacked", "unacked_index", "unacked_mutex"
        )


class Workers:
    """Real workers started by a test (prefork, one pool process, as `make run` starts it), each
    in its own process group so the whole worker can be killed at once."""

    def __init__(self, tmp_path: Path, media: Path) -> None:
        self.tmp_path = tmp_path
        self.mark = tmp_path / "hang.pid"
        self.processes: list[tuple[subprocess.Popen, Path]] = []
        self.env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "BEANO_DATA_DIR": str(settings.DATA_DIR),
            "MEDIA_ROOT": str(media),
            "TRUST_HANG_MARK": str(self.mark),
        }

    def start(self, *, ready: bool = True, **env: str) -> subprocess.Popen:
        """Start a worker and (unless ``ready`` is False) wait until it consumes."""
        n = len(self.processes) + 1
        log = self.tmp_path / f"worker-{n}.log"
        with log.open("w") as out:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.trust.slow_worker",
                    "--pool=prefork",
                    "--concurrency=1",
                    "--without-heartbeat",
                    "--without-mingle",
                    "--without-gossip",
                    "--loglevel=INFO",
                    f"--hostname=trust-{n}-{os.getpid()}@%h",
                ],
                cwd=ROOT,
                env={**self.env, **env},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append((process, log))
        if ready:
            self.wait_for(lambda: " ready." in log.read_text(), "the worker ready", process)
        return process

    def logs(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text()[-3000:]}" for _, log in self.processes)

    def wait_for(self, condition: Callable[[], Any], what: str, alive: Any = None) -> Any:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            value = condition()
            if value:
                return value
            if alive is not None and alive.poll() is not None:
                pytest.fail(f"the worker died before {what}:\n{self.logs()}")
            time.sleep(0.2)
        pytest.fail(f"no {what} within {PATIENCE}s:\n{self.logs()}")

    def hung_pid(self, alive: subprocess.Popen) -> int:
        """The process id of the run that reached the hang."""

        def read() -> int:
            try:
                return int(self.mark.read_text() or 0)
            except (FileNotFoundError, ValueError):
                return 0

        return self.wait_for(read, "render reaching the hang", alive)

    def stop(self) -> None:
        """Each worker and its pool killed at once, when the test is done: a warm shutdown
        waits for the task at hand (a hung one to its time limit), seconds the suite need not
        spend. The next test empties the broker first."""
        for process, _ in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture
def workers(transactional_db: None, tmp_path: Path, settings: Any) -> Iterator[Workers]:
    media = tmp_path / "media"
    settings.MEDIA_ROOT = media  # this process reads the files the workers write
    _clear_broker()
    started = Workers(tmp_path, media)
    yield started
    started.stop()


def pdf_files(report: FinancialReport) -> list[str]:
    """Every file made for the version, whatever its name ends with."""
    folder = Path(settings.MEDIA_ROOT) / f"reports/org-{report.organization_id}"
    stem = f"occasion-{report.occasion_id}-v{report.version}"
    return sorted(p.name for p in folder.glob(f"{stem}*")) if folder.exists() else []


def made_once(report: FinancialReport) -> None:
    """Ready, one file, and the file is the one the version records."""
    from reports import pdf

    report.refresh_from_db()
    assert report.render_status == RenderStatus.READY, report.render_error
    assert pdf_files(report) == [Path(report.pdf.name).name]
    with report.pdf.open("rb") as handle:
        data = handle.read()
    assert data.startswith(b"%PDF-") and pdf.sha256(data) == report.pdf_sha256
    # The task's result is stored just after the version is marked ready.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        result = TaskResult.objects.filter(task_id=report.render_task_id).first()
        if result is not None and result.status == "SUCCESS":
            break
        time.sleep(0.2)
    assert result is not None and result.status == "SUCCESS", result and result.result


def is_ready(report: FinancialReport) -> bool:
    report.refresh_from_db()
    return report.render_status == RenderStatus.READY


# --- (a) A worker killed in the middle of making a report ------------------------------------


@pytest.mark.worker
@pytest.mark.parametrize("hang_at", ["render", "saved"])
def test_a_pool_process_killed_mid_report_is_made_again_once(workers, tenant, counted, hang_at):
    """The pool process dies (the OOM killer, a crash in WeasyPrint): acks_late kept the message
    unacknowledged and reject_on_worker_lost hands it back, so the same worker's new pool
    process makes the report. Killed after writing the file but before recording it, the file
    it left is replaced, not doubled."""
    worker = workers.start(TRUST_HANG_AT=hang_at)
    report = services.file_report(occasion=counted, by=tenant.bookkeeper)
    pid = workers.hung_pid(worker)
    assert pid != worker.pid  # a pool process, not the worker itself
    report.refresh_from_db()
    assert report.render_status == RenderStatus.RENDERING and report.render_task_id
    task_id = report.render_task_id
    assert len(pdf_files(report)) == (1 if hang_at == "saved" else 0)

    os.kill(pid, signal.SIGKILL)

    workers.wait_for(lambda: is_ready(report), "report made again", worker)
    made_once(report)
    assert report.render_task_id == task_id  # the same message, redelivered
    assert worker.poll() is None  # the worker lived on, with a new pool process


@pytest.mark.worker
def test_a_worker_killed_mid_report_leaves_it_to_the_next_worker(workers, tenant, counted):
    """The whole worker dies (kill -9, the machine): nothing is left to hand the message back.
    On Redis it stays unacknowledged and the next worker restores it after the visibility
    timeout (5 s here). kombu's file-system transport took it off its folder when the worker
    fetched it: it is gone, and the next worker, on starting, sends unmade reports again."""
    short = {"CELERY_BROKER_VISIBILITY_TIMEOUT": "5"} if ON_REDIS else {}
    first = workers.start(TRUST_HANG_AT="render", **short)
    report = services.file_report(occasion=counted, by=tenant.bookkeeper)
    workers.hung_pid(first)
    report.refresh_from_db()
    task_id = report.render_task_id

    os.killpg(first.pid, signal.SIGKILL)
    first.wait(timeout=20)
    report.refresh_from_db()
    assert report.render_status == RenderStatus.RENDERING  # left half made

    second = workers.start(**short)
    workers.wait_for(lambda: is_ready(report), "report made by the next worker", second)
    made_once(report)
    if ON_REDIS:
        assert report.render_task_id == task_id  # the same message, restored
    else:
        assert report.render_task_id != task_id  # the message was lost; sent again at start


@pytest.mark.worker
def test_a_report_sent_twice_at_once_is_made_once(workers, tenant, counted):
    """Two workers get the same version at the same moment (a message handed out again while
    its first worker still works, or sent again by requeue_reports --stuck): both make the PDF,
    the first to publish it writes the file, the other finds it made. One file."""
    from reports.tasks import render_document

    workers.start()
    workers.start()
    report = services.file_report(occasion=counted, by=tenant.bookkeeper)
    again = render_document.apply_async(args=["financial", report.pk])

    workers.wait_for(lambda: is_ready(report), "report made")
    made_once(report)
    workers.wait_for(
        lambda: TaskResult.objects.filter(task_id=again.id, status="SUCCESS").exists(),
        "the second run done",
    )
    assert pdf_files(report) == [Path(report.pdf.name).name]


# --- (b) The broker down or hung ------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def broker_at(url: str) -> Iterator[None]:
    """Point this process's Celery app (what the web requests send with) at ``url``, with the
    transport options the settings would give it, then back. Celery reads the environment's
    CELERY_BROKER_URL before its configuration, so that is pointed too."""
    saved = (celery_app.conf.broker_url, celery_app.conf.broker_transport_options)
    saved_env = os.environ.get("CELERY_BROKER_URL")

    def point(to: str, options: dict[str, Any]) -> None:
        if "CELERY_BROKER_URL" in os.environ or saved_env is not None:
            os.environ["CELERY_BROKER_URL"] = to
        celery_app.conf.broker_url = to
        celery_app.conf.broker_transport_options = options
        celery_app._pool = None
        celery_app.amqp._producer_pool = None
        assert celery_app.conf.broker_url == to

    point(
        url,
        broker.transport_options(
            url,
            broker_dir=settings.BROKER_DIR,
            connect_timeout=settings.CELERY_BROKER_CONNECTION_TIMEOUT,
        ),
    )
    try:
        yield
    finally:
        point(*saved)


@contextmanager
def broker_down() -> Iterator[None]:
    """Redis at a port nobody listens on: every connection is refused."""
    with broker_at(f"redis://127.0.0.1:{free_port()}/0"):
        yield


@contextmanager
def broker_hung() -> Iterator[None]:
    """Redis at a port that accepts connections and never answers (a hung server, a full
    network buffer): without a socket timeout a request would wait for ever."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)
        with broker_at(f"redis://127.0.0.1:{silent.getsockname()[1]}/0"):
            yield


def timed(call: Callable[[], Any]) -> tuple[Any, float]:
    start = time.monotonic()
    value = call()
    return value, time.monotonic() - start


@pytest.fixture
def bookkeeper(client: Any, tenant: Any) -> Any:
    login(client, tenant.bookkeeper)
    return client


def pages(tenant: Any, occasion: Any, report: FinancialReport | None) -> list[str]:
    org = tenant.organization.pk
    urls = [
        reverse("dashboard"),
        reverse("organization_home", args=[org]),
        reverse("reports_home", args=[org]),
        reverse("occasion_detail", args=[org, occasion.pk]),
        reverse("report_closeout", args=[org, occasion.pk]),
        reverse("report_versions", args=[org, occasion.pk]),
        reverse("audit_log", args=[org]),
    ]
    if report is not None:
        urls.append(reverse("report_status", args=[org, report.pk]))
    return urls


@pytest.mark.worker
def test_with_the_broker_down_pages_work_filing_queues_and_beat_sends_it_later(
    workers, bookkeeper, tenant, counted
):
    worker = workers.start()  # on the real broker, waiting
    org = tenant.organization.pk
    with broker_down():
        for url in pages(tenant, counted, None):
            response, took = timed(lambda u=url: bookkeeper.get(u))
            assert response.status_code == 200, url
            assert took < BOUNDED, (url, took)
        response, took = timed(
            lambda: bookkeeper.post(
                reverse("report_file", args=[org, counted.pk]), {"confirmed": "yes"}
            )
        )
        assert response.status_code == 302 and took < BOUNDED, took  # filed
        report = FinancialReport.objects.get()
        assert report.version == 1 and report.render_status == RenderStatus.QUEUED
        assert report.render_task_id == "" and report.render_error == NOT_SENT
        for url in pages(tenant, counted, report):
            response, took = timed(lambda u=url: bookkeeper.get(u))
            assert response.status_code == 200, url
            assert took < BOUNDED, (url, took)
        status = bookkeeper.get(reverse("report_status", args=[org, report.pk])).content.decode()
        assert f"Queued — {NOT_SENT}" in status and 'hx-trigger="every 2s"' in status
        report.refresh_from_db()
        assert report.render_task_id == ""  # still waiting, still polled

    status = bookkeeper.get(reverse("report_status", args=[org, report.pk]))
    assert status.status_code == 200
    report.refresh_from_db()
    assert report.render_task_id == ""  # the poll reads, never sends
    assert resend_unsent.apply().get() == {"sent": 1, "not_sent": 0}  # beat's run
    report.refresh_from_db()
    assert report.render_task_id and report.render_error == ""
    workers.wait_for(lambda: is_ready(report), "report made once the broker is back", worker)
    made_once(report)


def test_with_the_broker_hung_filing_returns_within_the_timeouts(bookkeeper, tenant, counted):
    org = tenant.organization.pk
    with broker_hung():
        response, took = timed(
            lambda: bookkeeper.post(
                reverse("report_file", args=[org, counted.pk]), {"confirmed": "yes"}
            )
        )
        assert response.status_code == 302
        assert took < BOUNDED, f"filing waited {took:.1f}s on a hung broker"
        report = FinancialReport.objects.get()
        assert report.render_status == RenderStatus.QUEUED and report.render_task_id == ""
        # The status page polls every two seconds and never tries the broker itself.
        for _ in range(3):
            _, took = timed(lambda: bookkeeper.get(reverse("report_status", args=[org, report.pk])))
            assert took < 1, f"a poll waited {took:.1f}s on a hung broker"
        # Beat's run tries it, within the timeouts, and leaves it queued for the next run.
        sent, took = timed(lambda: resend_unsent.apply().get())
        assert sent == {"sent": 0, "not_sent": 1} and took < BOUNDED
        report.refresh_from_db()
        assert report.render_status == RenderStatus.QUEUED and report.render_task_id == ""


def test_requeue_reports_sends_what_the_broker_missed(tenant, counted, annual_report):
    from reports.models import AnnualReport

    annual_report.render_status = RenderStatus.QUEUED
    annual_report.render_task_id = ""
    annual_report.save()
    with broker_down():
        report = services.file_report(occasion=counted, by=tenant.bookkeeper)
        with pytest.raises(CommandError, match="2 version\\(s\\) could not be sent"):
            _call("requeue_reports")
    report.refresh_from_db()
    assert report.render_task_id == "" and report.render_error == NOT_SENT

    out = _call("requeue_reports")

    assert "Sent 2 report version(s)" in out
    report.refresh_from_db()
    annual_report = AnnualReport.objects.get(pk=annual_report.pk)
    assert report.render_task_id and annual_report.render_task_id
    assert report.render_error == ""
    assert "Sent 0" in _call("requeue_reports")  # nothing left to send


def test_requeue_reports_stuck_sends_versions_a_lost_worker_left(tenant, counted):
    report = services.file_report(occasion=counted, by=tenant.bookkeeper)
    report.refresh_from_db()
    FinancialReport.objects.filter(pk=report.pk).update(render_status=RenderStatus.RENDERING)
    lost = report.render_task_id
    assert "Sent 0" in _call("requeue_reports")  # it has a task id: not unsent
    assert f"FinancialReport {report.pk} (rendering, task {lost})" in _call(
        "requeue_reports", "--stuck", "--dry-run"
    )

    assert "Sent 1" in _call("requeue_reports", "--stuck")

    report.refresh_from_db()
    assert report.render_status == RenderStatus.QUEUED and report.render_task_id != lost


def test_a_remake_asked_while_the_broker_is_down_is_sent_when_it_is_back(
    bookkeeper, tenant, counted
):
    org = tenant.organization.pk
    report = services.file_report(occasion=counted, by=tenant.bookkeeper)
    FinancialReport.objects.filter(pk=report.pk).update(
        render_status=RenderStatus.FAILED, render_error="OSError: disk full"
    )
    with broker_down():
        response = bookkeeper.post(reverse("report_rerender", args=[org, report.pk]))
        assert response.status_code in (200, 302)
    report.refresh_from_db()
    # The earlier task's id is gone: beat knows this version was never sent.
    assert report.render_status == RenderStatus.QUEUED and report.render_task_id == ""

    bookkeeper.get(reverse("report_status", args=[org, report.pk]))
    report.refresh_from_db()
    assert report.render_task_id == ""  # the poll reads, never sends
    resend_unsent.apply().get()  # beat's run, the broker back

    report.refresh_from_db()
    assert report.render_task_id and report.render_error == ""


def _call(*args: str) -> str:
    import io

    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()

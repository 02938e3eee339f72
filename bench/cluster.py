"""Two application servers behind a load balancer, as production scales out: two gunicorn servers
on two ports behind HAProxy (the Debian package ``haproxy``), sharing PostgreSQL and Redis, and
two Celery workers. The load test (bench/load.py) drives the night through HAProxy, so each
hall's requests land on both servers in turn; then it checks that the servers behaved as one:

- **no session lost**: every session the night used still opens its pages on each server
  directly, and both servers answered a share of the night (HAProxy's own counts);
- **no report made twice**: bookkeepers file reports through HAProxy while each render is also
  sent a second time (as a message handed out again, or beat's resend, would), so the two
  workers race for the same versions; each version must end with one PDF file, made once.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def _get(url: str, headers: dict[str, str] | None = None, timeout: float = 10) -> tuple[int, str]:
    """Status and Location of a GET, redirects not followed."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https", **(headers or {})})
    try:
        with opener.open(request, timeout=timeout) as response:
            response.read()
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")
    except OSError:  # not listening yet, or gone
        return 0, ""


def _start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, stopped as a whole
    )


def _stop(process: subprocess.Popen, sig: int = signal.SIGTERM, wait: float = 20) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


HAPROXY_CONFIG = """global
    maxconn 8192
defaults
    mode http
    option http-keep-alive
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-keep-alive 30s
frontend beano
    bind {host}:{port}
    default_backend app
frontend stats
    bind {host}:{stats_port}
    stats enable
    stats uri /stats
backend app
    balance roundrobin
    http-reuse safe
{servers}
"""


class Cluster:
    """HAProxy on ``port`` in front of two gunicorn servers and two Celery workers, all with the
    production environment ``env``; logs in ``logs``."""

    SERVERS = 2
    WORKERS = 2

    def __init__(self, args: Any, env: dict[str, str], logs: Path) -> None:
        self.args = args
        self.env = {**os.environ, **env}
        self.logs = logs
        self.port = args.port
        self.base = f"http://{HOST}:{args.port}"
        self.server_ports = [free_port() for _ in range(self.SERVERS)]
        self.stats_port = free_port()
        self.servers: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.haproxy: subprocess.Popen | None = None

    # -- the processes ---------------------------------------------------------------------

    def _gunicorn(self, n: int) -> subprocess.Popen:
        a = self.args
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "beano.wsgi:application",
            f"--bind={HOST}:{self.server_ports[n]}",
            f"--workers={a.workers}",
            "--worker-class=gthread",
            f"--threads={a.threads}",
            "--keep-alive=30",
            "--backlog=4096",
            "--log-level=warning",
            "--preload",
        ]
        return _start(command, self.env, self.logs / f"gunicorn-{n + 1}.log")

    def _wait_for_servers(self) -> None:
        deadline = time.time() + 90
        for n, port in enumerate(self.server_ports):
            while _get(f"http://{HOST}:{port}/bench/constant/", timeout=2)[0] != 200:
                if self.servers[n].poll() is not None or time.time() > deadline:
                    raise SystemExit(f"gunicorn {n + 1} did not start; see {self.logs}")
                time.sleep(0.2)

    def _start_haproxy(self) -> None:
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not Path(binary).exists():
            raise SystemExit("HAProxy is missing: apt-get install haproxy (bench/README.md)")
        servers = "\n".join(
            f"    server app{n + 1} {HOST}:{port} maxconn 256"
            for n, port in enumerate(self.server_ports)
        )
        config = self.logs / "haproxy.cfg"
        config.write_text(
            HAPROXY_CONFIG.format(
                host=HOST, port=self.port, stats_port=self.stats_port, servers=servers
            )
        )
        self.haproxy = _start(
            [binary, "-db", "-f", str(config)], self.env, self.logs / "haproxy.log"
        )
        deadline = time.time() + 20
        while _get(self.base + "/bench/constant/", timeout=2)[0] != 200:
            if self.haproxy.poll() is not None or time.time() > deadline:
                raise SystemExit(f"HAProxy did not start; see {self.logs / 'haproxy.log'}")
            time.sleep(0.2)

    def start_workers(self) -> None:
        for n in range(self.WORKERS):
            command = [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "beano",
                "worker",
                "--loglevel=WARNING",
                "--concurrency=1",
                f"--hostname=bench-{n + 1}-{os.getpid()}@%h",
                "--without-gossip",
                "--without-mingle",
            ]
            self.workers.append(_start(command, self.env, self.logs / f"worker-{n + 1}.log"))

    def __enter__(self) -> Cluster:
        try:
            self.servers = [self._gunicorn(n) for n in range(self.SERVERS)]
            self._wait_for_servers()
            self._start_haproxy()
        except BaseException:
            self.__exit__()  # nothing left running when the start fails
            raise
        return self

    def restart(self) -> None:
        """Fresh servers (an overloaded night leaves requests queued); HAProxy stays."""
        for server in self.servers:
            _stop(server, signal.SIGQUIT, 15)
        self.servers = [self._gunicorn(n) for n in range(self.SERVERS)]
        self._wait_for_servers()

    def __exit__(self, *exc: object) -> None:
        for worker in self.workers:
            _stop(worker, signal.SIGTERM, 30)
        for server in self.servers:
            _stop(server, signal.SIGQUIT, 15)
        if self.haproxy is not None:
            _stop(self.haproxy, signal.SIGTERM, 10)

    # -- what HAProxy saw ------------------------------------------------------------------

    def answered(self) -> dict[str, int]:
        """Requests each server answered so far (HAProxy's ``stot``)."""
        url = f"http://{HOST}:{self.stats_port}/stats;csv"
        with urllib.request.urlopen(url, timeout=5) as response:
            rows = csv.DictReader(io.StringIO(response.read().decode().lstrip("# ")))
            return {
                r["svname"]: int(r["stot"] or 0)
                for r in rows
                if r["pxname"] == "app" and r["svname"] not in ("FRONTEND", "BACKEND")
            }

    # -- the checks --------------------------------------------------------------------------

    def sessions_kept(self, night: dict[str, Any]) -> dict[str, Any]:
        """Every session the night used opens a page of its own on each server directly: none
        was lost or signed out by one server after the other had used it."""
        pages = []
        for hall in night["halls"]:
            for who in ("seller", "caller", "mic", "books"):
                pages.append((hall["sessions"][who], f"/org/{hall['org']}/"))
        for inspector in night["inspectors"]:
            pages.append((inspector["session"], "/inspect/"))
        lost = []
        for session, path in pages:
            for port in self.server_ports:
                status, location = _get(
                    f"http://{HOST}:{port}{path}",
                    headers={"Host": f"{HOST}:{self.port}", "Cookie": f"sessionid={session}"},
                )
                # Lost: sent to sign in again (or to the second factor); a page the role may
                # not open (a worker's 403) still knows who asks.
                if status >= 500 or (status in (301, 302) and "/accounts/" in location):
                    lost.append(f"{path} on :{port}: {status} {location}")
        return {"sessions": len(pages), "checked_on_each_server": len(pages), "lost": lost}


def closed_nights(night: Any, k: int) -> list[tuple[int, int]]:
    """For the first ``k`` halls, last week's occasion: played, closed and counted, its report
    ready to file (organization id, occasion id). A few sales; enough for a report's PDF."""
    from django.contrib.auth import get_user_model

    from occasions import services as occasion_services
    from occasions.models import Occasion, PriceListItem, Sale, SaleLine
    from reports import services
    from reports.figures import compute_figures
    from reports.models import CloseOut

    users = get_user_model().objects
    out = []
    for hall in night.halls[:k]:
        head = users.get(username=f"hall{hall.org}-mic")
        books = users.get(username=f"hall{hall.org}-books")
        tonight = Occasion.objects.get(pk=hall.occasion)
        day = tonight.date - dt.timedelta(days=7)
        occasion = occasion_services.occasion_for_day(
            organization=tonight.organization, day=day, by=head
        )
        occasion_services.set_price_list(
            occasion=occasion,
            items=[
                {"category": "admission", "label": "Admission", "price": "2.00"},
                {"category": "extra_regular", "label": "Extra card", "price": "1.00"},
            ],
            by=head,
        )
        from django.utils import timezone

        at = timezone.make_aware(dt.datetime.combine(day, dt.time(19, 0)))
        Occasion.objects.filter(pk=occasion.pk).update(status="open", opened_at=at)
        items = {i.category: i for i in PriceListItem.objects.filter(occasion=occasion)}
        sales = Sale.objects.bulk_create(
            Sale(occasion=occasion, number=n + 1, sold_by=head, sold_at=at) for n in range(20)
        )
        SaleLine.objects.bulk_create(
            SaleLine(
                sale=s,
                price_item=items[category],
                category=category,
                quantity=1,
                unit_price=items[category].price,
                amount=items[category].price,
            )
            for s in sales
            for category in ("admission", "extra_regular")
        )
        Occasion.objects.filter(pk=occasion.pk).update(status="closed", closed_at=at)
        occasion.refresh_from_db()
        figures = compute_figures(occasion)
        services.save_closeout(
            occasion=occasion,
            opening_bank=Decimal("200.00"),
            cash_counted=None,
            counts={c["category"]: c["recorded"] for c in figures["counts"]},
            explanation="",
            by=books,
        )
        # The cash counted and verified by a second person, written as the stage the filing
        # starts from (like bench/halls.py's bulk rows): the count's own rule is not measured.
        CloseOut.objects.filter(occasion=occasion).update(
            cash_counted=figures["cash"]["expected"] + Decimal("200.00"),
            cash_counted_by=books,
            cash_verified_by=head,
            cash_verified_at=at,
        )
        out.append((hall.org, occasion.pk))
    return out


def file_through_the_balancer(
    base: str, host: str, night: dict[str, Any], closed: list[tuple[int, int]]
) -> list[str]:
    """Each hall's bookkeeper files last week's report through HAProxy, as the browser posts
    it; then every render is sent a second time. The errors (a filing not answered 302)."""
    from reports.models import FinancialReport
    from reports.tasks import render_document

    books = {h["org"]: (h["sessions"]["books"], h["csrf"]) for h in night["halls"]}
    errors = []
    for org, occasion in closed:
        session, csrf = books[org]
        request = urllib.request.Request(
            f"{base}/org/{org}/occasions/{occasion}/report/file/",
            data=b"confirmed=yes",  # the POST its summary's button sends (occasions.confirm)
            method="POST",
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Host": host,
                "X-Forwarded-Proto": "https",
                "Cookie": f"sessionid={session}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "Origin": f"https://{host}",
                "Referer": f"https://{host}/org/{org}/occasions/{occasion}/closeout/",
            },
        )
        status, location = _send(request)
        if status != 302 or "/accounts/" in location:  # the login or the second factor's page
            errors.append(f"filing occasion {occasion}: {status} {location}")
    for report in FinancialReport.objects.filter(occasion_id__in=[o for _, o in closed]):
        render_document.apply_async(args=["financial", report.pk])  # the duplicate
    return errors


def _send(request: urllib.request.Request) -> tuple[int, str]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=60) as response:
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")


def reports_made_once(closed: list[tuple[int, int]], media: Path, wait: float) -> dict[str, Any]:
    """Wait for every filed version's PDF, then count: one version per occasion, one PDF file
    per version (a second publication would have left a second file beside it), and which
    workers made them (django-celery-results' rows)."""
    from django.db import connection
    from django_celery_results.models import TaskResult

    from reports.models import FinancialReport, RenderStatus

    occasions = [o for _, o in closed]
    deadline = time.time() + wait
    while True:
        connection.close()
        rows = list(FinancialReport.objects.filter(occasion_id__in=occasions))
        if len(rows) == len(occasions) and all(
            r.render_status in (RenderStatus.READY, RenderStatus.FAILED) for r in rows
        ):
            break
        if time.time() > deadline:
            break
        time.sleep(1)
    problems = []
    versions = {}
    for r in rows:
        versions.setdefault(r.occasion_id, []).append(r.version)
        if r.render_status != RenderStatus.READY:
            problems.append(f"report {r.pk}: {r.render_status} {r.render_error}")
            continue
        stem = f"occasion-{r.occasion_id}-v{r.version}"
        files = list((media / "reports" / f"org-{r.organization_id}").glob(f"{stem}*.pdf"))
        if len(files) != 1:
            problems.append(
                f"report {r.pk}: {len(files)} PDF files {sorted(f.name for f in files)}"
            )
    for occasion in occasions:
        if versions.get(occasion) != [1]:
            problems.append(f"occasion {occasion}: versions {versions.get(occasion)}")
    tasks = TaskResult.objects.filter(task_name="reports.render_document")
    return {
        "occasions": len(occasions),
        "renders_sent": 2 * len(rows),
        "renders_run": tasks.count(),
        "workers": sorted({t.worker for t in tasks if t.worker}),
        "problems": problems,
    }

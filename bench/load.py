"""The load test: a statewide Friday night against two application servers with the production
settings, behind a load balancer, as production scales out.

It makes a fresh PostgreSQL database (from a migrated template, bench/pg.py), seeds the halls
playing tonight (bench/halls.py), times each kind of request alone in this process (server time
and queries: a hall's server cost per second of its night), then starts the cluster of
bench/cluster.py: two gunicorn servers on two ports (DEBUG off, PostgreSQL, the cache and the
broker on Redis, behind a TLS proxy as production runs, with bench/settings.py, which adds a bare
constant view) behind HAProxy, and two Celery workers. It drives HAProxy from client processes
(bench/loadclient.py, asyncio and aiohttp) in these phases:

1. ceiling: GET the constant view from ``--connections`` connections back to back;
2. polls: the flashboards polled alone, nothing changing, from the same connections;
3. capacity: the night's mix, in its proportions, from the same connections back to back;
   its throughput over the ceiling's is the ratio reported (the target is 0.25, 0.5 the goal);
4. night: every hall at its own pace (bench/loadclient.py's ``Pace``), for each count of halls
   asked (``--halls 50,1000``): requests per second, p50/p95/p99 and errors per kind, and
   whether p95 ≤ 100 ms with no errors (``halls held`` is the largest night that met it); then
   the same night with every request sent to the constant view (at most 20 s);
5. cluster: bookkeepers file reports through HAProxy while each render is sent twice, for the two
   workers to race on (no report may be made twice), and every session the night used must
   still open its pages on each server (none lost); both servers must have answered.

Errors are answers other than 200 (or a poll's 304), so also a redirect to the login or the
second factor's page, refusals where a success was expected (a ball or a sale the rules refused),
and failed connections or timeouts (30 s). Speed is reported, never asserted: the exit status is
0 unless the run itself could not be made, or the cluster's checks failed (a report made twice,
a session lost).

    python bench/load.py                 # the full run: writes bench/RESULTS.{json,md}
    python bench/load.py --quick         # a short run at small sizes, nothing written
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import secrets
import shutil
import socket
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import loadclient  # noqa: E402
from bench.cluster import (  # noqa: E402
    Cluster,
    closed_nights,
    file_through_the_balancer,
    reports_made_once,
)
from bench.pg import (  # noqa: E402
    collect_static,
    drop_database,
    fresh_database,
    keep_as_template,
)
from bench.results import machine, now, percentile  # noqa: E402

HOST = "127.0.0.1"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run, nothing written")
    parser.add_argument("--halls", default="", help="hall counts of the paced nights: 250,1000")
    parser.add_argument("--duration", type=float, default=0, help="seconds of each phase")
    parser.add_argument(
        "--warmup",
        type=float,
        default=None,
        help="seconds of a paced night sent, not counted, before it is measured (freshly "
        "started servers load their templates and open their connections); default 5, 10 full",
    )
    parser.add_argument("--connections", type=int, default=64, help="closed-loop connections")
    parser.add_argument("--clients", type=int, default=0, help="client processes (default: 2)")
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("BENCH_WORKERS", 2)),
        help="gunicorn workers of each of the two servers",
    )
    parser.add_argument("--threads", type=int, default=int(os.environ.get("BENCH_THREADS", 4)))
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("BENCH_PORT", 0)),
        help="HAProxy's port (the servers take free ones); 0: a free one",
    )
    parser.add_argument("--reports", type=int, default=0, help="reports filed in the cluster check")
    parser.add_argument(
        "--note", action="append", default=[], help="a sentence for RESULTS.md (repeatable)"
    )
    parser.add_argument(
        "--database-url",
        # A database of this run's own: two runs at once (another session's) must not share it.
        default=os.environ.get(
            "BENCH_DATABASE_URL", f"postgres://beano@127.0.0.1:5432/beano_bench_{os.getpid()}"
        ),
        help="the database to create afresh (its name must contain 'bench')",
    )
    parser.add_argument(
        "--admin-url",
        default=os.environ.get("BENCH_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL superuser's connection, to create the role and the database",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3"),
        help="a Redis database of its own (flushed at the start)",
    )
    parser.add_argument("--phases", default="", help="default: ceiling,polls,capacity,night")
    args = parser.parse_args(argv)
    if not args.halls:
        args.halls = "10,25" if args.quick else "50,100,250,500,1000"
    args.hall_counts = [int(n) for n in args.halls.split(",")]
    if not args.phases:  # the quick run leaves out the polls alone (its server time is shown)
        args.phases = (
            "ceiling,capacity,night,cluster"
            if args.quick
            else "ceiling,polls,capacity,night,cluster"
        )
    if not args.reports:
        args.reports = 4 if args.quick else 10
    if not args.port:  # a free port of this run's own, for the same reason
        with socket.socket() as probe:
            probe.bind((HOST, 0))
            args.port = probe.getsockname()[1]
    if not args.duration:
        args.duration = 3 if args.quick else 60
    if args.warmup is None:
        args.warmup = 5.0 if args.quick else 10.0
    if not args.clients:
        args.clients = 2
    if "bench" not in urlparse(args.database_url).path:
        parser.error("the bench database is dropped and made again: its name must say 'bench'")
    return args


def production_env(args: argparse.Namespace, data_dir: Path) -> dict[str, str]:
    """The environment production runs with (docs/DEPLOY.md: Configuration), on this machine."""
    return {
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DEBUG": "off",
        "SECRET_KEY": secrets.token_urlsafe(48),
        "AUDIT_KEY": secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": args.database_url,
        "DB_CONN_MAX_AGE": "60",
        "CACHE_URL": args.redis_url,
        "CELERY_BROKER_URL": args.redis_url,
        "BEHIND_TLS_PROXY": "on",  # the client sends X-Forwarded-Proto: https, as a proxy would
        "BEANO_DATA_DIR": str(data_dir),
        "STATIC_ROOT": str(ROOT / "var" / "bench" / "static"),  # kept: the next run copies less
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }


def flush_redis(url: str) -> str:
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    return client.info("server")["redis_version"]


def _specs(
    night: dict[str, Any],
    n: int,
    args: argparse.Namespace,
    mode: str,
    base: str,
    constant: bool = False,
) -> list[dict[str, Any]]:
    """The first ``n`` halls shared among the client processes, each inspector going with the
    halls they look after."""
    from bench.halls import HALLS_PER_INSPECTOR

    halls = night["halls"][:n]
    inspectors = night["inspectors"][: (n + HALLS_PER_INSPECTOR - 1) // HALLS_PER_INSPECTOR]
    k = max(1, min(args.clients, len(inspectors)))
    specs = []
    start_at = time.time() + 1.0
    for p in range(k):
        mine = [i for i in range(len(inspectors)) if i % k == p]
        indexes = [h for i in mine for h in inspectors[i]["halls"] if h < n]
        local = {h: j for j, h in enumerate(indexes)}
        specs.append(
            {
                "base": base,
                "host": f"{HOST}:{args.port}",
                "mode": mode,
                "constant": constant,
                "duration": args.duration,
                "warmup": args.warmup if mode == "paced" else 0.0,
                "concurrency": max(1, args.connections // k),
                "connections": max(1, args.connections // k) if mode != "paced" else 256,
                "halls": [halls[h] for h in indexes],
                "inspectors": [
                    {**inspectors[i], "halls": [local[h] for h in inspectors[i]["halls"] if h < n]}
                    for i in mine
                ],
                "start_at": start_at,
                "seed": p + 1,
            }
        )
    return specs


def settle(base: str, most: float = 60) -> None:
    """Wait until the server answers the constant view at once again: the requests a phase left
    queued (an overloaded night) are not counted in the next one."""
    request = urllib.request.Request(
        base + "/bench/constant/", headers={"X-Forwarded-Proto": "https"}
    )
    deadline = time.time() + most
    while time.time() < deadline:
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                response.read()
        except OSError:
            pass
        if time.perf_counter() - start < 0.05:
            return
        time.sleep(0.5)


def drive(specs: list[dict[str, Any]]) -> dict[str, Any]:
    """Run the client processes and merge what they measured."""
    settle(specs[0]["base"])
    context = multiprocessing.get_context("spawn")
    with context.Pool(len(specs)) as pool:
        outs = pool.map(loadclient.run, specs)
    elapsed = max(o["elapsed"] for o in outs)
    merged: dict[str, dict[str, Any]] = {}
    for out in outs:
        for kind, s in out["stats"].items():
            m = merged.setdefault(
                kind,
                {"times": [], "statuses": {}, "errors": 0, "samples": [], "not_modified": 0},
            )
            m["times"] += s["times"]
            m["errors"] += s["errors"]
            m["not_modified"] += s["not_modified"]
            m["late"] = m.get("late", 0) + s["late"]
            m["samples"] += s["samples"][: max(0, 5 - len(m["samples"]))]
            for status, count in s["statuses"].items():
                m["statuses"][status] = m["statuses"].get(status, 0) + count
    return {"elapsed": elapsed, "kinds": {k: summary(v, elapsed) for k, v in merged.items()}}


def summary(m: dict[str, Any], elapsed: float) -> dict[str, Any]:
    times = sorted(m["times"])
    return {
        "requests": len(times),
        "rps": round(len(times) / elapsed, 1),
        "p50_ms": round(percentile(times, 50), 1),
        "p95_ms": round(percentile(times, 95), 1),
        "p99_ms": round(percentile(times, 99), 1),
        "max_ms": round(times[-1], 1) if times else 0.0,
        "errors": m["errors"],
        "not_modified": m["not_modified"],
        "late": m.get("late", 0),
        "statuses": m["statuses"],
        "samples": m["samples"],
        "_times": times,
    }


def total(phase: dict[str, Any]) -> dict[str, Any]:
    times = sorted(t for k in phase["kinds"].values() for t in k["_times"])
    requests = len(times)
    return {
        "requests": requests,
        "rps": round(requests / phase["elapsed"], 1),
        "p50_ms": round(percentile(times, 50), 1),
        "p95_ms": round(percentile(times, 95), 1),
        "p99_ms": round(percentile(times, 99), 1),
        "errors": sum(k["errors"] for k in phase["kinds"].values()),
    }


def strip(phase: dict[str, Any]) -> dict[str, Any]:
    """Without the raw times (for RESULTS.json)."""
    return {
        **phase,
        "kinds": {
            k: {f: v for f, v in s.items() if f != "_times"} for k, s in phase["kinds"].items()
        },
    }


def line(label: str, figures: dict[str, Any], extra: str = "") -> str:
    return (
        f"{label:<44} {figures['rps']:>8.1f} req/s  p50 {figures['p50_ms']:>6.1f} ms  "
        f"p95 {figures['p95_ms']:>6.1f} ms  p99 {figures['p99_ms']:>6.1f} ms  "
        f"errors {figures['errors']}{extra}"
    )


def server_times(night: Any, runs: int) -> list[dict[str, Any]]:
    """Each kind of request in this process with Django's test client, on the same database and
    settings: the server's own time and queries, without HTTP or the other requests' company.
    Uses the last hall (its draw is read again before the phases that follow)."""
    import django_otp
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from beano.accounts.policy import confirmed_device, second_factor_required
    from beano.wsgi import application
    from bench.wsgi_request import wsgi_get

    hall = night.halls[-1]
    users = get_user_model().objects.in_bulk(
        [f"hall{hall.org}-{who}" for who in ("seller", "caller", "mic", "books")],
        field_name="username",
    )

    def client(who: str, htmx: bool = True) -> Client:
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        c = Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https", **headers)
        user = users[f"hall{hall.org}-{who}"]
        c.force_login(user)
        if second_factor_required(user):  # the bookkeeper files: verified as the verify page does
            device = confirmed_device(user) or TOTPDevice.objects.create(
                user=user, name="bench", confirmed=True
            )
            session = c.session
            session[django_otp.DEVICE_ID_SESSION_KEY] = device.persistent_id
            session.save()
        return c

    # The occasion and program pages are loaded whole (an htmx request of the occasion page is
    # its poll, answered 204 while nothing changed).
    seller, caller, books = client("seller"), client("caller"), client("books", htmx=False)
    anonymous = Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https")
    occasion = f"/org/{hall.org}/occasions/{hall.occasion}/"
    board = f"/flash/{hall.token}/board/"
    etag = anonymous.get(board)["ETag"]
    left = [n for n in range(1, 76) if n not in hall.called]
    sale = {f"qty_{hall.prices['admission']}": "1", f"qty_{hall.prices['extra_regular']}": "2"}
    kinds = [
        ("constant view", lambda: anonymous.get("/bench/constant/")),
        # Through the application gunicorn runs: its first layer answers this poll
        # (games/flash_wsgi.py), before the request cycle the test client goes through.
        (
            "flashboard poll, unchanged (304)",
            lambda: wsgi_get(application, board, host=HOST, HTTP_IF_NONE_MATCH=etag),
        ),
        ("flashboard poll, after a ball (200)", lambda: anonymous.get(board)),
        (
            "ball call (htmx POST)",
            lambda: caller.post(f"{occasion}games/{hall.game}/draw/call/", {"ball": left.pop()}),
        ),
        ("door sale (htmx POST)", lambda: seller.post(f"{occasion}sales/record/", sale)),
        ("door counts (htmx GET)", lambda: seller.get(f"{occasion}sales/counts/")),
        ("occasion page", lambda: books.get(occasion)),
        ("program page", lambda: books.get(f"{occasion}games/")),
    ]
    out = []
    for name, request in kinds:
        request()
        queries: list[str] = []

        def count(execute: Any, sql: str, *args: Any, queries: list[str] = queries) -> Any:
            queries.append(sql)
            return execute(sql, *args)

        with connection.execute_wrapper(count):
            response = request()
        assert response.status_code in (200, 304), (
            name,
            response.status_code,
            response.headers.get("Location"),
        )
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            request()
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        figure = {
            "request": name,
            "queries": len(queries),
            "p50_ms": round(percentile(times, 50), 2),
            "p95_ms": round(percentile(times, 95), 2),
        }
        out.append(figure)
        print(
            f"load: server time of a {name:<36} {figure['p50_ms']:>7.2f} ms  "
            f"queries {figure['queries']}"
        )
    return out


#: Measured once, when the flashboard's poll moved to the cache (commit 4ae1c0d; before it,
#: 9dfbc90), both servers alternating on the same database of 100 halls, the machine shared
#: with other work (load average 5 to 6): it cannot be measured again without the old code.
FLASHBOARD_BEFORE_AFTER = """### The flashboard's poll, before and after its cache

Before, every poll read the database (the link, then the game with its calls and prizes in one
aggregate query) to compute the ETag it compared; now the ETag is kept in Redis with a version
of the occasion that every service changing the board moves, and an unchanged poll reads two
cache keys and no table. Measured alternately on the same 100 halls (machine load 5 to 6):

| Poll answered 304 | Before (9dfbc90) | After (4ae1c0d) |
|---|---|---|
| queries | 2 | 0 |
| server time in one process, median of 300 | 7.3–8.2 ms | 0.55–1.0 ms |
| HTTP, polls only, 32 connections, 3 runs × 2 series | 57–181 req/s | 329–781 req/s |

The poll that follows a change (about one in six at a ball every six seconds) still reads the
board: four queries, as before.
"""


#: Measured when the unchanged poll moved before Django's request cycle (games/flash_wsgi.py):
#: bench/floor_writes.py --production --runs 1000, which times the same poll through Django's
#: handler alone and through beano.wsgi's application, in the same process and run.
FLASHBOARD_BEFORE_DJANGO = """### The flashboard's unchanged poll, before Django's request cycle

The poll whose tag still stands (five requests in six of a hall's night) is answered by the
first layer of the WSGI application gunicorn runs, on the same proof the view uses (the answer
kept in the cache under the token, of the occasion its tag names, at that occasion's live
version; one round trip, no query) and with the headers Django's own 304 carried. Anything else
goes on to Django. Timed without HTTP, the same poll through each, three runs of 1,000 (Intel
Xeon, 2 cores, 2026-12-05 16:33 and 17:05–17:10 UTC, nothing else running, load 0.3–1.6):

| Poll answered 304 | Django's request cycle | The layer before it |
|---|---|---|
| server time, median | 0.50–0.53 ms | 0.18–0.19 ms |
| process CPU, median | 0.45–0.47 ms | 0.13 ms |

Through HTTP, the polls alone now go faster than the constant view, which still passes Django's
request cycle (the ratio in the capacity table above).
"""


def mix_cost(out: dict[str, Any]) -> dict[str, float] | None:
    """From the requests' server times alone: the mix's average server time per request, the
    ratio to the constant view that it allows at best (whatever the machine), and the server
    time a hall costs each second of the night."""
    times = {f["request"].split(" (")[0]: f["p50_ms"] for f in out.get("server_times", [])}
    if "constant view" not in times:
        return None
    pages = (times["occasion page"] + times["program page"] + times["door counts"]) / 3
    pace = loadclient.Pace(**out["pace"])
    changed = min(1.0, pace.poll / pace.ball)  # the polls that follow a ball get the board
    per_kind = {
        loadclient.POLL: (1 - changed) * times["flashboard poll, unchanged"]
        + changed * times["flashboard poll, after a ball"],
        loadclient.BALL: times["ball call"],
        loadclient.SALE: times["door sale"],
        loadclient.COUNTS: times["door counts"],
        loadclient.BOOKS: pages,
        loadclient.INSPECTOR: pages,
    }
    rates = pace.rates(20, 1)  # twenty halls and their inspector
    requests = sum(rates.values())
    spent = sum(rates[k] * per_kind[k] for k in rates)
    writes = rates[loadclient.BALL] * per_kind[loadclient.BALL]
    writes += rates[loadclient.SALE] * per_kind[loadclient.SALE]
    return {
        "mean_ms": round(spent / requests, 2),
        "best_ratio": round(times["constant view"] / (spent / requests), 3),
        "hall_ms_per_s": round(spent / 20, 2),
        # Where a hall's time goes, each kind in ms a second of its night (the inspector's
        # pages shared among the twenty halls).
        "hall_ms_per_s_by_kind": {k: round(rates[k] * per_kind[k] / 20, 2) for k in rates},
        # The best ratio if every read cost nothing: the ball calls and sales alone.
        "writes_only_ratio": round(times["constant view"] / (writes / requests), 3),
    }


def _row(label: str, f: dict[str, Any]) -> str:
    share = ""
    if f.get("not_modified"):
        share = f" ({100 * f['not_modified'] / max(1, f['requests']):.0f} % 304)"
    return (
        f"| {label}{share} | {f['rps']} | {f['p50_ms']} | {f['p95_ms']} | {f['p99_ms']} | "
        f"{f['errors']} |"
    )


def markdown(out: dict[str, Any]) -> str:
    """The load test's section of bench/RESULTS.md."""
    head = "| Requests | req/s | p50 ms | p95 ms | p99 ms | errors |"
    rule = "|---|---|---|---|---|---|"
    lines = [
        "## Load: a statewide Friday night (`bench/load.py`)",
        "",
        f"Taken {out['taken']} on {out['machine']}. Server: {out['server']}; clients: "
        f"{out['clients']} (they share the two cores with the server and PostgreSQL). "
        f"Each phase lasts {out['duration_s']:.0f} s; a paced night is measured after "
        f"{out.get('warmup_s', 0):g} s of it sent uncounted, to warm the freshly started "
        "servers. Load average of the machine before and "
        f"after: {out.get('loadavg', '?')}.",
        "",
        "A hall's people, each at their own pace: the flashboard polls every "
        f"{out['pace']['poll']:g} s (If-None-Match), the caller enters a ball every "
        f"{out['pace']['ball']:g} s (never one already called; after 25 to 60 balls the member "
        "in charge finishes the game, confirms the next one's 75 balls and starts it), the door "
        f"records a sale every {out['pace']['sale']:g} s at the posted prices, the door screen "
        f"refreshes its counts every {out['pace']['counts']:g} s, the bookkeeper opens a page "
        f"every {out['pace']['books']:g} s; an inspector for every twenty halls opens a page every "
        f"{out['pace']['inspector']:g} s. All writes are htmx POSTs with the session and the CSRF "
        "token, as the browser sends them.",
        "",
    ]
    if out.get("server_times"):
        lines += [
            "### Each request alone (server time in one process, no HTTP)",
            "",
            "| Request | Queries | p50 ms | p95 ms |",
            "|---|---|---|---|",
            *[
                f"| {f['request']} | {f['queries']} | {f['p50_ms']} | {f['p95_ms']} |"
                for f in out["server_times"]
            ],
            "",
        ]
    cost = mix_cost(out)
    if cost:
        lines += [
            f"Weighted by the night's mix, a request costs the server {cost['mean_ms']} ms on "
            f"average against {out['server_times'][0]['p50_ms']} ms for the constant view: "
            f"however fast the machine, the mix's throughput can reach at best "
            f"{cost['best_ratio']:.2f} of the ceiling. A hall costs {cost['hall_ms_per_s']} ms "
            "of server time each second of its night, so 1,000 halls need about "
            f"{cost['hall_ms_per_s']:.0f} cores for the application alone, before PostgreSQL, "
            "Redis and the load clients.",
            "",
        ]
    if "ceiling" in out:
        lines += [
            f"### Capacity ({out['connections']} connections sending back to back)",
            "",
            head,
            rule,
            _row("constant view (the ceiling)", out["ceiling"]["total"]),
        ]
        if "polls" in out:
            lines.append(_row("flashboard polls only", out["polls"]["total"]))
        if "capacity" in out:
            lines.append(_row("the night's mix", out["capacity"]["total"]))
            lines += [_row(f"— {k}", f) for k, f in out["capacity"]["kinds"].items()]
        lines.append("")
        if "ratio" in out:
            lines += [
                f"**Ratio of the mix's throughput to the ceiling: {out['ratio']:.2f}** "
                f"(target ≥ 0.25, goal 0.5: {'met' if out['ratio'] >= 0.25 else 'not met'})"
                + (
                    f"; the flashboard's poll alone: {out['polls_ratio']:.2f}."
                    if "polls_ratio" in out
                    else "."
                ),
                "",
            ]
    lines += [FLASHBOARD_BEFORE_AFTER, FLASHBOARD_BEFORE_DJANGO]
    for night in out["nights"]:
        t = night["total"]
        met = t["p95_ms"] <= 100 and t["errors"] == 0
        lines += [
            f"### A night of {night['halls']:,} halls (asked {night['asked_rps']:,.0f} requests/s)",
            "",
            head,
            rule,
            _row("all", t),
            *[_row(k, f) for k, f in night["kinds"].items()],
            "",
            f"p95 ≤ 100 ms with no errors: {'met' if met else 'not met'}. The same night with "
            f"every request sent to the constant view: {night['constant']['rps']:,} req/s, p95 "
            f"{night['constant']['p95_ms']} ms; **ratio {night['ratio']:.2f}**.",
            "",
        ]
    lines.append(
        f"**Halls held: {out.get('halls_held', 0):,}** (the largest night tried at p95 ≤ 100 ms "
        "with no errors; 100 the target, 250 the stretch, 1,000 the goal)."
    )
    lines.append("")
    if out.get("cluster"):
        lines += cluster_markdown(out["cluster"])
    for note in out.get("notes", []):
        lines += [note, ""]
    return "\n".join(lines)


def cluster_markdown(c: dict[str, Any]) -> list[str]:
    made, sessions = c["reports"], c["sessions"]
    answered = ", ".join(f"{name} {count:,}" for name, count in c["answered"].items())
    reports = (
        "every version has one PDF, made once."
        if not made["problems"]
        else f"these went wrong: {'; '.join(made['problems'][:5])}."
    )
    lost = f"{sessions['lost_count']} lost." if sessions["lost_count"] else "none lost."
    return [
        "### Two servers as one (`bench/cluster.py`)",
        "",
        f"Through HAProxy (round robin) the servers answered {answered} requests of the run. "
        f"Bookkeepers filed {made['occasions']} reports through it while each render was sent "
        f"a second time, so the two workers raced for them: {made['renders_run']} renders ran "
        f"on {len(made['workers'])} workers and {reports} Every session of the night "
        f"({sessions['sessions']}) still opens its pages on each server directly: {lost} "
        f"Filings refused: {len(c['filing_errors'])}.",
        "",
    ]


def shared_machine_note(out: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """Said plainly when the machine was busy with other work during the run."""
    before = float(out["loadavg"].split()[0])
    cores = os.cpu_count() or 1
    notes = [f"_{n}_" for n in args.note]
    if before > cores / 2:
        notes.append(
            f"_This run shared the machine with other work: its load average was "
            f"{out['loadavg']} (1, 5 and 15 minutes, before → after) on {cores} cores, so every "
            "figure here is slower than the application alone would be, the nights most._"
        )
    return notes


def held(out: dict[str, Any]) -> int:
    """The largest night tried at p95 ≤ 100 ms with no errors (0: none)."""
    met = [
        n["halls"]
        for n in out["nights"]
        if n["total"]["p95_ms"] <= 100 and not n["total"]["errors"]
    ]
    return max(met, default=0)


def run_nights(
    out: dict[str, Any], args: argparse.Namespace, night: Any, cluster: Cluster, base: str
) -> None:
    from django.db import connection

    from bench import halls

    for n in args.hall_counts:
        halls.refresh(night)
        connection.close()
        night_data = night.as_dict()
        # Fresh servers for each night and for its twin: an overloaded night leaves requests
        # queued that would be answered during the next measurement.
        cluster.restart()
        result = drive(_specs(night_data, n, args, "paced", base))
        asked = loadclient.Pace().rates(n, (n + 19) // 20)
        t = total(result)
        short = argparse.Namespace(**{**vars(args), "duration": min(args.duration, 20)})
        cluster.restart()
        same = drive(_specs(night_data, n, short, "paced", base, constant=True))
        s = total(same)
        ratio = round(t["rps"] / s["rps"], 2) if s["rps"] else 0.0
        out["nights"].append(
            strip(result)
            | {"halls": n, "total": t, "asked_rps": round(sum(asked.values()), 1)}
            | {"constant": s, "ratio": ratio}
        )
        met = t["p95_ms"] <= 100 and t["errors"] == 0
        print(
            line(f"load: night of {n} halls (asked {sum(asked.values()):.0f}/s)", t)
            + ("  p95 ≤ 100 ms, no errors: met" if met else "  p95 ≤ 100 ms, no errors: not met")
        )
        print(line("load:   the same night to the constant view", s) + f"  ratio {ratio:.2f}")
        for kind, figures in result["kinds"].items():
            late = f"  late {figures['late']}" if figures["late"] else ""
            print(line(f"load:   {kind}", figures, late))
            for sample in figures["samples"][:2]:
                print(f"load:     e.g. {sample[:200]!r}")


def run_cluster_checks(
    out: dict[str, Any], args: argparse.Namespace, night: Any, cluster: Cluster, closed: list
) -> bool:
    """Reports filed through HAProxy and rendered by two racing workers; sessions on both
    servers; both servers used. True if every check passed."""
    from django.conf import settings

    cluster.start_workers()
    night_data = night.as_dict()
    filing_errors = file_through_the_balancer(
        cluster.base, f"{HOST}:{args.port}", night_data, closed
    )
    made = reports_made_once(closed, Path(settings.MEDIA_ROOT), wait=120 + 30 * len(closed))
    sessions = cluster.sessions_kept(night_data)
    answered = cluster.answered()
    problems = filing_errors + made["problems"] + sessions["lost"]
    if min(answered.values(), default=0) == 0:
        problems.append(f"a server answered nothing: {answered}")
    out["cluster"] = {
        "reports": made,
        "filing_errors": filing_errors,
        "sessions": {
            **sessions,
            "lost": sessions["lost"][:10],
            "lost_count": len(sessions["lost"]),
        },
        "answered": answered,
        "ok": not problems,
    }
    print(
        f"load: cluster: {made['occasions']} reports filed through HAProxy, "
        f"{made['renders_sent']} renders sent to {len(cluster.workers)} workers, "
        f"{made['renders_run']} run by {len(made['workers'])} of them: "
        + ("each made once" if not made["problems"] else f"PROBLEMS {made['problems'][:3]}")
    )
    print(
        f"load: cluster: {sessions['sessions']} sessions opened on each of the two servers: "
        + (f"{len(sessions['lost'])} lost" if sessions["lost"] else "none lost")
        + f"; requests answered by each server through HAProxy: {answered}"
    )
    for problem in problems[:10]:
        print(f"load:   problem: {problem}")
    return not problems


def main(argv: list[str]) -> int:
    args = parse(argv)
    data_dir = Path(tempfile.mkdtemp(prefix="beano-load-"))
    env = production_env(args, data_dir)
    os.environ.update(env)
    pg_version, migrated = fresh_database(args.database_url, args.admin_url)
    redis_version = flush_redis(args.redis_url)

    import django

    django.setup()
    from django.core.management import call_command
    from django.urls import reverse

    from bench import halls

    # The client writes its paths by hand: make sure they are the application's.
    assert reverse("draw_call", args=[1, 2, 3]) == "/org/1/occasions/2/games/3/draw/call/"
    assert reverse("sale_record", args=[1, 2]) == "/org/1/occasions/2/sales/record/"
    assert reverse("game_confirm_balls", args=[1, 2, 3]) == "/org/1/occasions/2/games/3/balls/"
    assert reverse("flashboard_board", args=["t"]) == "/flash/t/board/"
    assert reverse("bench_constant") == "/bench/constant/"
    assert reverse("inspector_dashboard") == "/inspect/"
    assert reverse("occasion_record", args=[1, 2]) == "/org/1/occasions/2/record/"
    assert reverse("report_file", args=[1, 2]) == "/org/1/occasions/2/report/file/"

    started = time.perf_counter()
    if not migrated:
        from django.db import connections

        call_command("migrate", verbosity=0)
        connections.close_all()
        keep_as_template(args.database_url, args.admin_url)
    collect_static(Path(env["STATIC_ROOT"]))
    most = max(args.hall_counts)
    night = halls.build(most)
    phases = [p.strip() for p in args.phases.split(",")]
    closed = closed_nights(night, min(args.reports, most)) if "cluster" in phases else []
    seeded = time.perf_counter() - started
    print(f"load: {most} halls seeded in {seeded:.0f} s (migrations and static files included)")
    from django.db import connection

    connection.close()
    out: dict[str, Any] = {
        "taken": now(),
        "machine": f"{machine()}, PostgreSQL {pg_version}, Redis {redis_version}",
        "server": f"two gunicorn servers behind HAProxy, each gthread {args.workers} workers × "
        f"{args.threads} threads, production settings (DEBUG off, PostgreSQL, Redis cache and "
        "broker, persistent connections); two Celery workers",
        "clients": f"{args.clients} processes, asyncio + aiohttp, on the same machine",
        "duration_s": args.duration,
        "warmup_s": args.warmup,
        "connections": args.connections,
        "pace": loadclient.Pace().__dict__,
        "nights": [],
    }
    out["loadavg"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load: load average of the machine before the run: {out['loadavg']} (1, 5, 15 min)")
    out["server_times"] = server_times(night, 5 if args.quick else 20)
    cost = mix_cost(out)
    if cost:
        out["mix_cost"] = cost
        print(
            f"load: the mix's mean server time {cost['mean_ms']:.2f} ms a request: at best "
            f"{cost['best_ratio']:.2f} of the ceiling"
        )
        print(f"hall cost: {cost['hall_ms_per_s']:.2f} ms of server time per second of its night")
    halls.refresh(night)
    connection.close()
    base = f"http://{HOST}:{args.port}"
    cluster = Cluster(args, env, data_dir)
    checks_ok = True
    with cluster:
        night_data = night.as_dict()
        ref = args.hall_counts[0] if args.quick else most
        if "ceiling" in phases:
            ceiling = drive(_specs(night_data, ref, args, "ceiling", base))
            out["ceiling"] = strip(ceiling) | {"total": total(ceiling)}
            print(line(f"load: ceiling, constant view, {args.connections} conns", total(ceiling)))
        if "polls" in phases:
            polls = drive(_specs(night_data, ref, args, "polls", base))
            out["polls"] = strip(polls) | {"total": total(polls), "halls": ref}
            ratio = ""
            if "ceiling" in out:
                out["polls_ratio"] = round(total(polls)["rps"] / out["ceiling"]["total"]["rps"], 2)
                ratio = f"  ratio to the ceiling {out['polls_ratio']:.2f}"
            print(
                line(f"load: flashboard polls only, {args.connections} conns", total(polls), ratio)
            )
        if "capacity" in phases:
            capacity = drive(_specs(night_data, ref, args, "closed", base))
            out["capacity"] = strip(capacity) | {"total": total(capacity), "halls": ref}
            ratio = ""
            if "ceiling" in out:
                out["ratio"] = round(total(capacity)["rps"] / out["ceiling"]["total"]["rps"], 2)
                ratio = f"  ratio to the ceiling {out['ratio']:.2f} (target ≥ 0.25, goal 0.5)"
            print(
                line(f"load: capacity, the mix, {args.connections} conns", total(capacity), ratio)
            )
            for kind, figures in capacity["kinds"].items():
                print(line(f"load:   {kind}", figures))
        if "night" in phases:
            run_nights(out, args, night, cluster, base)
        if "cluster" in phases:
            checks_ok = run_cluster_checks(out, args, night, cluster, closed)
    out["loadavg"] += f" → {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    out["halls_held"] = held(out)
    out["notes"] = shared_machine_note(out, args)
    if "night" in phases:
        tried = ", ".join(str(n) for n in args.hall_counts)
        print(f"halls held: {out['halls_held']} (nights tried: {tried}; p95 ≤ 100 ms, 0 errors)")
    if "ratio" in out:
        print(f"ratio to the constant view: {out['ratio']:.2f} (the mix's throughput / ceiling's)")
    print(f"load: load average of the machine before → after: {out['loadavg']}")
    if not args.quick:
        from bench.results import save

        save("load", out, markdown(out))
        print("load: wrote bench/RESULTS.json and bench/RESULTS.md")
    else:
        (data_dir / "load.json").write_text(json.dumps(out, indent=2, default=str))
    shutil.rmtree(data_dir, ignore_errors=True)
    connection.close()
    drop_database(args.database_url, args.admin_url)
    return 0 if checks_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

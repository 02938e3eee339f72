"""The hall's two writes alone: a ball call at the caller's console and a sale at the door, each
an htmx POST through Django's test client in this process (every middleware, no HTTP), on a
night built by bench/halls.py; the same two through the API (a floor token, JSON,
an Idempotency-Key each); and the flashboard's polls: the one that follows a ball (the whole
board) and the one between two balls (304).
Prints the queries of one request of each (``--sql`` lists them) and the server time of many,
median and p95, with the machine's load average before and after.

    python bench/floor_writes.py                 # SQLite and the cache in the process
    python bench/floor_writes.py --production    # PostgreSQL, Redis, DEBUG off (the load test's)
    python bench/floor_writes.py --quick         # 60 requests of each kind instead of 300

The production run needs PostgreSQL and Redis (``--database-url``, ``--redis-url``); its
database is dropped and made again, so its name must say "bench". Speed is measured here, never
asserted by a test."""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.profiling import show_profile  # noqa: E402

HOST = "bench.beano.test"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--production", action="store_true", help="PostgreSQL, Redis, DEBUG off")
    parser.add_argument(
        "--database-url", default="postgres://beano@127.0.0.1:5432/beano_floor_writes_bench"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/2")
    parser.add_argument("--runs", type=int, default=300, help="requests of each kind timed")
    parser.add_argument("--quick", action="store_true", help="60 requests of each kind")
    parser.add_argument("--halls", type=int, default=1)
    parser.add_argument("--sql", action="store_true", help="list the queries of each request")
    parser.add_argument(
        "--pages",
        action="store_true",
        help="also the occasion and program pages, whole (as the bookkeeper, the member in charge)",
    )
    parser.add_argument(
        "--profile", action="store_true", help="profile the timed requests (cProfile, top 30)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.runs = 60
    return args


def environment(args: argparse.Namespace) -> None:
    os.environ["BEANO_DATA_DIR"] = tempfile.mkdtemp(prefix="beano-floor-")
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    os.environ["ALLOWED_HOSTS"] = HOST
    os.environ["BEHIND_TLS_PROXY"] = "on"
    if args.production:
        if "bench" not in args.database_url.rsplit("/", 1)[-1]:
            sys.exit("the bench database is dropped and made again: its name must say 'bench'")
        name = args.database_url.rsplit("/", 1)[-1]
        server = args.database_url.rsplit("/", 1)[0] + "/postgres"
        subprocess.run(["psql", server, "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True)
        subprocess.run(["psql", server, "-qc", f"CREATE DATABASE {name}"], check=True)
        os.environ.update(
            DEBUG="off",
            SECRET_KEY=secrets.token_urlsafe(48),
            AUDIT_KEY=secrets.token_urlsafe(48),
            DATABASE_URL=args.database_url,
            DB_CONN_MAX_AGE="60",
            CACHE_URL=args.redis_url,
            CELERY_BROKER_URL=args.redis_url,
            # The pages' {% static %} reads the manifest of the collected files (--pages).
            STATIC_ROOT=str(ROOT / "var" / "bench" / "static"),
        )
    else:
        os.environ["DEBUG"] = "on"


def time_requests(
    name: str, request: Any, runs: int, show_sql: bool, profile: bool = False, status: int = 200
) -> dict[str, Any]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    request()  # warm
    connection.queries_log.clear()  # a full log (it keeps 9,000) would hide the count
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code == status, (name, response.status_code)
    count = len(captured)  # now: each request's start empties Django's log of queries
    if show_sql:
        print(f"--- {name}: {len(captured)} queries")
        for q in captured.captured_queries:
            print("   ", q["sql"][:220])
    times, cpu = [], []
    profiler = cProfile.Profile() if profile else None
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        if profiler is not None:
            profiler.enable()
        request()
        if profiler is not None:
            profiler.disable()
        cpu.append((time.process_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    if profiler is not None:
        show_profile("floor_writes", name, profiler)
    return {
        "request": name,
        "queries": count,
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 2),
        # This process's own processor time: what the request costs the web process, whatever
        # else the machine runs meanwhile (the database's time is not in it).
        "cpu_median_ms": round(statistics.median(cpu), 2),
        "bytes": len(response.content),
    }


def pages(hall: Any, occasion: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """The night's two costly pages, loaded whole (no htmx): as the bookkeeper, as the load
    test loads them, and the program page as the member in charge, who has its forms."""
    import django_otp
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django_otp.plugins.otp_totp.models import TOTPDevice

    figures = []
    for who in ("books", "mic"):
        user = get_user_model().objects.get(username=f"hall{hall.org}-{who}")
        c = Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https")
        c.force_login(user)
        device, _ = TOTPDevice.objects.get_or_create(user=user, name="bench", confirmed=True)
        session = c.session
        session[django_otp.DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
        wanted = (("occasion page", ""), ("program page", "games/"))
        for name, path in wanted if who == "books" else wanted[1:]:
            figures.append(
                time_requests(
                    f"{name} ({who})",
                    lambda c=c, path=path: c.get(f"{occasion}{path}"),
                    args.runs,
                    args.sql,
                    args.profile,
                )
            )
    return figures


def api_client(hall: Any, who: str) -> Any:
    """A client sending a floor token of ``hall``'s that acts as its ``who`` (the seller, the
    caller), made by a head of the hall (the benchmark's night has none: one is made)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from api import tokens
    from bench.halls import PASSWORD
    from organizations.models import Organization, OrganizationRole, Role

    users = get_user_model().objects
    head, _ = users.get_or_create(username=f"hall{hall.org}-head")
    OrganizationRole.objects.get_or_create(user=head, organization_id=hall.org, role=Role.HEAD)
    _, plain = tokens.issue(
        name=f"Bench {who}",
        scope="floor",
        by=head,
        organization=Organization.objects.get(pk=hall.org),
        rate_per_minute=tokens.MOST_RATE,
        acts_as=users.get(username=f"hall{hall.org}-{who}"),
        acts_as_secret=PASSWORD,
    )
    return Client(
        HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https", HTTP_AUTHORIZATION=f"Bearer {plain}"
    )


#: How many sales the queue's POST carries in the benchmark.
QUEUED = 10


def queued_sales(occasion: str, sale: dict[str, str], n: int) -> str:
    """A laptop's queue of ``n`` door sales done in the last ``n`` seconds, as the laptop sends
    it (offline/ acts endpoint; the contract in static/js/offline.js)."""
    import datetime as dt
    import json

    from django.utils import timezone

    now = timezone.now()
    acts = [
        {
            "seq": i + 1,
            "key": str(uuid.uuid4()),
            "path": f"{occasion}sales/record/",
            "fields": [[name, value] for name, value in sale.items()],
            "done_at": (now - dt.timedelta(seconds=n - i)).isoformat(),
            "laptop_at": (now - dt.timedelta(seconds=n - i)).isoformat(),
            "offset_ms": 0,
        }
        for i in range(n)
    ]
    return json.dumps({"device": str(uuid.uuid4()), "acts": acts})


def main(argv: list[str]) -> int:
    args = parse(argv)
    environment(args)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from bench import halls
    from bench.results import load_average, machine
    from games.models import BallCall

    setup_test_environment()
    settings.DEBUG = not args.production  # setup_test_environment turns it off
    call_command("migrate", verbosity=0)
    if args.production:
        cache.clear()
    night = halls.build(args.halls)
    hall = night.halls[-1]
    users = get_user_model().objects.in_bulk(
        [f"hall{hall.org}-{who}" for who in ("seller", "caller")], field_name="username"
    )

    def client(who: str) -> Client:
        c = Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https", HTTP_HX_REQUEST="true")
        c.force_login(users[f"hall{hall.org}-{who}"])
        return c

    seller, caller = client("seller"), client("caller")
    occasion = f"/org/{hall.org}/occasions/{hall.occasion}/"
    left: list[int] = []

    def call() -> Any:
        if not left:  # the game's balls run out: start its draw again (not timed apart)
            BallCall.objects.filter(game_id=hall.game).delete()
            left.extend(range(75, 0, -1))
        return caller.post(
            f"{occasion}games/{hall.game}/draw/call/",
            {"ball": left.pop(), "request_key": str(uuid.uuid4())},
        )

    sale = {f"qty_{hall.prices['admission']}": "1", f"qty_{hall.prices['extra_regular']}": "2"}
    before = load_average()
    figures = [
        time_requests("ball call (htmx POST)", call, args.runs, args.sql, args.profile),
        time_requests(
            "door sale (htmx POST)",
            lambda: seller.post(
                f"{occasion}sales/record/", {**sale, "request_key": str(uuid.uuid4())}
            ),
            args.runs,
            args.sql,
            args.profile,
        ),
    ]
    # The same ball and sale from a ball reader and the door's point of sale: the API, a floor
    # token acting as the caller and as the seller, each act with a new Idempotency-Key.
    reader, till = api_client(hall, "caller"), api_client(hall, "seller")
    api = f"/api/v1/organizations/{hall.org}/occasions/{hall.occasion}/"

    def api_call() -> Any:
        if not left:
            BallCall.objects.filter(game_id=hall.game).delete()
            left.extend(range(75, 0, -1))
        return reader.post(
            f"{api}games/{hall.game}/balls/",
            json.dumps({"ball": left.pop()}),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )

    lines = [
        {"item": hall.prices["admission"], "quantity": 1},
        {"item": hall.prices["extra_regular"], "quantity": 2},
    ]
    figures += [
        time_requests("ball call (API)", api_call, args.runs, args.sql, args.profile, status=201),
        time_requests(
            "door sale (API)",
            lambda: till.post(
                f"{api}sales/",
                json.dumps({"lines": lines}),
                content_type="application/json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            ),
            args.runs,
            args.sql,
            args.profile,
            status=201,
        ),
    ]
    # The same sale kept on the hall laptop while offline and sent from its queue: ten in one
    # POST to the acts endpoint (the laptop sends up to 100), each act a transaction of its
    # own judged as of its moment (a new laptop each time, its acts a second apart just now).
    figures.append(
        time_requests(
            f"door sales, {QUEUED} queued",
            lambda: seller.post(
                f"{occasion}offline/acts/",
                queued_sales(occasion, sale, QUEUED),
                content_type="application/json",
            ),
            max(1, args.runs // QUEUED),
            args.sql,
            args.profile,
        )
    )
    # The board's poll that follows a ball (one in six at a ball every six seconds): the whole
    # board from the cached copy, as the load test's "flashboard poll, after a ball".
    board = Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https", HTTP_HX_REQUEST="true")
    figures.append(
        time_requests(
            "board poll (after a ball)",
            lambda: board.get(f"/flash/{hall.token}/board/"),
            args.runs,
            args.sql,
            args.profile,
        )
    )
    # The poll between two balls (five in six): the board's ETag matches, 304 from the cache.
    etag = board.get(f"/flash/{hall.token}/board/")["ETag"]
    figures.append(
        time_requests(
            "board poll (unchanged)",
            lambda: board.get(f"/flash/{hall.token}/board/", HTTP_IF_NONE_MATCH=etag),
            args.runs,
            args.sql,
            args.profile,
            status=304,
        )
    )
    # The same poll as a server sends it: through the WSGI application gunicorn runs
    # (beano.wsgi, whose first layer answers it from the cache) and through Django's handler
    # alone (what that layer saves).
    from beano.wsgi import application
    from bench.wsgi_request import wsgi_get

    path = f"/flash/{hall.token}/board/"
    for name, app in (("WSGI, Django", application.app), ("WSGI, beano.wsgi", application)):
        figures.append(
            time_requests(
                f"board poll (unchanged, {name})",
                lambda app=app: wsgi_get(app, path, HTTP_IF_NONE_MATCH=etag),
                args.runs,
                args.sql,
                args.profile,
                status=304,
            )
        )
    if args.pages:
        if args.production:
            from bench.pg import collect_static

            collect_static(Path(settings.STATIC_ROOT))
        figures += pages(hall, occasion, args)
    after = load_average()
    db = "PostgreSQL, Redis, DEBUG off" if args.production else "SQLite, locmem cache, DEBUG on"
    print(f"{machine()}; {db}; {args.halls} hall(s); load average {before} → {after}")
    for f in figures:
        print(
            f"{f['request']:<24} queries {f['queries']:>3}  median {f['median_ms']:>6.2f} ms  "
            f"p95 {f['p95_ms']:>6.2f} ms  process CPU median {f['cpu_median_ms']:>6.2f} ms  "
            f"response {f['bytes']} bytes"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

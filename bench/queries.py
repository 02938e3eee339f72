"""Query scaling of the busy pages: queries and server time at 1x and 10x data.

Speed is measured here, never asserted by timing tests. Run with `make bench-quick` (one line
per figure) or `make bench` (also writes its section of bench/RESULTS.json and bench/RESULTS.md).
Each scenario builds its data in a fresh SQLite database under a temporary folder."""

from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BEANO_DATA_DIR", tempfile.mkdtemp(prefix="beano-bench-"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "beano.settings")
os.environ.setdefault("DEBUG", "on")
os.environ.setdefault("LOG_LEVEL", "WARNING")  # one line per figure, no login notices

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.signals import request_finished, request_started  # noqa: E402
from django.db import close_old_connections, connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from bench import scenarios  # noqa: E402
from bench.results import load_average, save  # noqa: E402


def login(client: Client, user: object) -> None:
    """Logged in as the login pages leave a user: the Commission's staff have also passed the
    second factor, as the verify page records it (beano/accounts)."""
    import django_otp
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from beano.accounts.policy import second_factor_required

    client.force_login(user)
    if second_factor_required(user):
        device = TOTPDevice.objects.create(user=user, name="Bench", confirmed=True)
        session = client.session
        session[django_otp.DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()


@dataclass
class Figure:
    page: str
    scale: int
    rows: int
    queries: int
    median_ms: float
    p95_ms: float


def measure(name: str, build: Callable[[int], tuple], scale: int, runs: int) -> Figure:
    """A scenario gives (user or None for an anonymous visitor, url, rows[, request headers])."""
    user, url, rows, *rest = build(scale)
    headers = rest[0] if rest else {}
    client = Client()
    if user is not None:
        login(client, user)
    response = client.get(url, headers=headers)
    assert response.status_code in (200, 304), (
        name,
        url,
        response.status_code,
        response.get("Location"),
    )
    connection.queries_log.clear()  # a full log (it keeps 9,000) would hide the count
    with CaptureQueriesContext(connection) as queries:
        client.get(url, headers=headers)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        client.get(url, headers=headers)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return Figure(
        name, scale, rows, len(queries), round(statistics.median(times), 1), round(p95, 1)
    )


def results_markdown(out: dict) -> str:
    figures = out["figures"]
    rows = [
        f"| {a['page']} | {a['rows']} → {b['rows']} | {a['queries']} → {b['queries']} | "
        f"{a['median_ms']} → {b['median_ms']} | {a['p95_ms']} → {b['p95_ms']} |"
        for a, b in zip(figures[::2], figures[1::2], strict=True)
    ]
    return "\n".join(
        [
            "## Query scaling of the busy pages, 1× and 10× data (`bench/queries.py`)",
            "",
            f"Taken {out['taken']} on {out['machine']} (load average {out.get('loadavg', '?')}):",
            "development settings (DEBUG on, SQLite, the cache in the process), Django's test",
            "client, so server time only.",
            "",
            "| Page | Rows | Queries | Median ms | p95 ms |",
            "|---|---|---|---|---|",
            *rows,
            "",
            "Every page keeps the same number of queries at ten times the data. The flashboard's",
            "poll, most of a hall's traffic, answers 304 from the cache without a query when no",
            "ball was called since its last poll. The worker list grows in time with its rows:",
            "each entry is judged again by the rules on the day shown.",
            "",
        ]
    )


def main() -> int:
    quick = "--quick" in sys.argv
    runs = 10 if quick else 40
    setup_test_environment()
    # As in Django's own test runner: keep one connection, so its queries can be counted.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    figures: list[Figure] = []
    loadavg = load_average()
    ok = True
    for name, build in scenarios.SCENARIOS.items():
        small = measure(name, build, 1, runs)
        large = measure(name, build, 10, runs)
        figures += [small, large]
        flat = small.queries == large.queries
        ok &= flat
        print(
            f"{name:<28} queries {small.queries:>3} → {large.queries:>3} "
            f"({'constant' if flat else 'GROWS'})  "
            f"median {small.median_ms:>6.1f} ms → {large.median_ms:>6.1f} ms  "
            f"(rows {small.rows} → {large.rows})"
        )
    if not quick:
        out = {
            "taken": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}, SQLite {connection.Database.sqlite_version}",
            "figures": [asdict(f) for f in figures],
            "loadavg": f"{loadavg} → {load_average()}",
        }
        save("queries", out, results_markdown(out))
        print("queries: wrote bench/RESULTS.json and bench/RESULTS.md")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""bench/RESULTS.json and bench/RESULTS.md, written section by section: each benchmark saves its
own section (its figures and its part of the page) and leaves the others as they were, so
``make bench`` can run them one after the other and a single one can be run again alone."""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
JSON_PATH = HERE / "RESULTS.json"
MD_PATH = HERE / "RESULTS.md"
#: The order of the sections on the page.
ORDER = ("queries", "load", "statewide", "report")

HEADER = """# Benchmark results

Speed is measured here, not asserted by tests. `make bench-quick` prints one line per figure
(in under a minute); `make bench` runs every benchmark in full and writes this file and
`bench/RESULTS.json`, section by section. What they need: see bench/README.md.
"""

FOOTER = ""


def machine() -> str:
    """What the figures were taken on: the processor, its cores, the memory, the versions."""
    cpu = platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 1024 / 1024:.0f} GiB memory"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{memory}, Python {platform.python_version()}"


def load_average() -> str:
    """The machine's load average over the last minute: other work on it shows in the figures."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def load() -> dict[str, Any]:
    if not JSON_PATH.exists():
        return {}
    data = json.loads(JSON_PATH.read_text())
    if "figures" in data:  # the first layout: the query scaling alone
        data = {"queries": {"taken": data["taken"], "machine": data["machine"], **data}}
    return data


def targets(everything: dict[str, Any]) -> str:
    """The targets of the benchmarks issue, each met or not by the figures written."""
    rows = []
    load = everything.get("load")
    if load:
        nights = {n["halls"]: n for n in load.get("nights", [])}
        within = [n for n, x in nights.items() if x["total"]["p95_ms"] <= 100]
        within = [n for n in within if not nights[n]["total"]["errors"]]
        if load.get("mix_cost"):
            cost = load["mix_cost"]["hall_ms_per_s"]
            rows.append(
                f"| A hall's cost ≤ 2 ms of server time per second of its night | {cost} ms "
                f"| {'met' if cost <= 2 else 'not met'} |"
            )
        if nights:
            most = max(within, default=0)
            rows.append(
                "| 100 halls at p95 ≤ 100 ms with no errors (250 the stretch, 1,000 the goal) | "
                f"halls held: {most:,} of the nights tried "
                f"({', '.join(f'{n:,}' for n in sorted(nights))} halls) | "
                + ("met" if most >= 100 else "not met" if max(nights) >= 100 else "not tried")
                + " |"
            )
        if "ratio" in load:
            rows.append(
                f"| The mix's throughput ≥ 0.25 of the constant view's (0.5 the goal) | capacity "
                f"ratio {load['ratio']:.2f}"
                + (
                    f" (at best {load['mix_cost']['best_ratio']:.2f} from the requests' "
                    "server times)"
                    if load.get("mix_cost")
                    else ""
                )
                + f" | {'met' if load['ratio'] >= 0.25 else 'not met'} |"
            )
        if load.get("cluster"):
            c = load["cluster"]
            rows.append(
                "| Two servers behind HAProxy behave as one: no report made twice, no session "
                f"lost | {c['reports']['occasions']} reports, {c['reports']['renders_sent']} "
                f"renders sent to two workers, {len(c['reports']['problems'])} problems; "
                f"{c['sessions']['sessions']} sessions on each server, "
                f"{c['sessions']['lost_count']} lost | {'met' if c['ok'] else 'not met'} |"
            )
        unchanged = next(
            (f for f in load.get("server_times", []) if "unchanged" in f["request"]), None
        )
        if unchanged:
            rows.append(
                f"| The flashboard's unchanged poll nearly free | {unchanged['queries']} "
                f"queries, {unchanged['p50_ms']} ms of server time (constant view: "
                f"{load['server_times'][0]['p50_ms']} ms) | "
                f"{'met' if unchanged['queries'] == 0 else 'not met'} |"
            )
    statewide = everything.get("statewide")
    if statewide:
        over = [f["page"] for f in statewide["pages"] if f["p95_ms"] > 200]
        rows.append(
            f"| Statewide year, the inspector's pages p95 ≤ 200 ms | "
            f"{len(statewide['pages']) - len(over)} of {len(statewide['pages'])} pages"
            + (f"; over: {'; '.join(over)}" if over else "")
            + f" | {'met' if not over else 'not met'} |"
        )
    report = everything.get("report")
    if report:
        rows.append(
            f"| The financial report PDF of a large night ≤ 2 s, ≤ 1.25 × WeasyPrint alone | "
            f"{report['generate_median_s']:.2f} s median for {report['games']} games, "
            f"{report['admissions']} admissions, {report['ball_calls']:,} calls "
            f"({report['pages']} pages); ratio {report['ratio']:.2f} | "
            f"{'met' if report['met'] else 'not met'} |"
        )
    if not rows:
        return ""
    return "\n".join(
        [
            "## Targets",
            "",
            "| Target | Measured | |",
            "|---|---|---|",
            *rows,
            "",
            reading(everything),
            "",
        ]
    )


def reading(everything: dict[str, Any]) -> str:
    """How to read the targets: the machine, and where a hall's server time goes, from the
    figures written."""
    text = [
        "The machine is small: two cores shared by the servers, PostgreSQL, Redis and the load "
        "clients. Each section gives the machine it was taken on and its load average (1.0 "
        "means one core busy); machines of the same kind differ by up to a third in speed, so "
        "compare figures taken on the same one. Earlier measurements, kept with the changes "
        "they led to: bench/HISTORY.md."
    ]
    cost = (everything.get("load") or {}).get("mix_cost") or {}
    kinds = cost.get("hall_ms_per_s_by_kind")
    if kinds:
        parts = ", ".join(
            f"{kind if kind.endswith('s') else kind + 's'} {ms:.2f}" for kind, ms in kinds.items()
        )
        text.append(
            f"Where a hall's {cost['hall_ms_per_s']} ms of server time a second go, in ms a "
            f"second: {parts} (the inspector's pages shared among twenty halls). The mix's "
            f"mean request costs the server {cost['mean_ms']} ms, so its throughput can reach "
            f"at best {cost['best_ratio']:.2f} of the constant view's; were every read free, "
            f"the ball calls and sales alone would still hold it to "
            f"{cost['writes_only_ratio']:.2f}. Each write is judged by the rules, locked, "
            "chained into the audit trail and committed before it is answered."
        )
    return "\n\n".join(text)


def rewrite() -> None:
    """Write RESULTS.md again from RESULTS.json (after a change of this page's text)."""
    everything = load()
    parts = [HEADER]
    if summary := targets(everything):
        parts.append(summary)
    for name in (*ORDER, *sorted(set(everything) - set(ORDER))):
        if name in everything and everything[name].get("markdown"):
            parts.append(everything[name]["markdown"].rstrip() + "\n")
        if name in everything and everything[name].get("by_hand"):
            parts.append(everything[name]["by_hand"].rstrip() + "\n")
    if FOOTER:
        parts.append(FOOTER)
    MD_PATH.write_text("\n".join(parts))


def save(section: str, data: dict[str, Any], markdown: str) -> None:
    """Replace one section's figures and text, keep the others, write both files. What was
    written by hand after a section (its ``by_hand`` text: measurements of a change, made with
    another script or by hand) is kept after the section's new text."""
    everything = load()
    by_hand = everything.get(section, {}).get("by_hand", "")
    everything[section] = {**data, "markdown": markdown, "by_hand": by_hand}
    JSON_PATH.write_text(json.dumps(everything, indent=2, default=str) + "\n")
    rewrite()


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=HERE,
            capture_output=True,
            text=True,
            timeout=10,
        )
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def percentile(sorted_values: list[float], p: float) -> float:
    """The value below which ``p`` percent of the (sorted) values fall (nearest rank)."""
    if not sorted_values:
        return 0.0
    rank = math.ceil(p / 100 * len(sorted_values))
    return sorted_values[max(0, min(len(sorted_values), rank) - 1)]
